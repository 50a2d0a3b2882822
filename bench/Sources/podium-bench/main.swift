// podium-bench: measurements that need Podium's own real-time core in-process.
// Usage: podium-bench latency [--periods 256,128] [--events 200]
import Foundation
import PodiumAudioFile
import PodiumEngine
import PodiumOSC
import PodiumProbe
import PodiumHost
import PodiumSession
import PodiumSurfaces
import PodiumWeb

/// An orchestra whose instrument 2 is a step of p4 (its onset is unambiguous; linseg honours
/// the sample-accurate start inside a k-cycle, where `a(p4)` would ramp over the first cycle).
let impulseOrchestra = """
nchnls = 1
0dbfs = 1
instr 2
  a1 linseg p4, p3, p4
  out a1
endin
"""

struct LatencyRow {
    var period: Int
    var events: Int
    var framesMedian: Double
    var framesP95: Double
    var framesMax: Double
    var exactOnsets: Int
    var nextCallback: Int
    var xruns: UInt64
    var baselineXruns: Int
    var seconds: Double
    var late: Int
    var stats: DriverStats
}

func percentile(_ values: [Double], _ q: Double) -> Double {
    let s = values.sorted()
    guard !s.isEmpty else { return .nan }
    return s[min(s.count - 1, Int((Double(s.count - 1) * q).rounded()))]
}

/// Posts events at random moments from a producer thread; measures post → onset in frames,
/// with the send time taken as JACK's frame time when the command is posted.
func measureLatency(period: Int, events: Int) throws -> LatencyRow {
    let server = try TestJackServer(period: period, realtime: realtimeServer, tag: "bench")
    defer { server.stop() }
    // Control: how many xruns the dummy server reports with no podium at all, for the same time.
    let seconds = Double(events) * 0.085 + 0.2
    let idle = try CaptureClient(server: server.name, channels: 1, seconds: 1, name: "bench-idle")
    Thread.sleep(forTimeInterval: seconds)
    let baselineXruns = idle.xruns
    idle.close()
    let driver = JackDriver(source: .text(orchestra: impulseOrchestra, score: nil, name: "impulse.orc"),
                            jack: JackOptions(clientName: "podium", serverName: server.name, connect: false))
    let applied = AppliedFrames()
    driver.onApplied = { if $0.kind == .command { applied.add($0.id, $0.frame) } }
    try driver.start()
    defer { driver.stop() }
    let capture = try CaptureClient(server: server.name, channels: 1, seconds: 2, name: "bench-capture")
    try capture.connect(from: "podium:out_1", channel: 0)
    Thread.sleep(forTimeInterval: 0.2)
    let producer = driver.makeProducer()
    // Warm-up: the first note of an instrument allocates its instance (once per instrument).
    try producer.event([2, 0, 0.01, 0.5])
    Thread.sleep(forTimeInterval: 0.3)
    driver.resetCallbackTimes()
    var latencies: [Double] = []
    var exact = 0
    var nextCallback = 0
    let xrunsBefore = driver.stats.xruns
    for _ in 0..<events {
        capture.start()
        Thread.sleep(forTimeInterval: Double.random(in: 0.03...0.05))
        let sent = capture.frameTime
        let cycleAtPost = capture.lastFrameTime
        guard let id = try producer.event([2, 0, 0.01, 0.5]) else { continue }
        Thread.sleep(forTimeInterval: 0.04)
        capture.stopRecording()
        guard let onset = capture.onsetFrame(0) else { continue }
        latencies.append(Double(onset - sent))
        if applied.frame(of: id) == onset { exact += 1 }
        if onset - cycleAtPost <= Int64(period) { nextCallback += 1 }
        if ProcessInfo.processInfo.environment["PODIUM_BENCH_DEBUG"] != nil {
            FileHandle.standardError.write(Data("sent \(sent) applied \(applied.frame(of: id) ?? -1) onset \(onset) last \(capture.lastFrameTime)\n".utf8))
        }
    }
    let late = latencies.filter { $0 > Double(period) }.count
    return LatencyRow(period: period, events: latencies.count, framesMedian: percentile(latencies, 0.5),
                      framesP95: percentile(latencies, 0.95), framesMax: latencies.max() ?? .nan,
                      exactOnsets: exact, nextCallback: nextCallback, xruns: driver.stats.xruns - xrunsBefore, baselineXruns: baselineXruns,
                      seconds: seconds, late: late, stats: driver.stats)
}

final class AppliedFrames: @unchecked Sendable {
    private let lock = NSLock()
    private var frames: [UInt64: Int64] = [:]
    func add(_ id: UInt64, _ frame: Int64) { lock.withLock { frames[id] = frame } }
    func frame(of id: UInt64) -> Int64? { lock.withLock { frames[id] } }
}

func latencyTable(periods: [Int], events: Int) throws {
    print("### Event-to-sound latency: Podium's command path (dummy JACK \(realtimeServer ? "-R" : "-r"), 48 kHz; \(events) events per period size)\n")
    print("Send time: JACK's frame time when a thread posts the command (an estimate JACK interpolates from its clock; it jumps at xruns); onset: first sample in a capture client. \"In next callback\": the onset is in the JACK cycle after the one in progress at the post (or that one), read from JACK's cycle start frames, which do not depend on the estimate.\n")
    print("| period | events | median frames | p95 frames | max frames | median periods | max periods | in next callback | onset on applied frame | xruns (podium running) | xruns (idle server, same time) | callback p99 / max |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for p in periods {
        let r = try measureLatency(period: p, events: events)
        let per = Double(p)
        print(String(format: "| %d | %d | %.0f | %.0f | %.0f | %.2f | %.2f | %d/%d | %d/%d | %llu | %d | ≤%.1f%% / %.0f µs |", p, r.events, r.framesMedian, r.framesP95,
                     r.framesMax, r.framesMedian / per, r.framesMax / per, r.nextCallback, r.events, r.exactOnsets, r.events, r.xruns, r.baselineXruns,
                     r.stats.p99 * 100, r.stats.maxCallbackMicroseconds))
        FileHandle.standardError.write(Data("period \(p): \(r.stats)\n".utf8))
    }
    print("")
}

/// A UDP sender of prepared datagrams (the bench's OSC client).
final class UDPSender {
    let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    var to = sockaddr_in()
    init(port: UInt16) {
        to.sin_family = sa_family_t(AF_INET)
        to.sin_port = port.bigEndian
        to.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    }
    func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { b in
            withUnsafePointer(to: &to) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(fd, b.baseAddress, b.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == b.count
            } }
        }
    }
    /// The next datagram sent back to this socket, waiting up to `timeout` seconds.
    func reply(timeout: Double) -> [UInt8]? {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, Int32(timeout * 1000)) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd, &buffer, buffer.count, 0)
        return n > 0 ? Array(buffer[0..<n]) : nil
    }
    deinit { close(fd) }
}

/// Podium in the bench's own process on `server` (client "podium"): the impulse orchestra, with
/// `extra` lines, and its OSC surface listening on a free port.
func startPodium(server: TestJackServer, extra: String = "") throws -> (JackDriver, OSCSurface) {
    let driver = JackDriver(source: .text(orchestra: impulseOrchestra + extra, score: nil, name: "impulse.orc"),
                            jack: JackOptions(clientName: "podium", serverName: server.name, connect: false))
    try driver.start()
    do {
        let osc = try OSCSurface(driver: driver, options: OSCOptions(port: 0))
        osc.start()
        return (driver, osc)
    } catch {
        driver.stop()
        throw error
    }
}

/// OSC: event-to-sound latency of `/podium/event` sent over UDP, and channel-set throughput.
func oscTable(period: Int, events: Int) throws {
    let server = try TestJackServer(period: period, tag: "bench-osc")
    defer { server.stop() }
    let (driver, osc) = try startPodium(server: server, extra: "\nchn_k \"level\", 1\n")
    defer { osc.stop(); driver.stop() }
    let capture = try CaptureClient(server: server.name, channels: 1, seconds: 2, name: "bench-capture")
    try capture.connect(from: "podium:out_1", channel: 0)
    let sender = UDPSender(port: osc.port)
    let event = OSCMessage.encode("/podium/event", [.int(2), .float(0), .float(0.01), .float(0.5)])
    _ = sender.send(event)  // first-note allocation
    Thread.sleep(forTimeInterval: 0.3)
    driver.resetCallbackTimes()
    var latencies: [Double] = []
    var nextCallback = 0
    for _ in 0..<events {
        capture.start()
        Thread.sleep(forTimeInterval: Double.random(in: 0.03...0.05))
        let sent = capture.frameTime
        let cycleAtSend = capture.lastFrameTime
        _ = sender.send(event)
        Thread.sleep(forTimeInterval: 0.04)
        capture.stopRecording()
        guard let onset = capture.onsetFrame(0) else { continue }
        latencies.append(Double(onset - sent))
        if onset - cycleAtSend <= Int64(period) { nextCallback += 1 }
    }
    let p = Double(period)
    // Throughput: one second of channel sets at each rate, paced; what arrived and was applied.
    var rates: [String] = []
    let datagram = OSCMessage.encode("/podium/chn/level", [.float(0.5)])
    for rate in [50_000, 100_000, 200_000] {
        let before = osc.stats
        let start = ContinuousClock.now
        var sent = 0
        // Bursts of rate/500 every 2 ms (sleeping, so the sender does not take a core).
        for burst in 0..<500 {
            let due = start + .milliseconds(Int64(burst) * 2)
            if ContinuousClock.now < due { Thread.sleep(forTimeInterval: Double((due - ContinuousClock.now).components.attoseconds) * 1e-18) }
            for _ in 0..<(rate / 500) where sender.send(datagram) { sent += 1 }
        }
        var last = -1
        while osc.stats.datagrams != last { last = osc.stats.datagrams; Thread.sleep(forTimeInterval: 0.1) }
        let got = osc.stats.datagrams - before.datagrams
        rates.append("\(rate / 1000)k/s: \(got == sent ? "no loss" : "lost \(sent - got)")\(osc.stats.ringFull > before.ringFull ? ", ring full \(osc.stats.ringFull - before.ringFull)" : "")")
    }
    let stats = driver.stats
    print(String(format: "| %d | %d | %.2f | %.2f | %.2f | %d/%d | %@ | %llu | ≤%.1f%% / %.0f µs |",
                 period, latencies.count, percentile(latencies, 0.5) / p, percentile(latencies, 0.95) / p, (latencies.max() ?? .nan) / p,
                 nextCallback, latencies.count, rates.joined(separator: "; "), stats.xruns, stats.p99 * 100, stats.maxCallbackMicroseconds))
}

/// Hot reload: a watched file is saved; how long until Csound has compiled it (inotify's quiet
/// time + parsing), and how many periods from there until the audio thread merged it.
/// Session recording's cost on the audio thread, and replay speed against the csound CLI.
func sessionTable(period: Int, seconds: Double) throws {
    let server = try TestJackServer(period: period, tag: "bench-session")
    defer { server.stop() }
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("podium-bench-session-\(getpid())")
    defer { try? FileManager.default.removeItem(at: dir) }
    let csd = "bench/orchestras/voices.csd"
    let driver = JackDriver(source: .csd(path: csd), options: EngineOptions(seed: 1),
                            jack: JackOptions(serverName: server.name, connect: false, ksmps: 64))
    try driver.start()
    defer { driver.stop() }
    Thread.sleep(forTimeInterval: 0.5)
    func window() -> (mean: Double, max: Double) {
        driver.resetCallbackTimes()
        Thread.sleep(forTimeInterval: seconds)
        let s = driver.stats
        return (s.meanCallbackMicroseconds, s.maxCallbackMicroseconds)
    }
    let before = window()
    let recording = Recording(driver: driver, sessions: dir, podiumVersion: "bench")
    let session = try recording.startRecording()
    let on1 = window(), on2 = window()
    let summary = recording.stopRecording() ?? ""
    let inside = driver.stats.recordMicrosecondsPerCycle
    let after = window()
    let off = (before.mean + after.mean) / 2, on = (on1.mean + on2.mean) / 2
    let perCycle = (on - off) / Double(period / 64)
    let periodUs = Double(period) / 48000 * 1e6
    print("| \(period) | 64 | \(String(format: "%.2f", inside)) | \(String(format: "%.1f", off)) | \(String(format: "%.1f", on)) | \(String(format: "%+.2f", on - off)) | \(String(format: "%+.2f", perCycle)) | \(String(format: "%+.3f %%", (on - off) / periodUs * 100)) | \(String(format: "%.0f / %.0f", max(before.max, after.max), max(on1.max, on2.max))) | \(summary.contains("0 overruns") ? "0" : summary) |")

    // Replay, against the csound CLI rendering the same orchestra offline.
    let replayer = try SessionReplayer(directory: URL(fileURLWithPath: session))
    let replay = try replayer.run(output: dir.appendingPathComponent("replay.wav").path)
    let engineSeconds = (Double(replayer.info.startCycle) * 64 + Double(replay.frames)) / 48000
    let recorded = try SoundFileContents(path: URL(fileURLWithPath: session).appendingPathComponent("audio.wav").path).samples
    let replayed = try SoundFileContents(path: dir.appendingPathComponent("replay.wav").path).samples
    let csound = Process()
    csound.executableURL = URL(fileURLWithPath: "/usr/bin/csound")
    csound.arguments = ["-o", dir.appendingPathComponent("cli.wav").path, "-f", "-d", "-m0", csd]
    csound.standardOutput = FileHandle.nullDevice
    csound.standardError = FileHandle.nullDevice
    let t0 = ContinuousClock.now
    try csound.run()
    csound.waitUntilExit()
    let cli = ContinuousClock.now - t0
    let cliSeconds = Double(cli.components.seconds) + Double(cli.components.attoseconds) * 1e-18
    replayRows.append(String(format: "| %.2f s (%.2f s of engine time) | %.3f | %.2f× | %.3f | %.2f× | %@ |", replay.seconds, engineSeconds, replay.wallSeconds,
                             engineSeconds / replay.wallSeconds, cliSeconds, 20 / cliSeconds, recorded == replayed ? "identical" : "DIFFER"))
}
nonisolated(unsafe) var replayRows: [String] = []

let args = Array(CommandLine.arguments.dropFirst())
let section = args.first ?? "latency"
@MainActor func option(_ name: String) -> String? {
    guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
    return args[i + 1]
}
JackDriver.routeJackMessages(verbose: false)
/// jackd -R (SCHED_FIFO) with --rt-server; by default -r (on this VM the dummy driver's timer
/// misses its deadlines more often under SCHED_FIFO than without it).
let realtimeServer = args.contains("--rt-server")
do {
    switch section {
    case "reload":
        print("### Hot swap from every surface: a held note outputs a global (`out a(gkLevel)`), each compile sets it (`gkLevel init 0.NN`); from the JACK frame read just before the send to the k-cycle that merged it and to the first frame a capture client hears the new level (dummy JACK -r, 48 kHz; the warm checker forks a check per compile)\n")
        print("| period | surface | compiles | send → merged median ms | max ms | send → heard median ms | max ms |")
        print("|---:|---|---:|---:|---:|---:|---:|")
        for p in (option("--periods") ?? "256,64").split(separator: ",").compactMap({ Int($0) }) { try compileLatencyTable(period: p, compiles: Int(option("--compiles") ?? "20") ?? 20) }
        print("\n### What reloads cost the audio thread: 8 vco2 + moogladder voices play while each kind of live code is compiled every 0.5 s (dummy JACK, 48 kHz, ksmps 64); big tables built by Csound in the callback, then staged (computed off the audio thread, copied in by slices)\n")
        print("| period | reload | tables | reloads | xruns | longest callback ms | under half the period |")
        print("|---:|---|---|---:|---:|---:|---|")
        for p in (option("--cost-periods") ?? "256,64").split(separator: ",").compactMap({ Int($0) }) {
            try reloadCostTable(period: p, reloads: Int(option("--reloads") ?? "8") ?? 8)
        }
        print("")
    case "osc":
        let periods = (option("--periods") ?? "256,128").split(separator: ",").compactMap { Int($0) }
        let events = Int(option("--events") ?? "100") ?? 100
        print("### OSC: `/podium/event` over UDP to sound, and `/podium/chn` throughput (dummy JACK -r, 48 kHz)\n")
        print("| period | events | median periods | p95 periods | max periods | in next callback | channel sets for 1 s, paced | xruns | callback p99 / max |")
        print("|---:|---:|---:|---:|---:|---:|---|---:|---:|")
        for p in periods { try oscTable(period: p, events: events) }
        print("")
    case "latency":
        let periods = (option("--periods") ?? "256,128").split(separator: ",").compactMap { Int($0) }
        try latencyTable(periods: periods, events: Int(option("--events") ?? "200") ?? 200)
    case "session":
        let seconds = Double(option("--seconds") ?? "3") ?? 3
        print("### Session recording: callback time with and without recording (16 vco2+moogladder voices, dummy JACK -r, 48 kHz, ksmps 64; \(seconds) s windows)\n")
        print("| period | ksmps | recording's own time per k-cycle µs (timed in the callback) | mean callback µs, off | on | Δ per callback µs | Δ per k-cycle µs | Δ of the period | max µs off / on | disk overruns |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
        for p in (option("--periods") ?? "256").split(separator: ",").compactMap({ Int($0) }) { try sessionTable(period: p, seconds: seconds) }
        print("\n### Replay (`podium replay`) against `csound -o` rendering the same orchestra (voices.csd, 20 s)\n")
        print("| session | replay wall s | replay × real time | csound CLI wall s (20 s) | csound × real time | replay vs audio.wav |")
        print("|---|---:|---:|---:|---:|---|")
        for row in replayRows { print(row) }
        print("")
    case "soak":
        print("### Soak: an OSC flood of channel sets, a hot reload every 2 s and a recording, 8 vco2 voices (dummy JACK \(realtimeServer ? "-R" : "-r"), 48 kHz, ksmps 64); the control is an idle client on a second server of the same period over the same window\n")
        print("| period | length | OSC flood | reloads | xruns | xruns of the idle control | late commands | callback p99 | max callback | recording |")
        print("|---:|---:|---|---:|---:|---:|---:|---:|---:|---|")
        for p in (option("--periods") ?? "256,64").split(separator: ",").compactMap({ Int($0) }) {
            try soakTable(seconds: Double(option("--seconds") ?? "20") ?? 20, rate: Int(option("--rate") ?? "20000") ?? 20000, period: p)
        }
        print("")
    case "idle-xruns":
        // The soak's control, in a process of its own (libjack keeps one server per process):
        // an idle client on `--server` for `--seconds`, then its xrun count on stdout.
        let idle = try CaptureClient(server: option("--server") ?? "default", channels: 1, seconds: 1, name: "soak-idle")
        Thread.sleep(forTimeInterval: Double(option("--seconds") ?? "20") ?? 20)
        print(idle.xruns)
        idle.close()
    case "overhead-run":
        try overheadRun(seconds: Double(option("--seconds") ?? "4") ?? 4, server: option("--server") ?? "default")
    case "peers":
        let periods = (option("--periods") ?? "256,128,64").split(separator: ",").compactMap { Int($0) }
        let events = Int(option("--events") ?? "60") ?? 60
        let pairs = Int(option("--pairs") ?? "3") ?? 3
        let nearCycle = 8  // frames: 167 µs at 48 kHz, the span where a late event meets the cycle's threads
        print("### Event-to-sound latency against peers, measured the same way in one run (dummy JACK \(realtimeServer ? "-R" : "-r"), 48 kHz): a UDP trigger sent at a known JACK frame, the onset in a capture client\n")
        print("(Podium and scsynth run side by side on the server and are measured in \(pairs) interleaved blocks of \(events) events: Podium (1), scsynth (1), Podium (2), … Each block's first event, which pays for start-up, is not counted; nor is an event whose window held an xrun, when JACK's frame-time estimate jumps. The dummy server's estimate also drifts by a period or more without an xrun (frame latencies in a sawtooth, some below 0: the block is flagged). **The cycle-grid column is the one to compare**: the send is placed on the server's frame grid as a portless client sees it (`CycleClock`: the dummy driver wakes on an anchored grid, never early, so the grid is the lower envelope of the cycles' start times), which neither the estimate's drift nor a source's own callback time moves. Its minimum is one event's, and a value below 0 is an event sent after its cycle began that still sounded in it: the source's callback took it late in that cycle. p5 (the 5th percentile) is a floor that one late callback does not set. The µs column, send to the capture client's callback, holds the source's callback time (Csound's k-cycle is longer than scsynth's block of one DC synth). Each system's trigger is encoded before its send is timed.)\n")
        print("| period | system | events | xrun events left out | min frames | median frames | max frames | median periods | p95 periods | max periods | send → its cycle at the capture client µs: min / median | **on the cycle grid, frames: min / p5 / median / p95** (events whose window kept one grid) | |")
        print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|")
        var paths: [(Int, [SentPath])] = []
        for p in periods {
            for row in try peersTable(period: p, events: events, pairs: pairs) {
                let l = row.onsets.latencies, d = Double(p)
                if !row.paths.isEmpty { paths.append((p, row.paths)) }
                let c = row.onsets.toCycle
                if l.isEmpty { print("| \(p) | \(row.system) | 0 | \(row.onsets.xrunEvents) | | | | | | | | | \(row.note) |"); continue }
                // An onset before its send: the frame estimate drifted in this block (no xrun counted).
                let note = (l.min() ?? 0) < 0 ? row.note + "; **frame estimate drifted** (a latency below 0): read the µs column" : row.note
                let g = row.onsets.onGrid
                print(String(format: "| %d | %@ | %d | %d | %.0f | %.0f | %.0f | %.2f | %.2f | %.2f | %.0f / %.0f | %.1f / %.1f / %.1f / %.1f (%d) | %@ |", p, row.system, l.count, row.onsets.xrunEvents, l.min() ?? .nan, percentile(l, 0.5),
                             l.max() ?? .nan, percentile(l, 0.5) / d, percentile(l, 0.95) / d, (l.max() ?? .nan) / d, c.min() ?? .nan, percentile(c, 0.5),
                             g.min() ?? .nan, percentile(g, 0.05), percentile(g, 0.5), percentile(g, 0.95), g.count, note))
            }
        }
        print("\n### Podium's OSC receive path, per `/podium/event` of the blocks above (µs; the OSC thread's own times: the kernel's arrival stamp (SCM_TIMESTAMPNS), the datagram in hand, parsed (a note in place, `NumericMessage`; anything else by liblo), carried out onto the ring). The last two columns split the wait by when the event was sent: less than \(nearCycle) frames before a cycle's start on the grid (its way then meets the cycle's real-time threads; an event that misses its cycle is one of these), or earlier\n")
        print("| period | events | waited for the thread: min / median / max | parse: median / max | carried out: median / max | total: min / median / max | total in frames (median) | waited, sent < \(nearCycle) frames before a cycle: median / p90 (n) | waited, sent earlier: median / p90 (n) |")
        print("|---:|---:|---|---|---|---|---:|---|---|")
        for p in periods {
            let sent = paths.filter { $0.0 == p }.flatMap(\.1), all = sent.map(\.path)
            guard !all.isEmpty else { continue }
            let near = sent.filter { ($0.lead ?? .infinity) < Double(nearCycle) }.map(\.path.waited)
            let earlier = sent.filter { ($0.lead ?? -1) >= Double(nearCycle) }.map(\.path.waited)
            let waited = all.map(\.waited), parse = all.map(\.parse), out = all.map(\.carriedOut), total = all.map(\.total)
            print(String(format: "| %d | %d | %.0f / %.0f / %.0f | %.0f / %.0f | %.0f / %.0f | %.0f / %.0f / %.0f | %.1f | %.0f / %.0f (%d) | %.0f / %.0f (%d) |", p, all.count,
                         waited.min() ?? .nan, percentile(waited, 0.5), waited.max() ?? .nan, percentile(parse, 0.5), parse.max() ?? .nan,
                         percentile(out, 0.5), out.max() ?? .nan, total.min() ?? .nan, percentile(total, 0.5), total.max() ?? .nan, percentile(total, 0.5) * 48000 / 1e6,
                         percentile(near, 0.5), percentile(near, 0.9), near.count, percentile(earlier, 0.5), percentile(earlier, 0.9), earlier.count))
        }
        print("")
        try memoryTable(podium: option("--podium") ?? ".build/release/podium")
        print("\n### Timetagged bundles to Podium: 8 bundles 4811 frames apart, sent together 200 ms ahead; each onset's error against the first + i × 4811 (frames)\n")
        print("| period | heard | errors |")
        print("|---:|---|---|")
        for row in bundleRows { print(row) }
        print("")
    case "footprint":
        try memoryTable(podium: option("--podium") ?? ".build/release/podium")
    case "beat":
        try beatSection(periods: (option("--periods") ?? "256,128").split(separator: ",").compactMap { Int($0) },
                        tempos: (option("--tempos") ?? "90,120,133,174").split(separator: ",").compactMap { Double($0) },
                        events: Int(option("--events") ?? "200") ?? 200, swaps: Int(option("--swaps") ?? "200") ?? 200,
                        changes: Int(option("--changes") ?? "100") ?? 100, seconds: Double(option("--seconds") ?? "3") ?? 3)
    case "midi":
        try midiSection(periods: (option("--periods") ?? "256,64").split(separator: ",").compactMap { Int($0) },
                        tempos: (option("--tempos") ?? "90,120,175").split(separator: ",").compactMap { Double($0) },
                        seconds: Double(option("--seconds") ?? "4") ?? 4)
    case "patterns":
        try patternsSection(cycles: Int(option("--cycles") ?? "60") ?? 60, seconds: Double(option("--seconds") ?? "10") ?? 10)
    case "samples":
        try samplesSection()
    case "dirt":
        try dirtSection(events: Int(option("--events") ?? "200") ?? 200, flood: Int(option("--flood") ?? "10000") ?? 10000)
    case "synth-cpu-podium":
        try synthCPUPodium(voices: Int(option("--voices") ?? "16") ?? 16, seconds: Double(option("--seconds") ?? "4") ?? 4,
                           only: (option("--synths") ?? "").split(separator: ",").map(String.init), mixed: Int(option("--mixed") ?? "0") ?? 0)
    case "web":
        try webSection(events: Int(option("--events") ?? "200") ?? 200, seconds: Double(option("--seconds") ?? "10") ?? 10)
    default:
        FileHandle.standardError.write(Data("podium-bench: unknown section \(section) (known: latency, osc, reload, session, peers, beat, patterns, samples, dirt, web, midi)\n".utf8))
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("podium-bench: \(error)\n".utf8))
    exit(1)
}
