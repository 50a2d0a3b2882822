import PodiumEngine
import PodiumHost

/// The one way score reaches the engine from a surface (REPL, script, OSC, csound port, and
/// the surfaces to come): statements read by `ScoreLine`, instruments resolved, numbers checked,
/// posted as commands on the surface's own producer. Errors come back in words for the sender.
public struct ScoreInput: Sendable {
    public let driver: JackDriver
    public let producer: CommandProducer

    public init(driver: JackDriver, producer: CommandProducer) {
        self.driver = driver
        self.producer = producer
    }

    /// Plays one statement (at `frame`; 0: the next k-cycle), or in musical time (p2 and p3 in beats).
    // Thread: the surface's own (one producer per thread)
    public func play(_ statement: ScoreLine, frame: Int64 = 0, quantize: Quantize = .now) throws(InputError) {
        switch statement {
        case let .event(instrument, fields):
            return try fields.withUnsafeBufferPointer { (f) throws(InputError) in try play(instrument: instrument, fields: f, frame: frame, quantize: quantize) }
        case let .table(fields):
            // A big table to apply now is built off the audio thread (TableStaging).
            // (ScoreLine has checked it; `stageTableStatement` says whether it can be staged.)
            if frame == 0 {
                do { if try driver.stageTableStatement(fields) { return } } catch let e as InputError { throw e } catch { throw InputError("\(error)") }
            }
            if try producer.table(fields, frame: frame) == nil { throw ScoreInput.ringFull }
        }
    }

    static var ringFull: InputError { InputError("command ring full: not played (the audio thread is behind)", kind: .ringFull) }

    /// Plays one event: its instrument and the p-fields after it (p2, p3 …), where they lie (an OSC
    /// note's, in the datagram it was read from).
    // Thread: the surface's own (one producer per thread)
    public func play(instrument: ScoreLine.Instrument, fields: UnsafeBufferPointer<Double>, frame: Int64 = 0, quantize: Quantize = .now) throws(InputError) {
        if case let .number(n) = instrument { try InputCheck.instrument(n) }
        guard let p1 = driver.p1(for: instrument) else { throw InputError("unknown instrument \(instrument.text)", kind: .unknownTarget) }
        if try producer.event(p1: p1, fields, frame: frame, quantize: quantize) == nil { throw ScoreInput.ringFull }
    }

    /// Plays score text that may start with a musical prefix (`@bar i1 0 1`, `TimePrefix`); without
    /// one, `otherwise` applies (a surface passes the performance's `:quant`, or `.now` for a timetag).
    // Thread: the surface's own
    public func play(prefixed text: String, frame: Int64 = 0, otherwise: Quantize) throws {
        let (prefix, rest) = try TimePrefix.split(text, quantum: driver.clock.quantum)
        try play(text: rest, frame: frame, quantize: prefix ?? otherwise)
    }

    /// Plays score text: every statement, or none when one line is refused (the error names it).
    /// Statements after one that fails to post (unknown instrument, ring full) still play; the
    /// errors come back together.
    // Thread: the surface's own
    public func play(text: String, frame: Int64 = 0, quantize: Quantize = .now) throws(ScoreError) {
        RecentInputs.note("score: \(text.prefix(160))")
        let statements = try ScoreLine.parse(text: text)
        var problems: [String] = []
        for s in statements {
            do { try play(s, frame: frame, quantize: quantize) } catch { problems.append(error.description) }
        }
        if !problems.isEmpty {
            let unique = problems.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            throw ScoreError(line: 0, column: 0, message: unique.joined(separator: "; "))
        }
    }
}
