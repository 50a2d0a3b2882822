import CJack
import Foundation
import PodiumEngine
import PodiumRealtime

// MIDI bindings, `:learn` and held notes: the binding table the audio thread reads, handed over
// like the engine (see EngineHandover.swift).

extension JackDriver {
    // MARK: bindings — Thread: NRT

    /// Replaces the bindings (set up: channels resolved, a new table handed to the audio thread,
    /// the old one freed here once it has let go). Throws for a channel the orchestra lacks.
    // Thread: NRT (owner, or a surface's thread)
    public func setBindings(_ bindings: [Binding]) throws {
        try bindingLock.withLock {
            let old = bindingList
            bindingList = bindings
            do { try rebind() } catch { bindingList = old; throw error }
        }
    }

    // Thread: NRT (owner, or a surface's thread)
    public func addBinding(_ binding: Binding) throws {
        try setBindings(bindingLock.withLock { bindingList } + [binding])
    }

    public var bindings: [Binding] { bindingLock.withLock { bindingList } }

    /// A bound output channel's value after the last k-cycle (nil: not bound).
    // Thread: NRT (owner, or a surface's thread)
    public func outputValue(_ name: String) -> Double? {
        bindingLock.withLock { bindingTable?.value(name) }
    }

    /// Binds the next MIDI controller that moves to `channel`, over the channel's declared range.
    // Thread: NRT (owner, or a surface's thread)
    public func learn(_ channel: String) throws {
        try InputCheck.channelName(channel)
        _ = try self.channel(channel)
        bindingLock.withLock { learning = channel }
    }

    /// The MIDI notes held now.
    public var heldNotes: [Int] { bindingLock.withLock { held.sorted() } }

    // Thread: NRT, under bindingLock
    func rebind() throws {
        let table = try BindingTable(bindingList) { name in try self.channel(name).0 }
        try feedBindings(table)
    }

    /// Hands the audio thread a new table (nil: none) and frees the previous one once the
    /// callback has handed it back. On a timeout nothing changed: the previous table stays.
    // Thread: NRT, under bindingLock
    func feedBindings(_ table: BindingTable?) throws {
        try handOver(.bindings) { $0.pointee.pendingBindings = table?.rt }
        bindingTable = table  // the previous table is freed here, after the audio thread let go
    }

    /// Rebinds after an engine rebuild; a failure is reported, not swallowed.
    // Thread: NRT, under bindingLock
    func rebindReporting() {
        do { try rebind() } catch {
            onNotice?("the bindings could not be restored on the new engine: \(error); they are kept and tried again on the next change")
        }
    }

    /// Held notes for `:chord`; `:learn` takes the next controller.
    // Thread: the supervisor
    func noteMIDI(_ c: Command) {
        guard c.count >= 2 else { return }
        var pf = c.pfields
        let b = withUnsafeBytes(of: &pf) { Array($0.prefix(Int(c.count))) }
        let kind = b[0] & 0xF0
        var learned: Binding?
        bindingLock.withLock {
            if kind == 0x90, b.count == 3, b[2] > 0 { held.insert(Int(b[1])) }
            else if kind == 0x80 || (kind == 0x90 && b.count == 3 && b[2] == 0) { held.remove(Int(b[1])) }
            if kind == 0xB0, let target = learning {
                learning = nil
                let range = lock.withLock { _engine?.channels().first { $0.name == target }?.range }
                learned = Binding(source: .midiCC(midiChannel: Int(b[0] & 0x0F) + 1, controller: Int(b[1])), channel: target,
                                  output: (range.map { $0.minimum...max($0.maximum, $0.minimum) }) ?? 0...1)
            }
        }
        if let learned {
            do {
                try addBinding(learned)
                if case let .midiCC(ch, cc) = learned.source {
                    onNotice?("learned: MIDI controller \(cc) on channel \(ch ?? 0) → \(learned.channel) (\(learned.output.lowerBound)…\(learned.output.upperBound))")
                }
            } catch { onNotice?("cannot bind \(learned.channel): \(error)") }
        }
    }
}
