// Whole numbers from the doubles patterns and messages carry, without the trap of `Int(x)`
// (it stops the process for NaN, ±inf and anything past ±9.2e18: `n "1e19"` from a pattern or a
// `/dirt/play` did). Values a sample index or a frame offset can take are far inside the clamp.

extension Int {
    /// `x` rounded down; NaN is 0 and anything past ±2^53 is clamped there.
    // Thread: any
    @inlinable
    public init(flooring x: Double) {
        let limit = 9_007_199_254_740_992.0  // 2^53: every double past it is already whole
        guard !x.isNaN else { self = 0; return }
        self = Int(Swift.max(-limit, Swift.min(limit, x.rounded(.down))))
    }

    /// `x` rounded to the nearest whole number; NaN is 0 and anything past ±2^53 is clamped there.
    // Thread: any
    @inlinable
    public init(roundingClamped x: Double) {
        let limit = 9_007_199_254_740_992.0
        guard !x.isNaN else { self = 0; return }
        self = Int(Swift.max(-limit, Swift.min(limit, x.rounded())))
    }
}
