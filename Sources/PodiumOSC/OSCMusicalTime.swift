import Foundation
import PodiumEngine
import PodiumHost
import PodiumSamples
import PodiumSurfaces

/// Musical time over OSC:
///   - `/podium/tempo ,f BPM` sets the tempo; `/podium/tempo` alone replies `/podium/tempo ,f BPM`;
///   - `/podium/quant ,f BEATS` (0: off) or `,s bar|beat|off`; alone: replies `/podium/quant ,s`;
///   - `/podium/score ,s "@bar i1 0 1"`: a line's own prefix (see `TimePrefix`); without one the
///     performance's quantization applies to `/podium/score` and `/podium/event` — except in a
///     timetagged bundle, whose timetag wins;
///   - `/podium/loop ,sfs NAME BEATS BODY` (body lines separated by newlines), `/podium/loop/stop ,s NAME`
///     (no name: all) → `/podium/done ,s` or `/podium/fail ,s`;
///   - subscribers get `/podium/tempo ,f` when it changes and `/podium/beat ,fii BEAT BAR BEAT-IN-BAR` on every beat.
extension OSCSurface {
    /// The performance's quantization for a message without a timetag (`frame` 0).
    // Thread: NRT (OSC)
    func quantize(_ frame: Int64) -> Quantize {
        frame == 0 ? driver.quantization.withLock { $0 } : .now
    }

    // Thread: NRT (OSC)
    func tempo(_ m: OSCMessage, _ source: Endpoint) {
        guard let first = m.arguments.first else {
            return reply(to: source, "/podium/tempo", [.float(driver.clock.tempo)])
        }
        guard let bpm = first.number, m.arguments.count == 1 else { return bad(m, source, "expected the tempo in BPM (,f)") }
        do {
            guard try producer.clock(tempo: bpm) != nil else { return replyError(source, m.address, "command ring full: tempo not changed") }
        } catch { bad(m, source, error.description) }
    }

    // Thread: NRT (OSC)
    func quant(_ m: OSCMessage, _ source: Endpoint) {
        guard let first = m.arguments.first else {
            return reply(to: source, "/podium/quant", [.string("\(driver.quantization.withLock { $0 })")])
        }
        do {
            var setting: Quantize?
            if let n = first.number { setting = try TimePrefix.setting(beats: n) }
            else if let w = first.string { setting = try TimePrefix.setting(w, quantum: driver.clock.quantum) }
            guard let q = setting else { return bad(m, source, "expected beats (,f; 0: off) or bar, beat, off (,s)") }
            driver.quantization.withLock { $0 = q }
        } catch { bad(m, source, error.description) }
    }

    /// `/podium/pattern ,ss SLOT EXPR` (`d1`, `s "bd*2"`) or `,s STATEMENT` (`d1 $ …`, `hush`,
    /// `setcps 0.5`): a pattern in Tidal's words; the answer or the refusal (with its column).
    // Thread: NRT (OSC)
    func pattern(_ m: OSCMessage, _ source: Endpoint) {
        guard let loops else { return reply(to: source, "/podium/fail", [.string("patterns are not available")]) }
        let text: String
        switch (m.arguments.count, m.arguments.first?.string, m.arguments.last?.string) {
        case (1, let statement?, _): text = statement
        case (2, let slot?, let expression?): text = "\(slot) $ \(expression)"
        default: return bad(m, source, "expected slot and expression (,ss) or a statement (,s)")
        }
        do {
            reply(to: source, "/podium/done", [.string(try loops.patterns.run(text, source: "osc", producer: producer, loops: loops))])
        } catch {
            reply(to: source, "/podium/fail", [.string("\(error)")])
        }
    }

    /// `/podium/samples`: `/podium/samples ,s LISTING` (each bank, its names; what is loaded);
    /// `,s NAME` (`bd:3`): which file it plays.
    // Thread: NRT (OSC)
    func samples(_ m: OSCMessage, _ source: Endpoint) {
        guard let store = loops?.patterns.samples else {
            return reply(to: source, "/podium/fail", [.string("no sample banks in this performance (podium play --samples DIR)")])
        }
        if let name = m.arguments.first?.string { return reply(to: source, "/podium/samples", [.string(store.describe(name))]) }
        reply(to: source, "/podium/samples", [.string(store.library.listing() + "\n" + store.summary)])
    }

    // Thread: NRT (OSC)
    func loop(_ action: String, _ m: OSCMessage, _ source: Endpoint) {
        guard let loops else { return reply(to: source, "/podium/fail", [.string("loops are not available")]) }
        do {
            switch action {
            case "":
                guard m.arguments.count == 3, let name = m.arguments[0].string, let beats = m.arguments[1].number,
                      let body = m.arguments[2].string else {
                    return bad(m, source, "expected name, beats, body (,sfs)")
                }
                reply(to: source, "/podium/done", [.string(try loops.define(name: name, beats: beats, body: body))])
            case "stop":
                let summary = try m.arguments.first?.string.map { try loops.stop($0) } ?? loops.stopAll()
                reply(to: source, "/podium/done", [.string(summary)])
            default:
                unknown(m, source)
            }
        } catch {
            reply(to: source, "/podium/fail", [.string("\(error)")])
        }
    }

    /// Tempo when it changed, and the beat when a new one began (at the feedback rate).
    // Thread: NRT (OSC)
    func clockFeedback(_ targets: Set<Endpoint>) {
        let c = driver.clock
        if lastOutputs["podium.tempo"] != c.tempo {
            lastOutputs["podium.tempo"] = c.tempo
            send("/podium/tempo", [.float(c.tempo)], to: targets)
        }
        let beat = driver.beatNow
        let whole = beat.rounded(.down)
        if lastOutputs["podium.beat"] != whole {
            lastOutputs["podium.beat"] = whole
            let (bar, inBar) = ReplSession.barAndBeat(beat, quantum: c.quantum)
            send("/podium/beat", [.float(beat), .int(Int64(bar)), .int(Int64(inBar))], to: targets)
        }
    }
}
