import Synchronization

/// The cycle a statement's pattern takes over at, for Tidal's triggers (`qtrigger 1 $ …`): what
/// Tidal keeps as the `_t_` control its stream sets when a slot gets a pattern, read by the
/// pattern at query time. The player sets it when it installs the pattern, under the lock the
/// scheduler posts under, so the offset is the takeover's own and not a moment before it.
public final class TriggerStart: Sendable {
    private let cycle: Mutex<Time>

    // Thread: any (all of this class)
    public init(_ cycle: Time = .zero) { self.cycle = Mutex(cycle) }

    /// Where the pattern starts.
    public var value: Time { cycle.withLock { $0 } }

    public func set(_ t: Time) { cycle.withLock { $0 = t } }

    /// `p` shifted to start at the cycle `offset` makes of the takeover, read when queried.
    func shifted<T>(_ p: Pattern<T>, _ offset: @escaping @Sendable (Time) -> Time) -> Pattern<T> {
        Pattern { st in p.rotR(offset(self.value)).query(st) }
    }
}
