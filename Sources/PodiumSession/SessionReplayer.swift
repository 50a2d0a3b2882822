import Foundation
import PodiumAudioFile
import PodiumEngine
import PodiumHost
import PodiumRealtime

// Offline replay of a take, or of the whole performance for a journal-only session (`--whole`),
// sample for sample: an engine started through the same `Engine.forPerformance` as the driver's;
// each line applied before its k-cycle (score events with the same `csoundScoreEvent`, compiles
// with the same async call so the same `kperf` merges them, staged tables computed again and
// copied at the same k-cycles); `input.wav` fed back; the same `KCycle.perform` and the same
// output conversion (`KCycle.output`, the output guard). What cannot be exact (live input not recorded, random opcodes
// without a seed) is said first (`ReplayWarnings`). A replay never asks Link.

/// What a replay did.
public struct ReplaySummary: Sendable {
    public var output: String
    public var frames: Int64
    public var sampleRate: Int
    public var wallSeconds: Double
    public var events: Int
    public var seconds: Double { Double(frames) / Double(sampleRate) }
    public var speed: Double { wallSeconds > 0 ? seconds / wallSeconds : .infinity }
}

/// Re-renders a session offline, as fast as Csound runs: the engine is started exactly as the
/// JACK driver started it (`Engine.forPerformance`, the session's seed), and every line of
/// `events.log` is applied before the k-cycle it names — commands the way the audio thread
/// applied them, async compiles and score text submitted so that the k-cycle takes them in.
/// The recorded `input.wav` is fed back. Output frames match `audio.wav` one for one.
///
/// Thread: NRT (the caller's thread does everything).
public final class SessionReplayer {
    public let directory: URL
    public let info: SessionInfo
    let lines: [JournalLine]
    /// What is rendered: an audio take's span, or the whole performance from the engine's start.
    public let span: ReplaySpan

    /// Replays audio take `take` (default: the first, when the session has audio), or with
    /// `whole` (or no audio) the whole performance from the engine's start.
    public init(directory: URL, take: Int? = nil, whole: Bool = false) throws {
        self.directory = directory
        info = try SessionInfo.read(directory)
        span = try ReplaySpan(info: info, directory: directory, take: take, whole: whole)
        let url = directory.appendingPathComponent("events.log")
        guard let data = try? Data(contentsOf: url) else { throw SessionError.unreadable(url.path, "missing") }
        var text = String(decoding: data, as: UTF8.self)
        // A crash can cut the last line: only whole lines count.
        if !text.hasSuffix("\n"), let cut = text.lastIndex(of: "\n") { text = String(text[...cut]) } else if !text.hasSuffix("\n") { text = "" }
        var parsed: [JournalLine] = []
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            do { if let l = try JournalLine.parse(line) { parsed.append(l) } } catch {
                throw SessionError.replay("events.log line \(i + 1): \(error)")
            }
        }
        lines = parsed
    }

    /// The frames to render.
    public var recordedFrames: Int64? { span.frames }

    /// Why this replay may not equal the performance (said before it starts).
    public var warnings: [String] { ReplayWarnings.check(info: info, directory: directory, span: span) }

    /// Renders to `output` (float WAV, like audio.wav). `progress(done, total)` in seconds.
    /// `midi`: also a Standard MIDI File of what `midi_out` sent (the orchestra's MIDI output and
    /// each hush's all notes off), from the same frame as the audio.
    public func run(output: String, midi midiPath: String? = nil, progress: (Double, Double) -> Void = { _, _ in },
                    console: (ConsoleLine) -> Void = { _ in }) throws -> ReplaySummary {
        try SoundFileWriter.checkWritable(output)
        var midiFile = midiPath.map { _ in StandardMIDIFile(sampleRate: info.sampleRate) }
        guard let target = span.frames else { throw SessionError.replay("no audio.wav and no frame count in session.json") }
        let clock = ContinuousClock()
        let began = clock.now
        let source = info.engineSource(in: directory)
        // Files the orchestra names (samples, includes) are read from beside the original.
        var options = EngineOptions(seed: info.seed)
        options.sampler = info.sampler ?? false
        if info.source.original.hasPrefix("/") {
            let dir = URL(fileURLWithPath: info.source.original).deletingLastPathComponent().path
            options.extra = ["SSDIR", "SFDIR", "SADIR", "INCDIR"].map { "--env:\($0)+=\(dir)" }
        }
        let input = span.input.flatMap { try? SoundFileContents(path: directory.appendingPathComponent($0).path) }
        let texts = try orchestraTexts()
        let limit = OutputGuard.limit(info.outputLimit)

        // Segments: one per engine (a rebuild starts another), each with its lines by k-cycle.
        var segments: [(ksmps: Int, end: Int64?, lines: [JournalLine])] = []
        for line in lines {
            if case let .engine(previous, ksmps) = line {
                if !segments.isEmpty { segments[segments.count - 1].end = previous }
                segments.append((ksmps, nil, []))
            } else if segments.isEmpty {
                segments.append((info.ksmps, nil, [line]))
            } else {
                segments[segments.count - 1].lines.append(line)
            }
        }
        if segments.isEmpty { segments = [(info.ksmps, nil, [])] }
        // Lines from different threads (a string set between callbacks, commands the audio
        // thread reported) can reach the log slightly out of k-cycle order: sort, keeping the
        // order of lines within one k-cycle.
        for i in segments.indices {
            segments[i].lines = segments[i].lines.enumerated()
                .sorted { ($0.element.cycle, $0.offset) < ($1.element.cycle, $1.offset) }.map(\.element)
        }

        let writer = try SoundFileWriter(path: output, sampleRate: info.sampleRate, channels: info.outputs, format: .float)
        defer { writer.close() }
        var frames: Int64 = 0
        var compiled: [String] = []
        var previous: Engine?
        // Tables built off the audio thread, computed again as the performance computed them.
        var staged: [String: TableStaging.Computed] = [:]
        func stagedTables(_ hash: String) throws -> TableStaging.Computed {
            if let c = staged[hash] { return c }
            guard let text = texts[hash] else { throw SessionError.replay("orchestras/\(hash).orc is missing") }
            guard let c = TableStaging.compute(text, candidates: TableStaging.candidates(text), sampleRate: Double(info.sampleRate),
                                               ksmps: info.ksmps, searchOptions: Engine.searchOptions(forSource: source)) else {
                throw SessionError.replay("the tables of orchestras/\(hash).orc could not be computed again")
            }
            staged[hash] = c
            return c
        }
        // Samples' tables: their files decoded again, as the performance decoded them.
        var samples: [String: DecodedSample] = [:]
        func sample(_ hash: String) throws -> DecodedSample? {
            if let s = samples[hash] { return s }
            guard let text = texts[hash], let descriptor = SampleDescriptor.parse(text) else { return nil }
            do {
                let s = try descriptor.decodeAgain()
                samples[hash] = s
                return s
            } catch {
                throw SessionError.replay("a sample the performance played: \(error.description)")
            }
        }
        var beatClock = BeatClock()  // as the callback's: journaled re-anchorings, published per k-cycle
        var lastReport = clock.now
        var block: [Float] = []
        block.reserveCapacity(8192 * max(info.outputs, 1))
        func flush() throws {
            guard !block.isEmpty else { return }
            try block.withUnsafeBufferPointer { try writer.write(floats: $0.baseAddress!, frames: $0.count / max(info.outputs, 1)) }
            block.removeAll(keepingCapacity: true)
        }
        for (index, segment) in segments.enumerated() where frames < target {
            let engine = try Engine.forPerformance(source: source, options: options, sampleRate: info.sampleRate,
                                                   ksmps: segment.ksmps, liveOrchestras: compiled)
            defer { engine.console.flush().forEach(console) }
            if let previous {
                // As the driver's rebuild: input control channels keep their values.
                for c in previous.channels() where c.isPerformerInput {
                    if let v = try? previous.control(c.name) { try? engine.setControl(c.name, v) }
                }
            }
            let rt = engine.realtime
            let ksmps = engine.ksmps
            beatClock.configure(ksmps: ksmps, sampleRate: Double(info.sampleRate))
            let outs = engine.outputChannels, ins = engine.inputChannels
            var channels: [String: UnsafeMutablePointer<Double>] = [:]
            func channel(_ name: String) throws -> UnsafeMutablePointer<Double> {
                if let p = channels[name] { return p }
                let p = try engine.controlChannelPointer(name)
                channels[name] = p
                return p
            }
            var momentary = MomentaryChannels(capacity: RTLimits.momentaryCapacity)
            var midi: [UInt8] = []
            var next = 0
            var cycle: Int64 = 0
            let recordingFrom: Int64? = index < span.startSegment ? nil : (index == span.startSegment ? span.startCycle : 0)
            func recording(_ cycle: Int64) -> Bool { recordingFrom.map { cycle >= $0 } ?? false }
            var hushAt: Int64?
            while frames < target {
                if let end = segment.end, cycle >= end { break }
                rt.midi.clear()
                while next < segment.lines.count && segment.lines[next].cycle <= cycle {
                    let line = segment.lines[next]
                    next += 1
                    switch line {
                    case var .event(_, p):
                        p.withUnsafeMutableBufferPointer { rt.scoreEvent($0.baseAddress!, count: $0.count) }
                    case var .table(_, p):
                        p.withUnsafeMutableBufferPointer { rt.tableEvent($0.baseAddress!, count: $0.count) }
                    case let .set(_, name, value):
                        RTEngine.store(try channel(name), value)
                    case let .momentary(_, name, value):
                        momentary.set(try channel(name), value)
                    case let .string(_, name, text):
                        try engine.setString(name, text)
                    case let .compile(_, hash, src, staged):
                        guard let text = texts[hash] else { throw SessionError.replay("orchestras/\(hash).orc is missing") }
                        // Staged: its big tables came in by `stage` lines; the rest merges here.
                        let code = staged ? TableStaging.remainder(text, staged: try stagedTables(hash).lines.map(\.index)) : text
                        _ = try engine.compileOrchestraAsync(code, source: src)
                        compiled.append(text)
                    case let .stage(_, hash, index, table, offset, count):
                        if let s = try sample(hash) {
                            guard index < s.channels.count, offset + count <= s.frames + 1,
                                  rt.fillTable(table, from: s.channels[index], offset: offset, count: count) else {
                                throw SessionError.replay("a stage line does not fit table \(table) (\(s.path)'s channel \(index))")
                            }
                            continue
                        }
                        let computed = try stagedTables(hash)
                        guard index < computed.tables.count, offset + count <= computed.tables[index].length + 1,
                              rt.fillTable(table, from: computed.tables[index].values, offset: offset, count: count) else {
                            throw SessionError.replay("a stage line does not fit table \(table) (orchestras/\(hash).orc's table \(index))")
                        }
                    case let .eval(_, code):
                        _ = try engine.compileOrchestraAsync(code, source: "podium", register: false)
                    case let .score(_, text):
                        _ = engine.readScoreAsync(text)
                    case let .midi(_, bytes):
                        midi = bytes
                        _ = midi.withUnsafeBufferPointer { rt.midi.add($0.baseAddress!, count: $0.count) }
                    case let .clock(_, state):
                        beatClock.restore(state)
                    case let .hush(_, bound):
                        for number in engine.definedInstrumentNumbers() where number <= bound { rt.release(instrument: number) }
                        if recording(cycle) {
                            // As the callback: all notes off on every channel, after the k-cycle's messages.
                            hushAt = frames
                        }
                    case .engine, .sync, .typed:
                        break
                    }
                }
                let recordingNow = recording(cycle)
                let spin = engine.spin
                for i in 0..<(ksmps * ins) { spin[i] = 0 }
                if recordingNow, let input, input.channels == ins {
                    let start = Int(frames) * ins
                    for i in 0..<min(ksmps * ins, max(0, input.samples.count - start)) {
                        spin[i] = Double(Float(input.samples[start + i])) * rt.inputScale
                    }
                }
                // Csound's k-cycle, as the callback runs it (KCycle.swift).
                _ = KCycle.perform(rt, clock: &beatClock, momentary: &momentary)
                if rt.midiOut.count > 0 {
                    if recording(cycle) {
                        midiFile?.add(frame: frames, UnsafeBufferPointer(start: rt.midiOut.bytes, count: rt.midiOut.count))
                    }
                    rt.midiOut.clear()
                }
                if let at = hushAt {
                    for channel in 0..<16 { [UInt8(0xB0 | channel), 123, 0].withUnsafeBufferPointer { midiFile?.add(frame: at, $0) } }
                    hushAt = nil
                }
                cycle += 1
                if recordingNow {
                    let take = Int(min(Int64(ksmps), target - frames))
                    // Through the same output guard as the callback: what was sent to JACK.
                    let outcome = KCycle.checkOutput(rt, limit: limit)
                    for f in 0..<take { for c in 0..<outs { block.append(KCycle.output(rt, outcome, frame: f, channel: c, limit: limit)) } }
                    frames += Int64(take)
                    // Written in blocks of about 4096 frames (one write per k-cycle costs more than Csound).
                    if block.count >= 4096 * outs || frames >= target { try flush() }
                }
                if clock.now - lastReport > .milliseconds(100) {
                    lastReport = clock.now
                    engine.console.drain().forEach(console)
                    progress(Double(frames) / Double(info.sampleRate), Double(target) / Double(info.sampleRate))
                }
            }
            previous = engine
        }
        try flush()
        if let midiPath, let midiFile {
            do { try midiFile.data.write(to: URL(fileURLWithPath: midiPath)) } catch {
                throw SessionError.replay("cannot write \(midiPath): \(error.localizedDescription)")
            }
        }
        progress(Double(frames) / Double(info.sampleRate), Double(target) / Double(info.sampleRate))
        let wall = clock.now - began
        return ReplaySummary(output: output, frames: frames, sampleRate: info.sampleRate,
                             wallSeconds: Double(wall.components.seconds) + Double(wall.components.attoseconds) * 1e-18,
                             events: lines.count)
    }

    private func orchestraTexts() throws -> [String: String] {
        var texts: [String: String] = [:]
        let dir = directory.appendingPathComponent("orchestras")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [] where name.hasSuffix(".orc") {
            texts[(name as NSString).deletingPathExtension] = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
        }
        return texts
    }
}
