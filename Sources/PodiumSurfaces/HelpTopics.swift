import Foundation
import PodiumPatterns

/// What `:help TOPIC` answers, and what the reference's generated tables hold
/// (`podium reference`, docs/reference): the REPL's commands, the OSC addresses, the pattern
/// functions (their signatures from the language's own table) and controls. One table each,
/// so the help, the reference and the code that runs them are read from the same place.
public enum HelpTopics {
    /// A REPL command: its usage and what it does.
    public struct Entry: Sendable {
        public let name: String
        public let usage: String
        public let text: String
    }

    /// The REPL's commands (ReplSession dispatches on their names).
    public static let replCommands: [Entry] = [
        Entry(name: ":help", usage: ":help [TOPIC]", text: "the commands; with a topic (a command, an OSC address, a pattern function or control): its entry"),
        Entry(name: ":load", usage: ":load FILE", text: "compile an orchestra file (a .csd's orchestra)"),
        Entry(name: ":reload", usage: ":reload", text: "recompile the watched orchestra file (only what changed)"),
        Entry(name: ":set", usage: ":set CHAN VAL", text: "set a channel (a number, or text for a string channel)"),
        Entry(name: ":get", usage: ":get CHAN", text: "print a channel's value"),
        Entry(name: ":channels", usage: ":channels", text: "the orchestra's channels, their values, (in)/(out)"),
        Entry(name: ":instruments", usage: ":instruments", text: "the defined instruments (included files' too) and how many notes each plays"),
        Entry(name: ":status", usage: ":status", text: "the engine, the clock, Link, the audio thread's statistics"),
        Entry(name: ":record", usage: ":record start|stop", text: "start or stop the session's audio recording (no argument: where it records)"),
        Entry(name: ":preset", usage: ":preset save|load NAME", text: "save or restore every input channel (Sessions/presets/<orchestra>/NAME.json)"),
        Entry(name: ":reset", usage: ":reset CHAN", text: "a channel back to its declared default"),
        Entry(name: ":learn", usage: ":learn CHAN", text: "bind the next MIDI controller moved to a channel"),
        Entry(name: ":chord", usage: ":chord", text: "name the notes held on MIDI"),
        Entry(name: ":tempo", usage: ":tempo [BPM]", text: "set the beat clock's tempo from the next k-cycle; alone, show the clock"),
        Entry(name: ":quant", usage: ":quant bar|beat|N|off", text: "quantize every following score line (N beats)"),
        Entry(name: ":loops", usage: ":loops", text: "the loops playing"),
        Entry(name: ":patterns", usage: ":patterns", text: "the pattern slots playing"),
        Entry(name: ":samples", usage: ":samples [NAME]", text: "the sample banks' names (s \"bd:3\" plays bd's fourth file); with a name: which file it plays"),
        Entry(name: ":stop", usage: ":stop [NAME]", text: "stop a loop after its iteration (all)"),
        Entry(name: ":hush", usage: ":hush", text: "silence now: notes released, waiting notes dropped, loops and patterns ended, all notes off on MIDI out"),
        Entry(name: ":link", usage: ":link [on|off|start|stop]", text: "join or leave Ableton Link (peers, tempo, beat); start or stop the clock; alone, the Link status"),
        Entry(name: ":quit", usage: ":quit", text: "stop (or Ctrl-D; while recording on a terminal, asks once)"),
    ]

    /// What else a REPL line can be.
    public static let replLines: [Entry] = [
        Entry(name: "i", usage: "i1 0 2 440, i \"bass\" 0 1 .5", text: "a score line; p-fields may be note names: a4 (440 Hz), ma4 (MIDI 69)"),
        Entry(name: "instr", usage: "instr NAME … endin", text: "an instrument, compiled while playing (a hot swap); opcode … endop too"),
        Entry(name: "@bar", usage: "@bar LINE, @beat LINE, @now LINE", text: "one line on the next bar, beat, or now"),
        Entry(name: "loop", usage: "loop NAME BEATS … end", text: "a live loop (typed again: swaps at its next turn)"),
        Entry(name: "d1", usage: "d1 $ s \"bass*2 [~ bass]\" # n \"<0 3>\"", text: "a pattern, in Tidal's words (typed again: swaps at the next cycle); d1 silence, hush, setcps 0.6, once $ …; :{ … :} for several lines"),
        Entry(name: "chord", usage: "chord ROOT QUALITY START DUR [INSTR]", text: "a chord: maj, min, dim, aug, sus2, sus4, maj7, m7, 7, dim7, m7b5"),
        Entry(name: "scale", usage: "scale ROOT MODE START STEP [INSTR]", text: "a scale up one octave: major, minor, the modes, pentatonic, blues, chromatic"),
    ]

    /// The OSC addresses (OSCSurface dispatches on them): address, arguments, what it does.
    public static let oscAddresses: [Entry] = [
        Entry(name: "/podium/event", usage: "i|s f… : instrument (number or name), start, duration, p4…", text: "a score event"),
        Entry(name: "/podium/score", usage: "s : score lines", text: "plain i lines become frame-exact events; others go to Csound's score reader"),
        Entry(name: "/podium/chn/<name>", usage: "f or s", text: "sets a declared control or string channel"),
        Entry(name: "/podium/orc", usage: "s : orchestra code", text: "compiles; replies /podium/done or /podium/fail ,s"),
        Entry(name: "/podium/reload", usage: "—", text: "recompiles the orchestra file"),
        Entry(name: "/podium/status", usage: "—", text: "replies /podium/status.reply: sr, ksmps, period, k-cycles, xruns, commands, DSP load %, instruments, the last reload's callback (ms), Link on, peers, tempo, beat"),
        Entry(name: "/podium/subscribe", usage: "— (/podium/unsubscribe too)", text: "the sender gets feedback"),
        Entry(name: "/podium/preset/save", usage: "s : name (/podium/preset/load too)", text: "every input channel; /podium/done or /podium/fail"),
        Entry(name: "/podium/tempo", usage: "f BPM, or nothing", text: "sets the tempo; with nothing, replies /podium/tempo ,f"),
        Entry(name: "/podium/quant", usage: "f beats (0: off), or s bar|beat|off; or nothing", text: "the quantization of score lines; with nothing, replies /podium/quant ,s"),
        Entry(name: "/podium/link", usage: "i 1 or 0, or nothing", text: "joins (only with --link) or leaves Ableton Link; replies /podium/link ,iiff on, peers, tempo, beat"),
        Entry(name: "/podium/link/play", usage: "i 1 or 0", text: "starts or stops the clock (with --link-start-stop, the session)"),
        Entry(name: "/podium/loop", usage: "sfs : name, beats, body", text: "defines or redefines a live loop; /podium/done ,s or /podium/fail ,s"),
        Entry(name: "/podium/loop/stop", usage: "s : name (none: all)", text: "stops a loop after its iteration"),
        Entry(name: "/podium/pattern", usage: "ss : slot, expression; or s : a statement", text: "a pattern; /podium/done ,s or /podium/fail ,s with the column"),
        Entry(name: "/podium/samples", usage: "nothing, or s : a name", text: "replies /podium/samples ,s: the banks and names, or the file a name plays"),
        Entry(name: "/podium/hush", usage: "—", text: "silence now (as :hush); /podium/done ,s"),
        Entry(name: "/podium/record/start", usage: "— (/podium/record/stop too)", text: "starts or stops the session's audio; /podium/done ,s or /podium/fail ,s"),
        Entry(name: "/csound/event", usage: "as Csound 7's OSC server: /csound/event, /csound/channel/<name>, /csound/compile", text: "aliases of /podium/event, /podium/chn/<name>, /podium/orc"),
        Entry(name: "/dirt/play", usage: "key/value pairs, in a timetagged bundle (with --dirt, UDP 57120)", text: "a TidalCycles event, as SuperDirt takes it; /dirt/handshake is answered as SuperDirt answers it"),
    ]

    /// `:help`'s listing.
    public static var listing: String {
        let commands = replCommands.map { "  " + $0.usage.padding(toLength: 26, withPad: " ", startingAt: 0) + " " + $0.text }
        let lines = replLines.map { "  " + $0.usage + "\n      " + $0.text }
        return (["score lines, instruments, patterns and loops:"] + lines + ["commands (:help TOPIC for one, a pattern function, a control or an OSC address):"] + commands)
            .joined(separator: "\n")
    }

    /// The entry for a topic: a REPL command (`hush`, `:hush`), an OSC address, a pattern
    /// function (its signature) or control; else what the name resembles.
    public static func help(_ topic: String) -> String {
        let t = topic.trimmingCharacters(in: .whitespaces)
        let command = t.hasPrefix(":") ? t : ":" + t
        var found: [String] = []
        if let e = replCommands.first(where: { $0.name == command }) { found.append("\(e.usage)\n  \(e.text)") }
        if let e = replLines.first(where: { $0.name == t }) { found.append("\(e.usage)\n  \(e.text)") }
        if let e = oscAddresses.first(where: { $0.name == t || $0.usage.contains("(\(t) too)") }) { found.append("OSC \(e.name)  \(e.usage)\n  \(e.text)") }
        if let s = PatternReference.signature(t) {
            found.append(s + "\n  " + (PatternReference.summaries[t].map { $0 + " — " } ?? "") + "a pattern function (the reference: docs/reference/patterns.md, installed in /usr/share/doc/podium)")
        }
        if let c = PatternReference.control(t) { found.append("\(t): \(c)") }
        if PatternReference.unsupportedNames.contains(t) { found.append("\(t): Tidal has it; Podium does not support it yet") }
        if !found.isEmpty { return found.joined(separator: "\n") }
        let all = replCommands.map(\.name) + oscAddresses.map(\.name) + PatternReference.functionNames
        let key = t.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ":/"))
        let near = all.filter { name in
            let n = name.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ":/"))
            return (key.count >= 3 && n.contains(key)) || distance(n, key) <= (key.count > 4 ? 2 : 1)
        }.prefix(8)
        return "no help for \(t)" + (near.isEmpty ? " (:help lists the commands)" : "; did you mean \(near.joined(separator: ", "))?")
    }

    /// Edit distance (Levenshtein), for "did you mean".
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in 1...b.count {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }

    /// A Markdown table of entries (the reference's generated tables).
    public static func markdown(_ entries: [Entry], columns: (String, String, String)) -> String {
        func cell(_ s: String) -> String { s.replacingOccurrences(of: "|", with: "\\|") }
        return "| \(columns.0) | \(columns.1) | \(columns.2) |\n|---|---|---|\n"
            + entries.map { "| `\(cell($0.name))` | \(cell($0.usage)) | \(cell($0.text)) |" }.joined(separator: "\n") + "\n"
    }

    /// The pattern functions with their signatures, as a Markdown table.
    public static var functionsMarkdown: String {
        "| function | signature | does |\n|---|---|---|\n" + PatternReference.functionNames.map { name in
            "| `\(name.replacingOccurrences(of: "|", with: "\\|"))` | `\((PatternReference.signature(name) ?? "").replacingOccurrences(of: "|", with: "\\|"))` | \(PatternReference.summaries[name] ?? "") |"
        }.joined(separator: "\n") + "\n"
    }
}
