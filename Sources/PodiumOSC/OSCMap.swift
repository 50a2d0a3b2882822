import Foundation
import PodiumEngine
import PodiumHost
import PodiumRealtime
import Yams

/// An orchestra's OSC map: which controller address drives which channel, how.
/// A YAML file a person edits by hand (see `Orchestras/*.oscmap.yaml` and the README).
///
///     controls:
///       /1/fader1: { channel: amp, to: [0, 0.5] }
///       /1/fader2: { channel: cutoff, to: [100, 8000], curve: exp }
///       /1/toggle1: { channel: mute, mode: toggle }
///       /2/push1: { channel: hit, mode: momentary }
///       /3/xy: { mode: xy, channels: [x, y] }
///       /4/multitoggle: { mode: multitoggle, event: { instr: 3, duration: 0.5 } }
///       /4/multitoggle: { mode: multitoggle, channels: [kick, snare], steps: 16 }
///       /2/push1: { mode: push, event: { instr: 1, note: 60 } }
///       /accxyz: { mode: accelerometer }
///       /5/pie: { mode: pie, channels: [square, saw, sub], total: 1 }
public struct OSCMap: Sendable, Equatable {
    public enum Mode: String, Codable, Sendable {
        /// The value, scaled (the default).
        case continuous
        /// 0 or 1 (above half the input range: 1).
        case toggle
        /// 1 for exactly one k-cycle on press, then 0 (CsoundUI's momentary button).
        case momentary
        /// 1 while held, 0 on release; with `event: { instr, note }` a held note (`i1.060 0 -1 60`)
        /// from press to release.
        case push
        /// Two floats → two channels.
        case xy
        /// `/…/<control>/<row>/<col>`: a channel per cell (`channel_<row>_<col>`) or a score event per press.
        case multitoggle
        /// Three (or more) floats → `accelerometerX/Y/Z` (or `channels`).
        case accelerometer
        /// A total (`total:`, default 1) split among `channels` (a mix): one float per channel,
        /// in proportion; the channels get their shares of the total, together.
        case pie
    }

    public enum Curve: String, Codable, Sendable {
        case lin, exp, log
    }

    public struct Event: Codable, Sendable, Equatable {
        /// Instrument number (or name in `name`).
        public var instr: Double?
        public var name: String?
        public var duration: Double?
        /// push: the note (p4, and the fractional instance `instr.note` held until release).
        public var note: Double?
    }

    public struct Control: Codable, Sendable, Equatable {
        public var channel: String?
        public var channels: [String]?
        public var mode: Mode?
        /// Input range (what the controller sends). Default 0…1.
        public var range: [Double]?
        /// Output range (what the channel gets). Default: the input range.
        public var to: [Double]?
        public var curve: Curve?
        /// Sent to the channel when the map loads.
        public var `default`: Double?
        /// multitoggle: a score event per press (p4 = row, p5 = column).
        public var event: Event?
        /// multitoggle: step patterns laid out row by row, `columns` cells a row (TouchOSC's 8):
        /// the cells of `channels[0]`'s steps 1…`steps` first, then the next channel's.
        public var steps: Int?
        public var columns: Int?
        /// pie: what the channels' values add up to (default 1).
        public var total: Double?
        /// midi: the channel's value goes back out as this controller on `podium:midi_out` when it
        /// changes from anywhere but the controller itself (LED rings, motor faders).
        public var feedback: Bool?

        /// The scaled value for an incoming one.
        public func scale(_ value: Double) -> Double {
            let input = range ?? [0, 1]
            let output = to ?? input
            guard input.count == 2, output.count == 2, input[1] != input[0] else { return value }
            let shape: Binding.Curve = curve == .exp ? .exp : curve == .log ? .log : .lin
            return Binding.scale(value, inLow: input[0], inHigh: input[1], outLow: output[0], outHigh: output[1], curve: shape.rawValue)
        }

        /// A multitoggle cell's channel: `channel_<row>_<col>`, or with `steps:` the step the cell
        /// stands for (`kick_12`); nil for a cell past the last pattern.
        public func cellChannel(row: Int, col: Int) -> String? {
            guard let steps, steps > 0 else { return targetChannels.first.map { "\($0)_\(row)_\(col)" } }
            let index = (row - 1) * (columns ?? 8) + (col - 1)
            let pattern = index / steps, step = index % steps + 1
            guard row >= 1, col >= 1, col <= columns ?? 8, pattern < targetChannels.count else { return nil }
            return "\(targetChannels[pattern])_\(step)"
        }

        /// push with `event:`: the held note for a press (`i1.060 0 -1 60`: its own fractional
        /// instance, held) or a release (`i-1.060 0 0`: that instance ends). The one rule for
        /// every surface with push buttons (OSC, the stage page).
        // Thread: any
        public func heldNote(pressed: Bool) -> (instrument: Double, fields: [Double])? {
            guard (mode ?? .continuous) == .push, let e = event else { return nil }
            let note = e.note ?? 60
            let held = (e.instr ?? 1) + note / 1000
            return (pressed ? held : -held, pressed ? [0, -1, note] : [0, 0])
        }

        /// pie: the channels' shares of the total for proportions (one a channel, each finite
        /// and at least 0, not all 0).
        // Thread: any
        public func pieShares(_ proportions: [Double]) throws(InputError) -> [(String, Double)] {
            let names = targetChannels, total = self.total ?? 1
            guard proportions.count == names.count else {
                throw InputError("a pie of \(names.count) (\(names.joined(separator: ", "))) needs \(names.count) values, not \(proportions.count)")
            }
            guard proportions.allSatisfy({ $0.isFinite && $0 >= 0 }) else { throw InputError("a pie's values are finite numbers, at least 0") }
            let sum = proportions.reduce(0, +)
            guard sum.isFinite else { throw InputError("a pie's values are too large: their sum is not finite") }
            guard sum > 0 else { throw InputError("a pie's values cannot all be 0") }
            return zip(names, proportions.map { $0 / sum * total }).map { ($0, $1) }
        }

        public var targetChannels: [String] {
            if let channels { return channels }
            if let channel { return [channel] }
            return (mode ?? .continuous) == .accelerometer ? ["accelerometerX", "accelerometerY", "accelerometerZ"] : []
        }
    }

    public var controls: [String: Control]
    /// MIDI controllers → channels: keys `ccN` (any MIDI channel) or `chM/ccN` (channel 1–16);
    /// `range` defaults to 0…127, `to` to the input range; curves as for OSC.
    public var midi: [String: Control]
    /// Sample banks the set plays (`samples: [drums, ~/Dirt-Samples]`), as `--samples` gives
    /// them; a relative path is found beside the map.
    public var samples: [String] = []

    public struct LoadError: Error, CustomStringConvertible, Equatable {
        public var path: String
        public var message: String
        public var description: String { "\(path): \(message)" }
        public init(path: String, message: String) {
            self.path = path
            self.message = message
        }
    }

    private struct File: Codable {
        var controls: [String: Control]?
        var midi: [String: Control]?
        var samples: [String]?
    }

    public init(yaml: String, path: String = "<map>") throws {
        let file: File
        do { file = try YAMLDecoder().decode(File.self, from: yaml) } catch {
            throw LoadError(path: path, message: OSCMap.describe(error))
        }
        controls = file.controls ?? [:]
        midi = file.midi ?? [:]
        // (Foundation's deletingLastPathComponent traps on a one-letter path: found by hand.)
        let base = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        samples = (file.samples ?? []).map { p in
            let home = p.hasPrefix("~/") ? NSHomeDirectory() + p.dropFirst(1) : p
            return home.hasPrefix("/") || base.isEmpty ? home : base + "/" + home
        }
        for (key, c) in midi {
            guard OSCMap.controller(key) != nil else { throw LoadError(path: path, message: "midi: \(key): expected ccN or chM/ccN (N 0–127, M 1–16)") }
            guard c.channel != nil else { throw LoadError(path: path, message: "midi: \(key): needs channel:") }
            for r in [c.range, c.to].compactMap({ $0 }) where r.count != 2 {
                throw LoadError(path: path, message: "midi: \(key): a range is [low, high]")
            }
        }
        for (address, c) in controls {
            guard address.hasPrefix("/") else { throw LoadError(path: path, message: "\(address): an OSC address starts with /") }
            let mode = c.mode ?? .continuous
            if c.event == nil || (mode != .multitoggle && mode != .push), c.targetChannels.isEmpty {
                throw LoadError(path: path, message: "\(address): needs channel: (or channels:, or event: for a multitoggle)")
            }
            if mode == .push, let e = c.event, e.note == nil { throw LoadError(path: path, message: "\(address): a push that plays needs event: { instr, note }") }
            if let n = c.steps, n < 1 || mode != .multitoggle { throw LoadError(path: path, message: "\(address): steps: is for a multitoggle, at least 1") }
            if let n = c.columns, n < 1 { throw LoadError(path: path, message: "\(address): columns: at least 1") }
            if mode == .xy && c.targetChannels.count != 2 { throw LoadError(path: path, message: "\(address): xy needs channels: [x, y]") }
            if mode == .pie && c.targetChannels.count < 2 { throw LoadError(path: path, message: "\(address): a pie needs channels: [a, b, …] (two or more)") }
            if let t = c.total, mode != .pie || !(t.isFinite && t > 0) { throw LoadError(path: path, message: "\(address): total: is for a pie, above 0") }
            for r in [c.range, c.to].compactMap({ $0 }) where r.count != 2 {
                throw LoadError(path: path, message: "\(address): a range is [low, high]")
            }
            if c.curve == .exp, let o = c.to ?? c.range, o[0] <= 0 || o[1] <= 0 || (o[0] < 0) != (o[1] < 0) {
                throw LoadError(path: path, message: "\(address): an exp curve needs an output range above 0")
            }
        }
    }

    public init(contentsOf path: String) throws {
        let text: String
        do { text = try Engine.read(path) } catch {
            guard case let .unreadable(_, reason) = error else { throw LoadError(path: path, message: "\(error)") }
            throw LoadError(path: path, message: "cannot read: \(reason)")
        }
        try self.init(yaml: text, path: path)
    }

    /// `cc74` → (nil, 74); `ch2/cc7` → (2, 7).
    static func controller(_ key: String) -> (Int?, Int)? {
        let parts = key.lowercased().split(separator: "/")
        guard let last = parts.last, last.hasPrefix("cc"), let cc = Int(last.dropFirst(2)), (0...127).contains(cc) else { return nil }
        if parts.count == 1 { return (nil, cc) }
        guard parts.count == 2, parts[0].hasPrefix("ch"), let ch = Int(parts[0].dropFirst(2)), (1...16).contains(ch) else { return nil }
        return (ch, cc)
    }

    /// The map's MIDI section as bindings.
    public var midiBindings: [Binding] {
        midi.sorted { $0.key < $1.key }.compactMap { key, c in
            guard let (ch, cc) = OSCMap.controller(key), let channel = c.channel else { return nil }
            let input = c.range ?? [0, 127], output = c.to ?? input
            let curve: Binding.Curve = c.curve == .exp ? .exp : c.curve == .log ? .log : .lin
            return Binding(source: .midiCC(midiChannel: ch, controller: cc), channel: channel,
                           input: min(input[0], input[1])...max(input[0], input[1]), output: output[0]...max(output[1], output[0]), curve: curve,
                           feedback: c.feedback ?? false)
        }
    }

    /// A control whose channel is this sets the beat clock's tempo (BPM), not a channel.
    public static let tempoTarget = "podium.tempo"

    /// Channels the map names that the orchestra does not declare (as input control channels).
    public func undeclared(in engine: Engine) -> [String] {
        let declared = Set(engine.channels().filter { $0.kind == .control }.map(\.name))
        return (controls.values.flatMap { c -> [String] in
            if c.event != nil { return [] }
            if (c.mode ?? .continuous) == .multitoggle { return c.steps == nil ? [] : c.targetChannels.map { "\($0)_1" } }
            return c.targetChannels
        } + midi.values.compactMap(\.channel)).filter { !declared.contains($0) }.sorted()
    }

    /// The map entry for an address: exact, or the `/<page>/<control>` of a multitoggle cell.
    func control(for address: String) -> (Control, cell: (Int, Int)?)? {
        if let c = controls[address] { return (c, nil) }
        let parts = address.split(separator: "/")
        guard parts.count >= 3, let row = Int(parts[parts.count - 2]), let col = Int(parts[parts.count - 1]) else { return nil }
        let base = "/" + parts.dropLast(2).joined(separator: "/")
        guard let c = controls[base], c.mode == .multitoggle else { return nil }
        return (c, (row, col))
    }

    static func describe(_ error: Error) -> String {
        if let e = error as? YamlError { return "\(e)".replacingOccurrences(of: "\n", with: " ") }
        if let e = error as? DecodingError {
            switch e {
            case let .typeMismatch(_, ctx), let .valueNotFound(_, ctx), let .keyNotFound(_, ctx), let .dataCorrupted(ctx):
                let at = ctx.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
                return "\(at.isEmpty ? "" : at + ": ")\(ctx.debugDescription)"
            @unknown default: return "\(e)"
            }
        }
        return "\(error)"
    }
}
