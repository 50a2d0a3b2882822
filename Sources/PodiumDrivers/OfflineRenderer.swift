import Foundation
import PodiumAudioFile
import PodiumEngine

/// What to render.
public struct RenderRequest: Sendable {
    public var source: EngineSource
    public var output: String
    public var options: EngineOptions
    public var format: SampleFormat
    /// Seconds to render; required when the score never ends.
    public var duration: Double?

    public init(source: EngineSource, output: String, options: EngineOptions = EngineOptions(),
                format: SampleFormat = .float, duration: Double? = nil) {
        self.source = source
        self.output = output
        self.options = options
        self.format = format
        self.duration = duration
    }
}

public enum RenderError: Error, CustomStringConvertible, Equatable {
    case unendingScore(String)
    public var description: String {
        switch self {
        case let .unendingScore(reason): return "the score never ends (\(reason)): give --duration SECONDS"
        }
    }
}

/// What a render did.
public struct RenderSummary: Sendable {
    public var output: String
    public var sampleRate: Int
    public var channels: Int
    public var frames: Int64
    public var peaks: [Double]
    public var wallSeconds: Double
    public var seconds: Double { Double(frames) / Double(sampleRate) }
    public var speed: Double { wallSeconds > 0 ? seconds / wallSeconds : .infinity }
}

/// The offline driver: performs k-cycles as fast as Csound runs and writes them to a file.
/// Thread: NRT (the caller's thread does everything; Csound's console is drained between blocks).
public final class OfflineRenderer {
    public let request: RenderRequest
    /// Frames per file write (about 85 ms at 48 kHz).
    let blockFrames = 4096

    public init(_ request: RenderRequest) { self.request = request }

    /// Renders. `progress(rendered, total)` is called about ten times a second;
    /// `console` gets each line Csound prints.
    public func run(progress: (Double, Double?) -> Void = { _, _ in },
                    console: (ConsoleLine) -> Void = { _ in }) throws -> RenderSummary {
        try SoundFileWriter.checkWritable(request.output)
        let clock = ContinuousClock()
        let began = clock.now
        let engine = try Engine(options: request.options)
        defer { engine.console.flush().forEach(console) }
        do { try engine.compile(request.source) } catch { engine.console.flush().forEach(console); throw error }

        var total: Double? = request.duration
        // Without --duration the score's length comes from Csound's sorter on a scratch instance,
        // which loads every plugin (about 0.1 s): worked out on another thread while this one
        // starts the engine and renders. A score that never ends stops the render when it is known.
        let length = total == nil ? ScoreLengthJob(score: engine.scoreText) : nil
        defer { length?.wait() }
        func checkLength() throws {
            switch length?.result {
            case let .seconds(s)?: total = s
            case let .unending(reason)?:
                try? FileManager.default.removeItem(atPath: request.output)
                throw RenderError.unendingScore(reason)
            case nil: break
            }
        }
        try engine.start()
        let sr = Int(engine.sampleRate)
        let channels = engine.outputChannels
        let ksmps = engine.ksmps
        let scale = 1 / engine.zeroDBFS
        let limit: Int64? = request.duration.map { Int64(($0 * Double(sr)).rounded()) }
        let writer = try SoundFileWriter(path: request.output, sampleRate: sr, channels: channels, format: request.format)
        defer { writer.close() }

        var block = [Double](repeating: 0, count: max(blockFrames, ksmps) * channels)
        var filled = 0
        var frames: Int64 = 0
        var peaks = [Double](repeating: 0, count: channels)
        var lastReport = clock.now
        let spout = engine.spout
        var done = false
        while !done {
            // The call that reports the end of the score computes no output (as the csound CLI).
            if engine.performKsmps() { done = true }
            var take = done ? 0 : ksmps
            if let limit { take = Int(min(Int64(ksmps), limit - frames)) }
            if take > 0 {
                block.withUnsafeMutableBufferPointer { buf in
                    let out = buf.baseAddress! + filled * channels
                    let n = take * channels
                    for i in 0..<n { out[i] = spout[i] * scale }
                    for c in 0..<channels {
                        var p = peaks[c]
                        var j = c
                        while j < n { p = max(p, out[j].magnitude); j &+= channels }
                        peaks[c] = p
                    }
                }
                filled += take
                frames += Int64(take)
            }
            if let limit, frames >= limit { done = true }
            if filled + ksmps > blockFrames || done {
                try block.withUnsafeBufferPointer { try writer.write($0.baseAddress!, frames: filled) }
                filled = 0
                engine.console.drain().forEach(console)
                if total == nil { try checkLength() }
                if clock.now - lastReport > .milliseconds(100) {
                    lastReport = clock.now
                    progress(Double(frames) / Double(sr), total)
                }
            }
        }
        progress(Double(frames) / Double(sr), total)
        let wall = clock.now - began
        return RenderSummary(output: request.output, sampleRate: sr, channels: channels, frames: frames, peaks: peaks,
                             wallSeconds: Double(wall.components.seconds) + Double(wall.components.attoseconds) * 1e-18)
    }
}

/// `ScoreLength` worked out on a thread of its own.
final class ScoreLengthJob: @unchecked Sendable {
    private let lock = NSLock()
    private var answer: ScoreLength?
    private let done = DispatchSemaphore(value: 0)

    // Thread: NRT (the renderer's); the sorter runs on a new thread
    init(score: String) {
        let thread = Thread { [self] in
            let l = ScoreLength(score: score)
            lock.withLock { answer = l }
            done.signal()
        }
        thread.name = "podium-score-length"
        thread.start()
    }

    /// The length, once known.
    var result: ScoreLength? { lock.withLock { answer } }

    /// Waits for the sorter to finish (its Csound instance is destroyed on its thread).
    func wait() {
        guard result == nil else { return }
        done.wait()
        done.signal()
    }
}
