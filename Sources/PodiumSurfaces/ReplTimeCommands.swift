import PodiumHost
import PodiumPatterns
import PodiumSamples

// The REPL's musical-time commands: `:tempo`, `:quant`, `:loops`, `:stop`, and loop blocks.
extension ReplSession {
    /// Bar and beat of a beat position, counted from 1 (as JACK's BBT).
    public static func barAndBeat(_ beat: Double, quantum: Double) -> (bar: Int, beat: Int) {
        let whole = max(0, beat.rounded(.down))
        let q = max(1, quantum)
        return (Int((whole / q).rounded(.down)) + 1, Int(whole.truncatingRemainder(dividingBy: q)) + 1)
    }

    /// What every screen shows (the prompt, `:status`, the stage page, the editor): the cycle
    /// counted from 0, as patterns count them (`swaps at cycle 47`, `<a b>`'s choice, the
    /// journal's cycles), and the beat within it from 1. A cycle is a bar of the quantum; only
    /// JACK's BBT and OSC's `/podium/beat` count bars from 1, as JACK does.
    public static func cycleAndBeat(_ beat: Double, quantum: Double) -> (cycle: Int, beat: Int) {
        let (bar, inBar) = barAndBeat(beat, quantum: quantum)
        return (bar - 1, inBar)
    }

    /// `tempo 120 BPM, 4 beats a bar, cycle 2 beat 2, quantize: bar`.
    var clockLine: String {
        let c = driver.clock
        let (cycle, beat) = ReplSession.cycleAndBeat(driver.beatNow, quantum: c.quantum)
        let q = driver.quantization.withLock { $0 }
        return "tempo \(InputCheck.describe(c.tempo)) BPM, \(InputCheck.describe(c.quantum)) beats a bar, cycle \(cycle) beat \(beat)"
            + (c.running ? "" : " (stopped)") + ", quantize: \(q)"
            + (loops.map { l in l.names.isEmpty ? "" : ", loops: \(l.names.joined(separator: " "))" } ?? "")
    }

    // Thread: the REPL's
    func timeCommand(_ name: String, _ args: [String]) {
        switch name {
        case "tempo":
            guard let text = args.first else { return print(clockLine) }
            guard args.count == 1, let bpm = Double(text) else { return print("usage: :tempo BPM (from 1 to 999)") }
            do {
                try producer.clock(tempo: bpm)
                print("tempo \(InputCheck.describe(bpm)) BPM")
            } catch { print(error.description) }
        case "quant":
            guard let text = args.first else { return print("quantize: \(driver.quantization.withLock { $0 })") }
            do {
                guard let q = try TimePrefix.setting(text, quantum: driver.clock.quantum) else {
                    return print("usage: :quant bar|beat|N (beats)|off")
                }
                driver.quantization.withLock { $0 = q }
                print(q == .now ? "quantize: off (score lines start at once, in seconds)"
                                : "quantize: \(q) (p2 and p3 in beats)")
            } catch { print(error.description) }
        case "loops":
            guard let loops else { return print("loops are not available here") }
            let rows = loops.list()
            print(rows.isEmpty ? "no loop is playing" : rows.joined(separator: "\n"))
        case "patterns":
            guard let loops else { return print("patterns are not available here") }
            let rows = loops.patterns.list()
            print(rows.isEmpty ? "no pattern is playing" : rows.joined(separator: "\n"))
        case "samples":
            guard let samples = loops?.patterns.samples else { return print("no sample banks in this performance (podium play --samples DIR)") }
            if let name = args.first { return print(samples.describe(name)) }
            print(samples.library.listing() + "\n" + samples.summary)
        case "stop":
            guard let loops else { return print("loops are not available here") }
            if let name = args.first {
                do { print(try loops.stop(name)) } catch { print("\(error)") }
            } else {
                print(loops.stopAll())
            }
        default:
            break
        }
    }

    /// A pattern statement (`d1 $ …`, `hush`, `setcps …`); a refusal shows the line with a
    /// caret under the column at fault.
    // Thread: the REPL's
    func playPattern(_ text: String) {
        guard let loops else { return print("patterns are not available here") }
        do {
            print(try loops.patterns.run(text, producer: producer, loops: loops))
        } catch let e as PatternError {
            print(PatternErrorText.show(e, in: text))
        } catch {
            print("\(error)")
        }
    }

    // Thread: the REPL's
    func defineLoop(_ name: String, _ beats: Double, _ body: String) {
        guard let loops else { return print("loops are not available here") }
        do { print(try loops.define(name: name, beats: beats, body: body)) } catch { print("\(error)") }
    }
}
