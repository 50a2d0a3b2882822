import Foundation
import PodiumEngine
import PodiumRealtime

/// Plays a `Script` into a driver from its own thread (one command producer).
/// Steps are posted a little ahead of time, stamped with their JACK frame, so they land on
/// the exact frame the script names rather than when a timer wakes up.
public final class ScriptPlayer: @unchecked Sendable {
    let script: Script
    let driver: JackDriver
    let producer: CommandProducer
    let score: ScoreInput
    /// Called for every problem (unknown instrument, unknown channel), on the player's thread.
    public var onProblem: (@Sendable (String) -> Void)?

    public init(script: Script, driver: JackDriver) {
        self.script = script
        self.driver = driver
        producer = driver.makeProducer()
        score = ScoreInput(driver: driver, producer: producer)
    }

    /// Runs the script; returns when it reaches `:quit` or its end.
    /// `startFrame`: the JACK frame that is time 0.
    // Thread: NRT (the script's own)
    public func run(startFrame: Int64, sampleRate: Double, shouldStop: () -> Bool) -> Bool {
        let started = ContinuousClock.now
        let lead = 0.05
        for step in script.steps {
            let due = started + .milliseconds(Int64(max(0, step.time - lead) * 1000))
            while ContinuousClock.now < due {
                if shouldStop() { return false }
                Thread.sleep(forTimeInterval: min(0.01, max(0.0005, Double((due - .now).components.attoseconds) * 1e-18)))
            }
            let frame = step.time == 0 ? 0 : startFrame + Int64((step.time * sampleRate).rounded())
            switch step.action {
            case .quit:
                return true
            case let .set(channel, value):
                do { try producer.set(channel, value, frame: frame) } catch { onProblem?("line \(step.line): \(error)") }
            case let .load(path):
                do {
                    _ = try driver.compile(try CSDSections.orchestra(ofFile: path), source: path)
                } catch { onProblem?("line \(step.line): \(error)") }
            case let .score(statement):
                // chord/scale notes: every p-field the instrument reads (as at the REPL), no warning per note.
                let full = step.fromHelper ? PFields.padded(statement, orchestras: driver.engine.orchestraTexts) : statement
                do { try score.play(full, frame: frame) } catch { onProblem?("line \(step.line): \(error)") }
            }
        }
        return true
    }
}
