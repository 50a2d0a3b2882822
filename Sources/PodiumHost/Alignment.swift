import PodiumRealtime
/// ksmps must divide the JACK period: Csound then runs `period / ksmps` k-cycles per
/// callback, straight on the port buffers, with no buffering in between.
public enum Alignment {
    /// The divisors of a period, smallest first.
    public static func divisors(of period: Int) -> [Int] {
        (1...max(period, 1)).filter { period % $0 == 0 }
    }

    /// The ksmps to use: the period itself, or the requested divisor of it.
    public static func ksmps(period: Int, requested: Int?) throws -> Int {
        guard let requested else { return period }
        guard requested > 0, period % requested == 0 else {
            throw JackError.badKsmps(ksmps: requested, period: period, valid: divisors(of: period))
        }
        return requested
    }

    /// After the period changed: keep ksmps if it still divides, otherwise the largest
    /// divisor of the new period that is not above the old ksmps (same control granularity or finer).
    public static func realign(ksmps: Int, newPeriod: Int) -> Int {
        if newPeriod % ksmps == 0 { return ksmps }
        return divisors(of: newPeriod).last { $0 <= ksmps } ?? 1
    }
}
