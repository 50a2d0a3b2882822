import Foundation
import PodiumAudioFile

/// What a replay renders: one audio take (to compare with its audio file), or the whole
/// performance from the engine's start (a journal-only session, or `--whole`).
public struct ReplaySpan: Sendable, Equatable {
    /// The take (1: audio.wav); nil: the whole performance.
    public var take: Int?
    /// The engine (0: the first) and k-cycle the rendered audio starts at.
    public var startSegment: Int
    public var startCycle: Int64
    /// Frames to render (nil: unknown).
    public var frames: Int64?
    /// Frames the take's audio file holds, when fewer than were performed (a full disk).
    public var recordedFrames: Int64?
    /// The recorded input fed back (a file in the session), if any.
    public var input: String?

    // Thread: NRT (any)
    public init(info: SessionInfo, directory: URL, take: Int? = nil, whole: Bool = false) throws {
        func file(_ name: String) -> String { directory.appendingPathComponent(name).path }
        var takes = info.takes ?? []
        if takes.isEmpty, FileManager.default.fileExists(atPath: file("audio.wav")) {
            // A session from before takes: audio.wav and the top-level fields.
            takes = [.init(audio: "audio.wav", input: info.inputs > 0 ? "input.wav" : nil, startCycle: info.startCycle,
                           startSegment: info.startSegment, frames: info.frames)]
        }
        if whole || takes.isEmpty {
            if let take { throw SessionError.replay("no audio take \(take): this session holds no audio (replay renders the whole performance)") }
            self.take = nil
            startSegment = 0
            startCycle = 0
            frames = info.journalFrames
                ?? JournalTally.read(directory.appendingPathComponent("events.log"), ksmps: info.ksmps)?.tally.syncedFrames
            input = nil
            return
        }
        let n = take ?? 1
        guard (1...takes.count).contains(n) else { throw SessionError.replay("no audio take \(n): the session has \(takes.count)") }
        let t = takes[n - 1]
        self.take = n
        startSegment = t.startSegment
        startCycle = t.startCycle
        let recorded = n == 1 ? (info.replayFrames ?? info.frames ?? t.frames) : t.frames
        frames = recorded ?? (try? SoundFileHeader.info(file(t.audio)).frames)
        // A take whose audio stopped early (a full disk) renders to where it was performed
        // (through the journal's last sync after a crash).
        if let performed = t.performedFrames, let written = frames, performed > written {
            frames = n == 1 ? min(performed, info.replayFrames ?? performed) : performed
            recordedFrames = written
        }
        input = t.input.flatMap { FileManager.default.fileExists(atPath: file($0)) ? $0 : nil }
    }
}

/// Why a replay cannot equal the performance, found before it starts: live input that was not
/// recorded, and random numbers that were not seeded (a lexical look at the orchestra texts).
public enum ReplayWarnings {
    /// Csound's opcodes that draw from its random generator (seeded by `seed` or `--seed`).
    static let randomOpcodes: Set<String> = [
        "rnd", "birnd", "random", "rand", "randh", "randi", "randc", "rnd31", "gauss", "gaussi", "gausstrig", "exprand",
        "exprandi", "linrand", "trirand", "unirand", "bexprnd", "cauchy", "cauchyi", "pcauchy", "poisson", "weibull",
        "betarand", "noise", "randomh", "randomi", "jitter", "jitter2", "jspline", "rspline", "dust", "dust2", "fractalnoise",
        "pinkish", "duserrnd", "urd", "trandom",
    ]

    // Thread: NRT (any)
    public static func check(info: SessionInfo, directory: URL, span: ReplaySpan) -> [String] {
        var out: [String] = []
        if let recorded = span.recordedFrames, let frames = span.frames {
            let rate = Double(info.sampleRate)
            let cut = String(format: "%.2f", Double(recorded) / rate), end = String(format: "%.2f", Double(frames) / rate)
            let file = span.take == 1 ? "audio.wav" : "audio-\(span.take ?? 1).wav"
            var line = "the take's audio stopped early (a full disk): \(file) holds 0–\(cut) s of the take's \(end) s; "
                + "\(cut)–\(end) s is rendered from the journal with no recording to compare"
            if span.input != nil { line += ", and the input after \(cut) s was not recorded: replay feeds silence there" }
            out.append(line)
        }
        if info.inputs > 0 && span.input == nil && info.inputConnected != false {
            let heard = info.inputConnected == true ? " and its input ports were connected" : ""
            out.append("the orchestra reads live audio input (nchnls_i = \(info.inputs))\(heard), but no input was recorded"
                       + (span.take == nil ? " for the whole performance" : "") + ": replay feeds silence instead (record with --record to keep input.wav)")
        }
        for (name, text) in orchestraTexts(info: info, directory: directory) {
            out += randomness(in: text, file: name, seeded: info.seed != nil)
        }
        return out
    }

    /// What makes `text`'s random numbers differ between runs: random opcodes with no seed at
    /// all, `seed 0` (the clock), `urandom` (the system's entropy).
    // Thread: NRT (any)
    public static func randomness(in text: String, file: String, seeded: Bool) -> [String] {
        var firstRandom: (String, Int)?
        var hasSeed = false
        var out: [String] = []
        var inComment = false
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let tokens = identifiers(in: raw, inBlockComment: &inComment)
            if let first = tokens.first, first == "seed" {
                hasSeed = true
                let arg = raw.split(separator: "seed", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? ""
                if arg.hasPrefix("0") && Double(arg.prefix { $0.isNumber || $0 == "." }) == 0 {
                    out.append("\(file) line \(index + 1): seed 0 seeds the random generator from the clock: random opcodes differ on replay")
                }
            }
            for t in tokens {
                if t == "urandom" { out.append("\(file) line \(index + 1): urandom reads the system's entropy: it differs on replay") }
                if firstRandom == nil, randomOpcodes.contains(t) { firstRandom = (t, index + 1) }
            }
        }
        if !seeded && !hasSeed, let (opcode, line) = firstRandom {
            out.append("\(file) line \(line): \(opcode) draws random numbers and the performance had no seed (no seed statement, no --seed): they differ on replay")
        }
        return out
    }

    /// The identifiers of one line, without comments and strings.
    // Thread: NRT (any)
    static func identifiers(in line: Substring, inBlockComment: inout Bool) -> [String] {
        var out: [String] = []
        var word = ""
        var inString = false
        var chars = line.makeIterator()
        var previous: Character = " "
        func end() { if !word.isEmpty { out.append(word); word = "" } }
        while let c = chars.next() {
            defer { previous = c }
            if inBlockComment { if previous == "*" && c == "/" { inBlockComment = false }; continue }
            if inString { if c == "\"" { inString = false }; continue }
            if c == ";" || (c == "/" && previous == "/") { word = ""; break }
            if c == "*" && previous == "/" { word = ""; inBlockComment = true; continue }
            if c == "\"" { end(); inString = true; continue }
            if c.isLetter || c == "_" || (c.isNumber && !word.isEmpty) { word.append(c) } else { end() }
        }
        end()
        return out
    }

    /// The texts a session's performance compiled: its orchestra (or CSD) and live compiles.
    // Thread: NRT (any)
    static func orchestraTexts(info: SessionInfo, directory: URL) -> [(String, String)] {
        let dir = directory.appendingPathComponent("orchestras")
        var names = [info.source.file]
        for f in ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted() where f.hasSuffix(".orc") {
            let rel = "orchestras/\(f)"
            if rel != info.source.file { names.append(rel) }
        }
        return names.compactMap { rel in
            (try? String(contentsOf: directory.appendingPathComponent(rel), encoding: .utf8)).map { (rel, $0) }
        }
    }
}
