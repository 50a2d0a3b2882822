import CAtomics
import CJack
import Glibc
import PodiumEngine

/// Things that exchange values with the engine every k-cycle (CsoundObj's `CsoundBinding`),
/// as one contract: **set up** (the driver resolves channels and hands the audio thread a table),
/// **to the engine** (before `csoundPerformKsmps`: a MIDI controller's latest value, scaled, into
/// its channel — applied on the k-cycle the message was timed in, and journaled), **from the
/// engine** (after it: output channels copied into the table, which the OSC feedback reads), and
/// **clean up** (the table is taken back and freed by the thread that made it). MIDI CC maps,
/// `:learn`, OSC's output feedback and MIDI controller feedback all go through it.
///
/// Controller feedback: after each k-cycle a `feedback: true` binding whose channel changed
/// sends its CC on `midi_out`; a controller's own move records the value it already shows, so it
/// is not echoed. A new table replaces the old through the handover handshake (Adoption.swift);
/// an engine rebuild takes the table away first (the old engine's channel pointers die with it)
/// and rebinds after (`JackDriver.rebuild`).
public struct Binding: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        /// MIDI control change `controller` on `midiChannel` (1–16; nil: any) → the channel.
        case midiCC(midiChannel: Int?, controller: Int)
        /// The channel's value after each k-cycle, for the host to read.
        case output
    }
    public enum Curve: UInt8, Sendable { case lin, exp, log }

    public var source: Source
    public var channel: String
    /// Input range (MIDI: 0…127) and the channel's range.
    public var input: ClosedRange<Double>
    public var output: ClosedRange<Double>
    public var curve: Curve
    /// MIDI: the channel's value goes back out as this controller on `midi_out` when it changes
    /// from anywhere but the controller itself (`sendFeedback`).
    public var feedback: Bool

    public init(source: Source, channel: String, input: ClosedRange<Double> = 0...127, output: ClosedRange<Double> = 0...1, curve: Curve = .lin,
                feedback: Bool = false) {
        self.source = source
        self.channel = channel
        self.input = input
        self.output = output
        self.curve = curve
        self.feedback = feedback
    }

    /// What a channel gets for an input value: clamped to the input range, then mapped onto the
    /// output range along the curve (MIDI bindings and the OSC map share it).
    // Thread: any
    @_noLocks @_noAllocation
    public static func scale(_ v: Double, inLow: Double, inHigh: Double, outLow: Double, outHigh: Double, curve: UInt8) -> Double {
        guard inHigh != inLow else { return outLow }
        let t = min(max((v - inLow) / (inHigh - inLow), 0), 1)
        switch curve {
        case 1: return outLow * _unsafePerformance { pow(outHigh / outLow, t) }
        case 2: return outLow + (outHigh - outLow) * _unsafePerformance { log10(1 + 9 * t) }
        default: return outLow + (outHigh - outLow) * t
        }
    }

    /// `scale` undone: the input value that gives a channel `v` (clamped to the ranges).
    // Thread: any
    @_noLocks @_noAllocation
    public static func unscale(_ v: Double, inLow: Double, inHigh: Double, outLow: Double, outHigh: Double, curve: UInt8) -> Double {
        guard outHigh != outLow else { return inLow }
        var t: Double
        switch curve {
        case 1:
            guard outLow > 0, outHigh > 0, v > 0 else { return inLow }
            t = _unsafePerformance { log(v / outLow) / log(outHigh / outLow) }
        case 2: t = (_unsafePerformance { pow(10, (v - outLow) / (outHigh - outLow)) } - 1) / 9
        default: t = (v - outLow) / (outHigh - outLow)
        }
        t = t.isNaN ? 0 : min(max(t, 0), 1)
        return inLow + (inHigh - inLow) * t
    }
}

/// One binding as the audio thread sees it: plain data.
struct BindingSlot: BitwiseCopyable {
    var fromEngine: Bool
    var midiChannel: Int16      // -1: any
    var controller: Int16
    var channel: UnsafeMutablePointer<Double>
    var inLow: Double, inHigh: Double, outLow: Double, outHigh: Double
    var curve: UInt8
    /// fromEngine: the channel's value after the last k-cycle (atomic store/load).
    var value: Double
    /// MIDI feedback: the controller value last sent (or last received from the controller,
    /// which is then not echoed); -1 before the first.
    var feedback = false
    var lastCC: Int16 = -1
}

/// The table the audio thread holds while bindings are set.
package struct BindingTableRT: @unchecked Sendable {
    let slots: UnsafeMutablePointer<BindingSlot>
    let count: Int
}

/// A set of bindings resolved against one engine (NRT owner; freed on the owner's thread).
package final class BindingTable: @unchecked Sendable {
    package let rt: BindingTableRT
    let outputs: [String: Int]

    package init(_ bindings: [Binding], resolve: (String) throws -> UnsafeMutablePointer<Double>) throws {
        let slots = UnsafeMutablePointer<BindingSlot>.allocate(capacity: max(bindings.count, 1))
        var outputs: [String: Int] = [:]
        for (i, b) in bindings.enumerated() {
            let p: UnsafeMutablePointer<Double>
            do { p = try resolve(b.channel) } catch { slots.deallocate(); throw error }
            var slot = BindingSlot(fromEngine: false, midiChannel: -1, controller: -1, channel: p,
                                   inLow: b.input.lowerBound, inHigh: b.input.upperBound,
                                   outLow: b.output.lowerBound, outHigh: b.output.upperBound, curve: b.curve.rawValue, value: 0)
            slot.feedback = b.feedback
            switch b.source {
            case let .midiCC(channel, controller):
                slot.midiChannel = Int16(channel.map { $0 - 1 } ?? -1)
                slot.controller = Int16(controller)
            case .output:
                slot.fromEngine = true
                outputs[b.channel] = i
            }
            slots.advanced(by: i).initialize(to: slot)
        }
        rt = BindingTableRT(slots: slots, count: bindings.count)
        self.outputs = outputs
    }

    deinit { rt.slots.deallocate() }

    package func value(_ name: String) -> Double? {
        outputs[name].map { podium_counter_load_double(&rt.slots[$0].value) }
    }
}

/// To the engine: a control change lands in every channel bound to it (and is reported).
// Thread: RT
@_noLocks @_noAllocation
func applyControlChange(_ s: UnsafeMutablePointer<RTState>, _ table: BindingTableRT, status: UInt8, controller: UInt8, value: UInt8, cycleStart: Int64) {
    let midiChannel = Int16(status & 0x0F)
    for i in 0..<table.count {
        let slot = table.slots[i]
        guard !slot.fromEngine, slot.controller == Int16(controller), slot.midiChannel < 0 || slot.midiChannel == midiChannel else { continue }
        let v = Binding.scale(Double(value), inLow: slot.inLow, inHigh: slot.inHigh, outLow: slot.outLow, outHigh: slot.outHigh, curve: slot.curve)
        RTEngine.store(slot.channel, v)
        // The controller already shows this value: feedback sends it only when it changes again.
        if slot.feedback { table.slots[i].lastCC = feedbackValue(slot, v) }
        var command = Command.zero
        command.kind = .setControl
        command.channel = slot.channel
        command.value = v
        report(s, Applied(kind: .command, id: 0, cycle: s.pointee.cycle, frame: cycleStart, command: command))
    }
}

/// The controller value a feedback binding sends for channel value `v` (0…127).
// Thread: RT
@_noLocks @_noAllocation
func feedbackValue(_ slot: BindingSlot, _ v: Double) -> Int16 {
    let x = Binding.unscale(v, inLow: slot.inLow, inHigh: slot.inHigh, outLow: slot.outLow, outHigh: slot.outHigh, curve: slot.curve)
    return Int16(min(max(BeatClock.floor(x + 0.5), 0), 127))  // nearest, without a rounding rule (metadata)
}

/// MIDI feedback, after each k-cycle: a bound channel that changed — from OSC, the page, the
/// REPL, a preset or the orchestra — goes out as its controller on midi_out at `frame`
/// (channel 1 when the binding takes any). A value the controller itself sent is not echoed.
// Thread: RT
@_noLocks @_noAllocation
func sendFeedback(_ s: UnsafeMutablePointer<RTState>, _ table: BindingTableRT, _ buffer: UnsafeMutableRawPointer, frame: Int) {
    for i in 0..<table.count where table.slots[i].feedback {
        let slot = table.slots[i]
        let cc = feedbackValue(slot, RTEngine.load(slot.channel))
        guard cc != slot.lastCC else { continue }
        table.slots[i].lastCC = cc
        var message: InlineArray<3, UInt8> = [0xB0 | UInt8(max(0, slot.midiChannel) & 0x0F), UInt8(slot.controller & 0x7F), UInt8(cc)]
        withUnsafeBytes(of: &message) { sendMIDI(s, buffer, frame: frame, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: 3) }
    }
}

/// From the engine: output channels into the table, after each k-cycle.
// Thread: RT
@_noLocks @_noAllocation
func readBoundOutputs(_ table: BindingTableRT) {
    for i in 0..<table.count where table.slots[i].fromEngine {
        let v = RTEngine.load(table.slots[i].channel)
        _unsafePerformance { podium_counter_store_double(&table.slots[i].value, v) }
    }
}
