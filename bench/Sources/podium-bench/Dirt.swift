// The `dirt` section: TidalCycles' `/dirt/play` bundles into Podium's SuperDirt surface,
// against the same timetags sent to scsynth as `/s_new` bundles in the same run: each onset's
// distance from its timetag (relative to the first onset), and CPU per 1000 events received.
import Foundation
import PodiumHost
import PodiumOSC
import PodiumProbe

/// One `/dirt/play` bundle as Tidal 1.7.10 encodes it (a bundle of one message, keys sorted,
/// numbers float32, `orbit` int32).
// Thread: bench main
func dirtBundle(ntp: Double, cycle: Double, s: String = "bd", delta: Float = 0.005) -> [UInt8] {
    RawOSC.bundle(ntp: ntp, [RawOSC.message("/dirt/play", [.s("_id_"), .s("1"), .s("cps"), .f(0.5625), .s("cycle"), .f(Float(cycle)),
                                                          .s("delta"), .f(delta), .s("orbit"), .i(0), .s("s"), .s(s)])])
}

/// CPU seconds a process's threads have used, to the nanosecond (/proc/PID/task/*/schedstat).
// Thread: any
func processCPU(_ pid: Int32) -> Double {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.reduce(0.0) { sum, task in
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8)) ?? ""
        return sum + (text.split(separator: " ").first.flatMap { Double($0) } ?? 0) / 1e9
    }
}

// Thread: bench main
func dirtSection(events: Int, flood: Int) throws {
    let server = try TestJackServer(period: 256, realtime: realtimeServer, tag: "bench-dirt")
    defer { server.stop() }
    let driver = JackDriver(source: .text(orchestra: impulseOrchestra + "\ninstr bd\n  aLevel linseg 0.5, p3, 0.5\n  out aLevel\nendin\n", score: nil, name: "dirt.orc"),
                            jack: JackOptions(clientName: "podium", serverName: server.name, connect: false))
    try driver.start()
    defer { driver.stop() }
    let dirt = try DirtSurface(driver: driver, options: OSCOptions(port: 0), samples: nil, followClock: false)
    dirt.start()
    defer { dirt.stop() }
    let podium = UDPSender(port: dirt.port)

    // scsynth, as in the peers section.
    let (scsynth, sc, scNote) = try startScsynth(server: server)
    defer { scsynth?.terminate(); scsynth?.waitUntilExit() }

    // 1. Timetag → onset: `events` bundles at uneven spacings (2000…6000 frames, fractions of a
    // frame), each sent 150 ms before its timetag, as Tidal sends (oLatency 0.1 + a frame of 50 ms).
    let capture = try CaptureClient(server: server.name, channels: 2, seconds: Double(events) * 0.09 + 3, name: "dirt-capture")
    defer { capture.close() }
    try capture.connect(from: "podium:out_1", channel: 0)
    if sc != nil { try capture.connect(from: "SuperCollider:out_1", channel: 1) }
    capture.start()
    Thread.sleep(forTimeInterval: 0.2)
    var generator = SystemRandomNumberGenerator()
    let ntpOffset = 2_208_988_800.0
    let first = Date().timeIntervalSince1970 + ntpOffset + 0.3
    var times: [Double] = [first]
    for _ in 1..<events { times.append(times.last! + Double.random(in: 2000...6000, using: &generator) / 48000) }
    for (i, t) in times.enumerated() {
        while Date().timeIntervalSince1970 + ntpOffset < t - 0.15 { Thread.sleep(forTimeInterval: 0.001) }
        _ = podium.send(dirtBundle(ntp: t, cycle: Double(i) / 4))
        if let sc { _ = sc.send(RawOSC.bundle(ntp: t, [RawOSC.message("/s_new", [.s("podium-impulse"), .i(-1), .i(0), .i(0)])])) }
    }
    Thread.sleep(forTimeInterval: 0.5)
    capture.stopRecording()
    func errors(_ channel: Int) -> [Double] {
        let onsets = capture.onsets(channel, threshold: 0.1)
        guard onsets.count == times.count else { return [] }
        return zip(onsets, times).map { o, t in Double(o - onsets[0]) - ((t - times[0]) * 48000).rounded() }
    }
    func row(_ name: String, _ e: [Double], heard: Int, note: String) -> String {
        guard !e.isEmpty else { return "| \(name) | \(heard) of \(events) | — | — | \(note) |" }
        let a = e.map(abs).sorted()
        return String(format: "| %@ | %d of %d | %.0f | %.0f | %@ |", name, heard, events, a[a.count / 2], a.last!, note)
    }
    print("### SuperDirt: timetag → onset (dummy JACK \(realtimeServer ? "-R" : "-r"), 48 kHz, period 256; \(events) bundles at uneven spacings, sent 150 ms ahead)\n")
    print("| receiver | onsets | median \\|error\\| (frames) | max \\|error\\| (frames) | note |")
    print("|---|---|---|---|---|")
    print(row("Podium `--dirt`, `/dirt/play` (Tidal's encoding)", errors(0), heard: capture.onsets(0, threshold: 0.1).count, note: "sample-accurate start inside the k-cycle"))
    if sc != nil {
        print(row("scsynth `/s_new` bundles", errors(1), heard: capture.onsets(1, threshold: 0.1).count, note: "`Out.ar` starts on its 64-frame block (OffsetOut would place it)"))
    } else {
        print("| scsynth | — | — | — | \(scNote) |")
    }

    // 2. CPU per 1000 events: a flood of `flood` bundles at 2000 a second (Tidal's bd*1024 sends
    // 576), timetags 200 ms ahead; Podium's surface thread, scsynth's whole process (its DSP
    // included: an idle second of it is subtracted).
    let before = dirt.stats
    let scPID = scsynth?.processIdentifier
    let scIdle0 = scPID.map(processCPU)
    Thread.sleep(forTimeInterval: 2)
    let scIdle = scPID.map { (processCPU($0) - scIdle0!) / 2 } ?? 0
    let sc0 = scPID.map(processCPU)
    let start = Date()
    for i in 0..<flood {
        let due = start.addingTimeInterval(Double(i) / 2000)
        while Date() < due { Thread.sleep(forTimeInterval: 0.0002) }
        let t = Date().timeIntervalSince1970 + ntpOffset + 0.2
        _ = podium.send(dirtBundle(ntp: t, cycle: Double(i) / 128, delta: 0.001))
        if let sc { _ = sc.send(RawOSC.bundle(ntp: t, [RawOSC.message("/s_new", [.s("podium-impulse"), .i(-1), .i(0), .i(0)])])) }
    }
    let floodSeconds = Date().timeIntervalSince(start)
    Thread.sleep(forTimeInterval: 0.6)
    let after = dirt.stats
    let received = after.events - before.events
    print("\n### SuperDirt: CPU per 1000 events (\(flood) bundles at 2000 a second)\n")
    print("| receiver | events taken | CPU per 1000 events | note |")
    print("|---|---|---|---|")
    print(String(format: "| Podium `--dirt` (its surface thread) | %d | %.1f ms | receive, parse (liblo), map, post to the ring; ring full %d, late %d |",
                 received, (after.cpuSeconds - before.cpuSeconds) / Double(max(received, 1)) * 1e6, dirt.player.stats.ringFull, after.late - before.late))
    if let scPID, let sc0 {
        let used = processCPU(scPID) - sc0 - scIdle * floodSeconds
        print(String(format: "| scsynth (its process, less its idle DSP) | %d sent | %.1f ms | its threads' CPU (schedstat), so running each synth (20 ms of DC) too |", flood, used / Double(flood) * 1e6))
    }
    print()
}
