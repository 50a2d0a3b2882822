import Foundation
import PodiumEngine
import PodiumHost
import PodiumProbe
import PodiumRealtime

// `bench/run midi`: MIDI clock out against jack_midi_clock (Debian jack-midi-clock, the reference
// clock generator on Linux) on the same server in one run; MIDI clock in from jack_midi_clock
// (time to lock, beat error after it); the orchestra's notes on midi_out against their k-cycles.

let midiOrchestra = """
nchnls = 2
0dbfs = 1
instr 1
  noteondur 1, p4, 100, p3
endin
"""

/// Ticks' frames against the ideal (first + i × interval): the largest distance, and the
/// smallest and largest interval.
func tickStats(_ messages: [(frame: Int64, bytes: [UInt8])], bpm: Double, sampleRate: Double) -> (ticks: Int, maxOff: Double, minGap: Int64, maxGap: Int64) {
    let ticks = messages.filter { $0.bytes == [0xF8] }.map(\.frame)
    guard let first = ticks.first, ticks.count > 1 else { return (ticks.count, .nan, 0, 0) }
    let interval = 60 * sampleRate / (bpm * 24)
    var worst = 0.0
    for (i, f) in ticks.enumerated() { worst = max(worst, abs(Double(f - first) - Double(i) * interval)) }
    let gaps = zip(ticks, ticks.dropFirst()).map { $1 - $0 }
    return (ticks.count, worst, gaps.min() ?? 0, gaps.max() ?? 0)
}

func midiSection(periods: [Int], tempos: [Double], seconds: Double) throws {
    print("### MIDI clock out: Podium's ticks and jack_midi_clock's on the same dummy JACK server (-r, 48 kHz), captured at their JACK frames; the ideal is the first tick + i × 60·sr/(BPM·24)\n")
    print("| period | BPM | clock | ticks | max frames off the ideal | interval min–max frames | xruns |")
    print("|---:|---:|---|---:|---:|---|---:|")
    for period in periods {
        let server = try TestJackServer(period: period, tag: "bench-midi")
        defer { server.stop() }
        for bpm in tempos {
            var jack = JackOptions(clientName: "podium", serverName: server.name, connect: false, ksmps: 64)
            jack.midiClock = .out
            jack.tempo = bpm
            let driver = JackDriver(source: .text(orchestra: midiOrchestra, score: nil, name: "midi.orc"), jack: jack)
            try driver.start()
            let capture = try MidiCapture(server: server.name, name: "clock-capture")
            try capture.connect(from: "podium:midi_out")
            Thread.sleep(forTimeInterval: seconds)
            let ours = tickStats(capture.messages, bpm: bpm, sampleRate: 48000)
            let xruns = driver.stats.xruns
            driver.stop()
            print(String(format: "| %d | %.0f | Podium | %d | %.2f | %lld–%lld | %llu |", period, bpm, ours.ticks, ours.maxOff, ours.minGap, ours.maxGap, xruns))

            let transport = try JackTransportTool(server: server.name)
            transport.send("play", settle: 0.1)
            let leader = try JackProgram(server: server.name, "/usr/bin/jack_midi_clock", ["-b", "\(Int(bpm))", "-B"])
            let anchor = try MidiCapture(server: server.name, name: "anchor-capture")
            try JackProgram.connect(server: server.name, "jack_midi_clock:mclk_out", anchor.portName)
            Thread.sleep(forTimeInterval: seconds)
            let theirs = tickStats(anchor.messages, bpm: bpm, sampleRate: 48000)
            leader.stop()
            transport.send("stop")
            transport.quit()
            print(String(format: "| %d | %.0f | jack_midi_clock | %d | %.2f | %lld–%lld | |", period, bpm, theirs.ticks, theirs.maxOff, theirs.minGap, theirs.maxGap))
        }
    }

    print("\n### MIDI clock in: jack_midi_clock leads Podium (--midi-clock in, Podium starting at 100 BPM); time from its Start to Podium's tempo within 0.1 BPM for good, and the beat error after that (Podium's published beat against the leader's ticks). jack_midi_clock's -J jitter accumulates (each tick placed after the previous one), so the leader's own tempo over a window varies: its σ over 2 s at 120 BPM is about 7 × J BPM\n")
    print("| period | BPM | jitter | time to lock s | tempo after it | max beat error after lock ms | xruns |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for period in periods {
        let server = try TestJackServer(period: period, tag: "bench-midi-in")
        defer { server.stop() }
        for bpm in tempos {
            for jitter in [0.0, 1, 10] {
                var jack = JackOptions(clientName: "podium", serverName: server.name, connect: false, ksmps: 64)
                jack.midiClock = .in
                jack.tempo = 100
                let driver = JackDriver(source: .text(orchestra: midiOrchestra, score: nil, name: "midi.orc"), jack: jack)
                try driver.start()
                let transport = try JackTransportTool(server: server.name)
                transport.send("stop")
                transport.send("locate 0", settle: 0.2)
                let leader = try JackProgram(server: server.name, "/usr/bin/jack_midi_clock", ["-b", "\(Int(bpm))", "-B"] + (jitter > 0 ? ["-J", "\(jitter)"] : []))
                let anchor = try MidiCapture(server: server.name, name: "leader-capture")
                try JackProgram.connect(server: server.name, "jack_midi_clock:mclk_out", anchor.portName)
                try JackProgram.connect(server: server.name, "jack_midi_clock:mclk_out", "podium:midi_in")
                transport.send("play", settle: 0)
                var samples: [ClockSnapshot] = []
                let end = Date().addingTimeInterval(seconds)
                while Date() < end { samples.append(driver.clock); Thread.sleep(forTimeInterval: 0.01) }
                let xruns = driver.stats.xruns
                leader.stop()
                transport.send("stop")
                transport.quit()
                driver.stop()
                let ticks = anchor.messages.filter { $0.bytes == [0xF8] }.map(\.frame)
                guard let start = ticks.first else { print("| \(period) | \(Int(bpm)) | \(jitter) % | no ticks | | | |"); continue }
                let interval = 60 * 48000 / (bpm * 24)
                let running = samples.filter { $0.running && $0.frame >= start }
                // Locked from the first sample after which the tempo stays within 0.1 BPM.
                let lastOff = running.lastIndex { abs($0.tempo - bpm) >= 0.1 }
                let locked = lastOff.map { running.index(after: $0) } ?? running.startIndex
                let lockTime = locked < running.count ? Double(running[locked].frame - start) / 48000 : .nan
                var worst = 0.0
                for s in running[min(locked, running.count)...] {
                    // The leader's beat at the sample's frame: its ticks since Start, and the fraction to the next.
                    guard let i = ticks.lastIndex(where: { $0 <= s.frame }) else { continue }
                    let leaderBeat = (Double(i) + Double(s.frame - ticks[i]) / interval) / 24
                    worst = max(worst, abs(s.beat - leaderBeat) * 60 / bpm * 1000)
                }
                let tempo = running.last?.tempo ?? .nan
                print(String(format: "| %d | %.0f | %.0f %% | %.2f | %.3f | %.2f | %llu |", period, bpm, jitter, lockTime, tempo, worst, xruns))
            }
        }
    }

    print("\n### MIDI out: the orchestra's noteon (noteondur) on podium:midi_out against the first frame of the k-cycle its note starts in (ksmps 64)\n")
    print("| period | notes | note on at its k-cycle's frame | max frames off | xruns |")
    print("|---:|---:|---:|---:|---:|")
    for period in periods {
        let server = try TestJackServer(period: period, tag: "bench-midi-out")
        defer { server.stop() }
        let driver = JackDriver(source: .text(orchestra: midiOrchestra, score: nil, name: "midi.orc"),
                                jack: JackOptions(clientName: "podium", serverName: server.name, connect: false, ksmps: 64))
        try driver.start()
        let capture = try MidiCapture(server: server.name, name: "notes-capture")
        try capture.connect(from: "podium:midi_out")
        let producer = driver.makeProducer()
        let base = driver.frameTime + 4800
        var due: [Int64] = []
        for i in 0..<100 {
            let frame = base + Int64(i) * 997  // every offset within a k-cycle comes round
            due.append(frame)
            _ = try producer.event([1, 0, 0.01, Double(36 + i % 60)], frame: frame)
        }
        Thread.sleep(forTimeInterval: Double(100 * 997) / 48000 + 0.5)
        let ons = capture.messages.filter { $0.bytes.count == 3 && $0.bytes[0] == 0x90 }.map(\.frame)
        let xruns = driver.stats.xruns
        driver.stop()
        let offs = zip(due, ons).map { abs($1 - ($0 - $0 % 64)) }
        print("| \(period) | \(ons.count) | \(offs.filter { $0 == 0 }.count) | \(offs.max() ?? -1) | \(xruns) |")
    }
    print("")
}
