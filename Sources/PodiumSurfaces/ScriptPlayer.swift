import Foundation
import PodiumEngine
import PodiumHost

/// Plays a `Script` into a driver from its own thread (one command producer).
/// Steps are posted a little ahead of time, stamped with their JACK frame, so they land on
/// the exact frame the script names rather than when a timer wakes up. A `load` goes to the
/// compile queue; the steps after it wait for its answer (its `SurfaceLane`) and keep their frames.
public final class ScriptPlayer: @unchecked Sendable {
    let script: Script
    let driver: JackDriver
    let lane: SurfaceLane
    let producer: CommandProducer
    let score: ScoreInput
    /// Called for every problem (unknown instrument, unknown channel), on the player's thread.
    public var onProblem: (@Sendable (String) -> Void)?
    /// Where the script's pattern statements play (nil: they are refused).
    public var loops: LiveLoops?

    public init(script: Script, driver: JackDriver) {
        self.script = script
        self.driver = driver
        lane = SurfaceLane(driver: driver)
        producer = driver.makeProducer()
        score = ScoreInput(driver: driver, producer: producer)
    }

    /// Runs the script; returns when it reaches `:quit` or its end.
    /// `startFrame`: the JACK frame that is time 0.
    // Thread: NRT (the script's own)
    public func run(startFrame: Int64, sampleRate: Double, shouldStop: () -> Bool) -> Bool {
        let started = ContinuousClock.now
        let lead = 0.05
        var quant: String? = nil  // the script's `:quant` (nil: off)
        for step in script.steps {
            // A quantized line finds its grid point when the audio thread reads it: posted on
            // time, not ahead (`@bar` at 8 s is the first bar at or after 8 s).
            let musical = ((try? TimePrefix.setting(step.timing ?? quant ?? "0", quantum: 4)) ?? .now) != .now
            let due = started + .milliseconds(Int64(max(0, step.time - (musical ? 0 : lead)) * 1000))
            while ContinuousClock.now < due {
                if shouldStop() { return false }
                Thread.sleep(forTimeInterval: min(0.01, max(0.0005, Double((due - .now).components.attoseconds) * 1e-18)))
            }
            let frame = step.time == 0 ? 0 : startFrame + Int64((step.time * sampleRate).rounded())
            if case .quit = step.action { return lane.waitUntilIdle(shouldStop: shouldStop) }
            if case let .quant(word) = step.action { quant = word; continue }
            let timing = step.timing ?? quant
            lane.run { [self] in perform(step, frame: frame, timing: timing) }
        }
        return lane.waitUntilIdle(shouldStop: shouldStop)
    }

    /// One step, in the script's order (under the lane).
    // Thread: NRT (the script's, or the compile thread's after a load)
    func perform(_ step: Script.Step, frame: Int64, timing: String?) {
        switch step.action {
        case .quit, .quant: return
        case let .pattern(text):
            guard let loops else {
                onProblem?("line \(step.line): patterns are not available here")
                return
            }
            do { _ = try loops.patterns.run(text, source: "script", producer: producer, loops: loops) } catch {
                onProblem?("line \(step.line): \(error)")
            }
        case let .tempo(bpm):
            do { try producer.post(.clock(tempo: bpm, frame: frame)) } catch { onProblem?("line \(step.line): \(error)") }
        case let .set(channel, value):
            do { try producer.set(channel, value, frame: frame) } catch { onProblem?("line \(step.line): \(error)") }
        case let .load(path):
            do {
                lane.compile(try CSDSections.orchestra(ofFile: path), source: path) { [onProblem] result in
                    if case let .failure(error) = result { onProblem?("line \(step.line): \(error)") }
                }
            } catch { onProblem?("line \(step.line): \(error)") }
        case let .score(statement):
            // chord/scale notes: every p-field the instrument reads (as at the REPL), no warning per note.
            let full = step.fromHelper ? PFields.padded(statement, orchestras: driver.engine.orchestraTexts) : statement
            do {
                var q = Quantize.now
                if let w = timing {
                    q = try TimePrefix.setting(w, quantum: driver.clock.quantum) ?? .now
                }
                try score.play(full, frame: q == .now ? frame : 0, quantize: q)
            } catch { onProblem?("line \(step.line): \(error)") }
        }
    }
}
