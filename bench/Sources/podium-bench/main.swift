// podium-bench: measurements that need Podium's own real-time core in-process.
// Usage: podium-bench latency [--periods 256,128] [--events 200]
import Foundation
import PodiumEngine
import PodiumProbe
import PodiumRealtime

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
    producer.event([2, 0, 0.01, 0.5])
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
        guard let id = producer.event([2, 0, 0.01, 0.5]) else { continue }
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
    case "latency":
        let periods = (option("--periods") ?? "256,128").split(separator: ",").compactMap { Int($0) }
        try latencyTable(periods: periods, events: Int(option("--events") ?? "200") ?? 200)
    default:
        FileHandle.standardError.write(Data("podium-bench: unknown section \(section) (known: latency)\n".utf8))
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("podium-bench: \(error)\n".utf8))
    exit(1)
}
