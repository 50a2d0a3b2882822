import Foundation
import PodiumEngine
import PodiumHost
import Synchronization

/// Carries out what the performer typed (REPL, piped stdin), through one command producer.
/// Lines are read on the REPL's thread and carried out in order through the session's
/// `SurfaceLane`: a compile goes to the compile queue and the thread returns at once; the lines
/// after it wait for its answer (so `i5` finds the `instr 5` typed before it), and queries
/// (`:status`, `:get`, …) answer at once. Output goes to `print`.
public final class ReplSession: @unchecked Sendable {
    let driver: JackDriver
    let lane: SurfaceLane
    let producer: CommandProducer
    let score: ScoreInput
    var interpreter = ReplInterpreter()
    public let print: @Sendable (String) -> Void
    /// The orchestra file `:reload` recompiles (nil: none).
    let reloader: HotReload?
    /// Set by `:quit` (when it is carried out: after what was typed before it).
    private let quit = Atomic<Bool>(false)
    public var quitRequested: Bool { quit.load(ordering: .acquiring) }

    /// Waits until every line handed in so far has been carried out (piped input's end or its
    /// `:quit`: a compile before them is answered first); false when `shouldStop` said so.
    // Thread: NRT (piped input's own)
    public func finish(shouldStop: () -> Bool) -> Bool { lane.waitUntilIdle(shouldStop: shouldStop) }
    /// Live loops (`loop NAME BEATS` … `end`, `:loops`, `:stop`), when the performance runs them.
    public var loops: LiveLoops?
    /// Session recording (`:record start|stop`), when the performance offers it.
    public var recording: RecordingControl?
    /// Where `:preset save|load` keeps presets (nil: presets are off).
    public var presets: Presets?
    /// `:quit` while recording asks once; a second `:quit` (or Ctrl-D) stops. Only on a
    /// terminal (`confirmsQuit`): piped input or a script has nobody to answer, so it stops at once.
    private var quitWarned = false
    /// Whether `:quit` during a recording asks for confirmation (true for a terminal REPL).
    public var confirmsQuit = false

    public static let commands = HelpTopics.replCommands.map(\.name)

    public init(driver: JackDriver, reloader: HotReload?, print: @escaping @Sendable (String) -> Void) {
        self.driver = driver
        lane = SurfaceLane(driver: driver)
        producer = driver.makeProducer()
        score = ScoreInput(driver: driver, producer: producer)
        self.reloader = reloader
        self.print = print
    }

    public var inBlock: Bool { interpreter.inBlock }

    /// Drops a half-typed instr block (Ctrl-C).
    public func cancelBlock() { interpreter = ReplInterpreter() }

    /// The prompt: the performance's time, cycle (from 0) and beat in it (from 1), as every
    /// screen numbers them (`cycleAndBeat`), and whether a block is open.
    public var prompt: String {
        let s = driver.stats
        let e = driver.engine
        let seconds = Double(s.cycles) * Double(e.ksmps) / e.sampleRate
        let (cycle, beat) = ReplSession.cycleAndBeat(driver.beatNow, quantum: driver.clock.quantum)
        return interpreter.inBlock ? "      … " : String(format: "podium %.1fs %d.%d ▸ ", seconds, cycle, beat)
    }

    /// Commands that only read: answered at once, even while a compile waits.
    static let queries: Set<String> = ["help", "get", "channels", "status", "chord"]

    /// One line of input: read now, carried out in order (see the type's comment).
    // Thread: NRT (the REPL's)
    public func handle(_ line: String) {
        RecentInputs.note("repl: \(line)")
        // Musical time: the line's own `@bar`/`@beat`/`@now`, or (when it is carried out) the performance's `:quant`.
        var prefix: Quantize?
        var text = line
        if !interpreter.inBlock {
            do {
                let (p, rest) = try TimePrefix.split(line, quantum: driver.clock.quantum)
                if let p { prefix = p; text = rest }
            } catch { return print(error.description) }
        }
        let input = interpreter.feed(text)
        switch input {
        case .nothing, .incomplete: return
        case let .command(name, _) where ReplSession.queries.contains(name):
            lane.exclusive { carryOut(input, prefix) }
        default:
            if !lane.run({ [self, prefix] in carryOut(input, prefix) }) {
                print("not done: \(SurfaceLane.capacity) lines already wait for a compile to finish")
            }
        }
    }

    /// What a line asks for.
    // Thread: NRT (under the lane: the REPL's, or the compile thread's after a compile)
    func carryOut(_ input: ReplInterpreter.Action, _ prefix: Quantize?) {
        let quantize = prefix ?? driver.quantization.withLock { $0 }
        switch input {
        case .nothing, .incomplete: return
        case let .score(score): play(score, quantize)
        case let .scores(lines):
            // chord/scale: every p-field the instrument reads (0 for the optional ones), not a warning per note.
            let orchestras = driver.engine.orchestraTexts
            lines.map { PFields.padded($0, orchestras: orchestras) }.forEach { play($0, quantize) }
        case let .problem(message): print(message)
        case let .code(code, _): compile(code)
        case let .command(name, args): command(name, args)
        case let .loop(name, beats, body): defineLoop(name, beats, body)
        case let .pattern(text, _): playPattern(text)
        }
    }

    func play(_ statement: ScoreLine, _ quantize: Quantize = .now) {
        do { try score.play(statement, quantize: quantize) } catch { print(error.description) }
    }

    /// Orchestra code: compiled by the compile queue; the answer is printed when it merged.
    func compile(_ code: String, source: String = "<repl>") {
        // Line numbers in errors count from the first line of what was just typed.
        lane.compile(code, source: source) { [print] result in
            switch result {
            case .success:
                let t = InstrumentTable.declared(in: code)
                let names = t.numbers.sorted().map(String.init) + t.names
                print(source != "<repl>" ? "compiled \(source)" : names.isEmpty ? "ok" : "compiled instr \(names.joined(separator: ", "))")
            case let .failure(error):
                print("\(error)")
            }
        }
    }

    func command(_ name: String, _ args: [String]) {
        switch name {
        case "help":
            print(args.isEmpty ? HelpTopics.listing : HelpTopics.help(args.joined(separator: " ")))
        case "load":
            guard let path = args.first else { return print("usage: :load FILE") }
            do { compile(try CSDSections.orchestra(ofFile: path), source: path) } catch { print("\(error)") }
        case "reload":
            guard let reloader else { return print("nothing to reload (no orchestra file)") }
            // The file's reload keeps this session's order: what is typed next waits for it.
            lane.step { [print] done in
                reloader.reload { outcome in
                    switch outcome {
                    case .unchanged: print("unchanged")
                    case let .compiled(_, instruments): print("compiled instr \(instruments.joined(separator: ", "))")
                    case let .failed(message): print(message)
                    }
                    done()
                }
            }
        case "set":
            guard args.count == 2 else { return print("usage: :set CHANNEL VALUE") }
            // The channel decides first (unknown, text or number), then the value is read for it.
            let (name, text) = (args[0], args[1])
            do {
                switch driver.engine.channels().first(where: { $0.name == name })?.kind {
                case .string?: try producer.setString(name, text)
                case .control?:
                    guard let v = Double(text) else { return print("\(name) is a control channel: \(text) is not a number") }
                    try producer.set(name, v)
                default:
                    // Not declared: the producer says so in its own words (podium.* included).
                    if let v = Double(text) { try producer.set(name, v) } else { try producer.setString(name, text) }
                }
            } catch { print("\(error)") }
        case "get":
            guard let name = args.first else { return print("usage: :get CHANNEL") }
            if let v = try? driver.engine.control(name) { print("\(name) = \(InstrumentTable.format(v))") }
            else if let s = try? driver.engine.string(name) { print("\(name) = \"\(s)\"") }
            else { print("unknown channel \"\(name)\"") }
        case "channels":
            let e = driver.engine
            for c in e.channels().sorted(by: { $0.name < $1.name }) where !c.isPodiums {
                let value = c.kind == .string ? "\"\((try? e.string(c.name)) ?? "")\"" : (try? e.control(c.name)).map(InstrumentTable.format) ?? "?"
                print("\(c.name) = \(value)\(c.isInput ? " (in)" : "")\(c.isOutput ? " (out)" : "")")
            }
        case "instruments":
            // How many notes each plays, asked of the audio thread (Csound's `active`).
            let t = driver.engine.instruments
            let numbers = t.numbers.sorted()
            var code = ""
            for n in numbers { code += "chnset active(\(n)), \"podium.active.\(n)\"\n" }
            for name in t.names { code += "chnset active(nstrnum(\"\(name)\")), \"podium.active.\(name)\"\n" }
            // Asked on the compile thread (the audio thread answers at its next k-cycle).
            lane.step { [driver, print, code] done in
                driver.evaluateQueued(code) { answered in
                    func count(_ key: String) -> String {
                        guard answered, let v = try? driver.engine.control("podium.active.\(key)") else { return "" }
                        // Csound 6.18 counts the end of a note of a definition a hot swap replaced
                        // against the new definition (Engine/insert.c, deact): its count can go below 0.
                        return v < 0 ? " (active: unknown; a hot swap replaced it while it played, and Csound's count went to \(InstrumentTable.format(v)))"
                            : " (\(InstrumentTable.format(v)) active)"
                    }
                    let rows = numbers.map { "instr \($0)\(count(String($0)))" } + t.names.map { "instr \"\($0)\"\(count($0))" }
                    print(rows.isEmpty ? "no instruments" : rows.joined(separator: "\n"))
                    done()
                }
            }
        case "status":
            print("\(driver.description)\n\(clockLine)\n\(driver.linkStatus.summary)\n\(driver.stats)")
        case "record":
            guard let recording else { return print("recording is not available here") }
            switch args.first {
            case "start":
                do { print("recording to \(try recording.startRecording())") } catch { print("\(error)") }
            case "stop":
                print(recording.stopRecording() ?? "not recording")
            default:
                print(recording.recordingDirectory.map { "recording to \($0)" } ?? "not recording (:record start)")
            }
        case "preset":
            guard let presets else { return print("presets are not available here") }
            guard args.count == 2, args[0] == "save" || args[0] == "load" else { return print("usage: :preset save|load NAME") }
            do {
                print(args[0] == "save" ? "saved \(try presets.save(args[1], driver: driver))" : try presets.load(args[1], producer: producer))
            } catch { print("\(error)") }
        case "reset":
            guard let channel = args.first else { return print("usage: :reset CHANNEL") }
            do { print(try Presets.reset(channel, driver: driver, producer: producer)) } catch { print("\(error)") }
        case "learn":
            guard let channel = args.first else { return print("usage: :learn CHANNEL") }
            do {
                try driver.learn(channel)
                print("move a MIDI controller to bind it to \(channel)")
            } catch { print("\(error)") }
        case "chord":
            let notes = driver.heldNotes
            if notes.isEmpty { return print("no notes held") }
            let names = notes.map { Music.names[$0 % 12] + String($0 / 12 - 1) }.joined(separator: " ")
            print("\(Music.identify(notes) ?? "no chord") (\(names))")
        case "hush":
            do { print(try Hush.perform(producer: producer, loops: loops)) } catch { print("\(error)") }
        case "tempo", "quant", "loops", "stop", "patterns", "samples":
            timeCommand(name, args)
        case "link":
            linkCommand(args)
        case "quit", "q":
            if confirmsQuit, let dir = recording?.recordingDirectory, !quitWarned {
                quitWarned = true
                return print("recording to \(dir): :quit again to stop (the recording is kept)")
            }
            quit.store(true, ordering: .releasing)
        default:
            print("unknown command :\(name) (:help lists them)")
        }
    }

    /// Names to complete on a line: channels after `:set`/`:get`, instrument names in score
    /// lines, otherwise commands, channels, instruments and opcodes.
    public func completions(forLine line: String) -> [String] {
        let e = driver.engine
        let channels = e.channels().filter { !$0.isPodiums }.map(\.name)
        if line.hasPrefix(":set ") || line.hasPrefix(":get ") { return channels }
        if line.hasPrefix(":") { return ReplSession.commands }
        if ReplInterpreter.isScoreStatement(line) { return e.instruments.names.map { "\"\($0)\"" } }
        return ReplSession.commands + channels + e.instruments.names + e.opcodeNames()
    }
}
