import Glibc

/// A limit on the work one query does, not only on the events it returns: `s "beep" # freq
/// (segment 1e7 sine)` has one event a cycle, but each query of it walks ten million cycles of
/// `segment`'s inner pattern. The steps counted are cycles walked (`Arc.cycles`,
/// `Arc.wholeCycles`), where every repetition in a pattern comes from; a query run under
/// `limited(to:)` stops walking when its steps are spent and says so, and the caller refuses the
/// pattern. Outside `limited(to:)` a query is not metered (Tidal's own limit: none).
public enum QueryBudget {
    /// Steps a caller allows one query of one cycle: far more than a set plays (`fast 16 $ s
    /// "hh*64"` walks about a thousand), far less than a typo's millions. A step under a
    /// control or a patterned parameter costs tens of microseconds (generic code, rational time).
    public static let stepsPerCycle = 20_000

    /// Runs `body` (queries of patterns) with `steps` to spend on this thread; `exceeded` is true
    /// when a walk stopped short (the events are then incomplete: refuse the pattern).
    // Thread: any (the meter is the calling thread's)
    public static func limited<T>(to steps: Int, _ body: () throws -> T) rethrows -> (value: T, exceeded: Bool) {
        let meter = Meter(left: steps)
        let outer = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(meter).toOpaque())
        defer { pthread_setspecific(key, outer) }
        let value = try withExtendedLifetime(meter) { try body() }
        return (value, meter.exceeded)
    }

    /// Spends `steps` of this thread's meter; false when none are left (the walk stops).
    // Thread: any
    static func spend(_ steps: Int) -> Bool {
        guard let p = pthread_getspecific(key) else { return true }
        let meter = Unmanaged<Meter>.fromOpaque(p).takeUnretainedValue()
        // (saturating: a step count a pattern's argument chose may be near Int.max)
        if steps <= meter.left { meter.left -= steps; return true }
        meter.left = -1
        meter.exceeded = true
        return false
    }

    /// Walks are charged in runs of this many steps (a power of two) as they go, and the rest
    /// at their end: a walk of a cycle or two costs nothing extra, and once the budget is spent
    /// every long walk stops at its first run.
    static let run = 256

    /// Charges what a walk of `count` steps did not charge in whole runs.
    // Thread: any
    @inline(__always)
    static func spendRest(of count: Int) {
        if count > 2 { _ = spend(count & (run - 1)) }
    }

    private final class Meter {
        var left: Int
        var exceeded = false
        init(left: Int) { self.left = left }
    }

    nonisolated(unsafe) private static let key: pthread_key_t = {
        var k = pthread_key_t()
        pthread_key_create(&k, nil)
        return k
    }()
}
