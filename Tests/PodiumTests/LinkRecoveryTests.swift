import Foundation
import PodiumSession
import Testing

/// Ableton Link after discontinuities and with start/stop sync: more of `LinkTests` (same suite,
/// same JACK server, every Link process in a namespace the test makes and removes).
extension JackSuites.LinkTests {
    /// Phase corrections so far (`:link`) and JACK xruns seen (`:status`).
    func corrections(_ pod: LineChild) -> (corrections: Int, xruns: Int) {
        let link = pod.ask(":link", every: 0.2, timeout: 5) { $0.hasPrefix("link on") } ?? ""
        let status = pod.ask(":status", every: 0.2, timeout: 5) { $0.contains(" xruns ") } ?? ""
        let made = link.firstMatch(of: /(\d+) phase correction/).flatMap { Int($0.1) } ?? -1
        return (made, number(after: "xruns", in: status).map { Int($0) } ?? -1)
    }

    @Test("xruns while linked (host B stopped with SIGSTOP for 60 ms, five times): at most three phase corrections per xrun beyond the quiet rate on either host (it was about eight), and the notes stay together")
    func xrunsCorrectOnce() throws {
        try withTwoHosts { podA, podB, capture in
            Thread.sleep(forTimeInterval: 3)  // the rate trims settle (LinkRate.swift)
            // The quiet rate: JACK's dummy driver is not real-time and wobbles on a loaded machine,
            // which the clock follows too (by rate trims and, beyond the deadband, corrections).
            let stalls = 5, pause = 1.5, pid = podB.process.processIdentifier
            let quietA = corrections(podA), quietB = corrections(podB)
            let cpu = IdleCPU.now()
            Thread.sleep(forTimeInterval: Double(stalls) * pause)
            let beforeA = corrections(podA), beforeB = corrections(podB)
            for _ in 0..<stalls {
                kill(pid, SIGSTOP)
                Thread.sleep(forTimeInterval: 0.06)
                kill(pid, SIGCONT)
                Thread.sleep(forTimeInterval: pause)
            }
            let afterA = corrections(podA), afterB = corrections(podB)
            let baseA = beforeA.corrections - quietA.corrections, baseB = beforeB.corrections - quietB.corrections
            let madeA = afterA.corrections - beforeA.corrections, madeB = afterB.corrections - beforeB.corrections
            print("link: quiet \(Double(stalls) * pause) s: phase corrections A \(baseA), B \(baseB); \(stalls) stalls of host B: "
                  + "xruns A \(afterA.xruns - beforeA.xruns), B \(afterB.xruns - beforeB.xruns); phase corrections A \(madeA), B \(madeB)")
            #expect(afterB.xruns > beforeB.xruns, "the stalls were xruns: \(beforeB) → \(afterB)")
            #expect(madeB >= 1, "host B lost frames in each stall: it must move onto the session's phase")
            // Each stall is several xruns (JACK catches up); each restarts the host-time filter.
            // About two corrections an xrun beyond the quiet rate (39 for 19 in one clean-clone
            // run: the quiet rate measured in another 7.5 s is itself noisy); the fault this
            // guards against made about eight.
            // With both cores busy (stress-ng beside the tests) the dummy driver's wobble alone
            // makes corrections by the dozen, in bursts: 7 to 338 in the quiet 7.5 s and 4 to 187
            // in the stalls' over 13 loaded runs, so three per xrun beyond it cannot be told from
            // noise. The bound is checked when the machine had idle CPU time to give.
            let xrunsA = afterA.xruns - beforeA.xruns, xrunsB = afterB.xruns - beforeB.xruns
            let idle = IdleCPU.now().since(cpu)
            if idle >= 0.2 {
                #expect(madeB - baseB <= 3 * xrunsB && madeA - baseA <= 3 * xrunsA,
                        "corrections beyond the quiet rate: A \(madeA - baseA) for \(xrunsA) xruns, B \(madeB - baseB) for \(xrunsB)")
            } else {
                print("link: the CPUs were \(Int(100 - idle * 100)) % busy: corrections per xrun not compared (A \(madeA - baseA) for \(xrunsA), B \(madeB - baseB) for \(xrunsB) beyond the quiet rate)")
            }
            let (notes, sameBeat) = quantizedNotes(podA, podB, capture)
            print("link: after the stalls: \(describe(notes.map(\.offset))); capture xruns \(capture.xruns)")
            expectTogether(notes, expected: 0, capture)
            #expect(sameBeat >= notes.count - 2, "notes on the same beat: \(sameBeat) of \(notes.count)")
        }
    }

    /// The clock lines of a session's journal: (tempo, beat, running).
    func clockLines(_ session: URL) throws -> [(tempo: Double, beat: Double, running: Bool)] {
        let log = try String(contentsOf: session.appendingPathComponent("events.log"), encoding: .utf8)
        return log.split(separator: "\n").compactMap { line in
            let w = line.split(separator: " ")
            guard w.count >= 6, w[1] == "clock", let tempo = Double(w[2]), let beat = Double(w[4]), let run = Double(w[5]) else { return nil }
            return (tempo, beat, run != 0)
        }
    }

    @Test("start/stop sync with an aalink peer: the session's play state starts and stops podium's clock, on the session's bar; :link start|stop reach the peer; the session replays exactly")
    func startStopSync() throws {
        try withPeer("ss", peerArgs: ["--start-stop"], extra: ["--link-start-stop"]) { peer, pod, dir, sessions in
            try startStop(peer, pod, dir, sessions)
        }
    }

    /// startStopSync with its peer and host: the exchange, then the journal and the replay.
    func startStop(_ peer: LineChild, _ pod: LineChild, _ dir: URL, _ sessions: URL) throws {
        let stopped = { (line: String) in line.hasPrefix("tempo ") && line.contains("(stopped)") }
        let running = { (line: String) in line.hasPrefix("tempo ") && !line.contains("(stopped)") }

        #expect(pod.ask(":link", every: 0.1, timeout: 15) { $0.hasPrefix("link on, 1 peer") } != nil, "no peer: \(pod.stderr.suffix(300))")
        #expect(pod.ask(":tempo", every: 0.1, timeout: 5, until: stopped) != nil, "the session is stopped: so is the clock")
        #expect(pod.ask(":link", every: 0.1, timeout: 5) { $0.contains("start/stop sync: session stopped") } != nil)

        peer.say("play")
        #expect(pod.ask(":tempo", every: 0.05, timeout: 5, until: running) != nil, "the peer's start starts the clock")
        #expect(pod.ask(":link", every: 0.1, timeout: 5) { $0.contains("session playing") } != nil)
        Thread.sleep(forTimeInterval: 0.5)

        pod.say(":link stop")
        #expect(peer.ask(nil, every: 0.05, timeout: 5) { $0.hasSuffix("playing 0") } != nil, "podium's stop reaches the peer: \(peer.lines.suffix(2))")
        #expect(pod.ask(":tempo", every: 0.05, timeout: 5, until: stopped) != nil)
        pod.say(":link start")
        #expect(peer.ask(nil, every: 0.05, timeout: 5) { $0.hasSuffix("playing 1") } != nil, "podium's start reaches the peer: \(peer.lines.suffix(2))")
        #expect(pod.ask(":tempo", every: 0.05, timeout: 5, until: running) != nil, "the clock starts with the session")
        pod.say("@beat i2 0 0.25 0.5")
        Thread.sleep(forTimeInterval: 1)
        pod.finish(":quit")

        // Each start is journaled on the session's bar: the clock is located so that its next
        // bar line falls on the frame where the session's beat is 0 (within one period before it).
        // A start first seen after that line has passed (the peer's start time is its "now", and
        // the sound of the period that sees it is heard a period or more later; a dummy server's
        // period runs up to 3 % long in host time, and a skipped one is two) is joined on the
        // session's phase: just past the bar line, by at most a few periods (LinkStartStop.swift).
        let session = try #require(SessionCatalog.list(sessions).first?.directory, "no session: \(pod.stderr.suffix(300))")
        let lines = try clockLines(session)
        let starts = zip(lines, lines.dropFirst()).filter { !$0.0.running && $0.1.running }.map(\.1)
        let stops = zip(lines, lines.dropFirst()).filter { $0.0.running && !$0.1.running }.count
        print("link: start/stop sync: \(stops) stops, starts at beats \(starts.map(\.beat))")
        #expect(starts.count >= 2 && stops >= 2, "journal: \(lines)")
        for (tempo, beat, _) in starts {
            let period = 256.0 / 48_000 * tempo / 60  // beats in one period
            let fromBar = beat - (beat / 4).rounded() * 4  // < 0: located before the bar line; > 0: joined past it
            #expect(fromBar >= -(period + 1e-9) && fromBar < 4 * period,
                    "a start at beat \(beat) is \(fromBar / period) periods from a bar line: neither just before it nor joined just after it")
        }
        try expectReplayIdentical(session, in: dir)
    }
}
