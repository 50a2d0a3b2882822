/// What reaches the speakers: every k-cycle Csound computed, converted to JACK's floats, is
/// checked before it is written. A k-cycle holding a NaN or an infinity (after conversion) is
/// replaced by silence as a whole; every other sample is clipped to ±limit (the performer's
/// safety limit; `Float.infinity` turns clipping off). The callback and the session replayer
/// both convert through here, so a replay matches what was sent to JACK bit for bit.
public enum OutputGuard {
    /// What one k-cycle needed.
    public struct Outcome: BitwiseCopyable {
        /// The k-cycle held a non-finite sample and is silent.
        public var silenced: Bool
        /// Samples beyond ±limit, clipped.
        public var clipped: Int
    }

    /// Checks one k-cycle of interleaved `spout` (`count` samples): silenced if any sample,
    /// scaled to JACK's range and converted to Float, is not finite; otherwise counts the
    /// samples beyond `limit`.
    // Thread: RT (JACK process callback) or offline replay
    @_noLocks @_noAllocation @inline(__always)
    public static func check(_ spout: UnsafePointer<Double>, count: Int, scale: Double, limit: Float) -> Outcome {
        var clipped = 0
        for i in 0..<count {
            let v = Float(spout[i] * scale)
            if !v.isFinite { return Outcome(silenced: true, clipped: 0) }
            if v > limit || v < -limit { clipped += 1 }
        }
        return Outcome(silenced: false, clipped: clipped)
    }

    /// One sample as written to JACK (for a k-cycle that `check` did not silence).
    // Thread: RT (JACK process callback) or offline replay
    @_noLocks @_noAllocation @inline(__always)
    public static func sample(_ x: Double, scale: Double, limit: Float) -> Float {
        let v = Float(x * scale)
        return v > limit ? limit : (v < -limit ? -limit : v)
    }

    /// The limit for an optional amplitude (nil: no clipping, only the non-finite guard).
    public static func limit(_ amplitude: Double?) -> Float {
        amplitude.map { Float($0) } ?? .infinity
    }
}
