// podium-bench web: the stage page's costs. Page action → channel applied (ms) with 1 and 10
// pages open, and what serving 10 pages costs the callback (longest callback, xruns) and the
// CPU (this process: Podium's engine, callback, web server and feedback thread), against none.
import Foundation
import PodiumEngine
import PodiumOSC
import PodiumProbe
import PodiumHost
import PodiumWeb

/// The pages: `bench/web_pages.py` holds N WebSocket connections that read everything Podium
/// sends (as open pages do); page 1 sends what it is told on stdin and prints when it sent it.
final class WebPages {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    private var buffered = Data()

    init(socketURL: String, pages: Int) throws {
        // The python3 on PATH (the one scripts/setup installed websocket-client for).
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "bench/web_pages.py", socketURL, "\(pages)"]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        guard line()?.hasPrefix("ready") == true else { throw PagesError(description: "bench/web_pages.py did not start (python3 and websocket-client: scripts/setup release bench)") }
    }

    func send(_ text: String) { input.fileHandleForWriting.write(Data((text + "\n").utf8)) }

    func line() -> String? {
        while true {
            if let i = buffered.firstIndex(of: 10) {
                let l = String(decoding: buffered[..<i], as: UTF8.self)
                buffered.removeSubrange(...i)
                return l
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            buffered.append(chunk)
        }
    }

    func close() {
        send("quit")
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

struct PagesError: Error, CustomStringConvertible {
    var description: String
}

func monotonicNs() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// This process's CPU time (user + system), seconds.
func cpuSeconds() -> Double {
    var u = rusage()
    getrusage(RUSAGE_SELF.rawValue, &u)
    return Double(u.ru_utime.tv_sec) + Double(u.ru_utime.tv_usec) / 1e6 + Double(u.ru_stime.tv_sec) + Double(u.ru_stime.tv_usec) / 1e6
}

/// Page 1 sets `volume` to a new value `count` times; each time, from the moment the page sent
/// it to the moment the engine's channel holds it (polled every 100 µs).
func webLatencies(_ driver: JackDriver, _ pages: WebPages, count: Int) -> [Double] {
    var latencies: [Double] = []
    for i in 0..<count {
        // Binary fractions: Foundation's JSON reader on Linux does not round every decimal
        // exactly (0.33999999999999997 arrives as 0.33999999999999986); these arrive as sent.
        let value = Double(i % 50 + 1) / 64
        pages.send("set volume \(value)")
        let deadline = monotonicNs() + 2_000_000_000
        var applied: UInt64 = 0
        while monotonicNs() < deadline {
            if (try? driver.engine.control("volume")) == value { applied = monotonicNs(); break }
            usleep(100)
        }
        let reply = pages.line()
        guard let sent = reply?.split(separator: " ").last.flatMap({ UInt64($0) }), applied > 0 else {
            FileHandle.standardError.write(Data("web: set \(value) not seen (\(reply ?? "no reply"), engine \((try? driver.engine.control("volume")) ?? -1))\n".utf8))
            continue
        }
        latencies.append(Double(Int64(applied) - Int64(sent)) / 1e6)
        usleep(useconds_t.random(in: 20_000...40_000))
    }
    return latencies
}

struct WebLoad {
    var cpuPercent: Double
    var maxCallbackUs: Double
    var periodUs: Double
    var xruns: UInt64
}

/// `seconds` of synth.csd playing with the pages open (page 1 moving a fader 30 times a second
/// when `moving`): this process's CPU share, the longest callback, xruns.
func webLoad(_ driver: JackDriver, _ pages: WebPages?, seconds: Double, moving: Bool) -> WebLoad {
    driver.resetCallbackTimes()
    let xruns = driver.stats.xruns
    let cpu = cpuSeconds(), wall = monotonicNs()
    if moving, let pages { pages.send("wiggle \(seconds)"); _ = pages.line() } else { Thread.sleep(forTimeInterval: seconds) }
    let used = cpuSeconds() - cpu, elapsed = Double(monotonicNs() - wall) / 1e9
    let s = driver.stats
    return WebLoad(cpuPercent: used / elapsed * 100, maxCallbackUs: s.maxCallbackMicroseconds, periodUs: s.periodMicroseconds, xruns: s.xruns - xruns)
}

func webSection(events: Int, seconds: Double) throws {
    let server = try TestJackServer(period: 256, realtime: realtimeServer, tag: "bench")
    defer { server.stop() }
    // synth.csd's instruments with a score that lasts: the drums, the effects and a held chord
    // for the whole run (its own score ends after 32 s).
    let orchestra = CSDSections(try Engine.read("Orchestras/synth.csd")).orchestra
    let score = "i10 0 3600\ni99 0 3600\ni1 0 3600 220 0.2\ni1 0 3600 277.18 0.15\ni1 0 3600 329.63 0.15\n"
    let driver = JackDriver(source: .text(orchestra: orchestra, score: score, name: "synth.csd"),
                            jack: JackOptions(clientName: "podium", serverName: server.name, connect: false))
    try driver.start()
    defer { driver.stop() }
    let web = WebSurface(driver: driver, options: WebOptions(port: 0), orchestra: "synth.csd", map: try OSCMap(contentsOf: "Orchestras/synth.oscmap.yaml"))
    try web.start()
    defer { web.stop() }
    Thread.sleep(forTimeInterval: 0.5)
    print("### Stage page: page action → channel applied, and the cost of serving pages (synth.csd: drums, effects and a held chord; dummy JACK \(realtimeServer ? "-R" : "-r"), 48 kHz, period 256 = 5.33 ms)\n")
    print("Latency: a page (WebSocket client, `bench/web_pages.py`) sets `volume`; from the moment it sent the message to the moment the engine's channel holds the value (polled every 0.1 ms), \(events) sets, 20–40 ms apart. The other pages read every update Podium sends.\n")
    print("| pages open | sets | median ms | p95 ms | max ms |")
    print("|---:|---:|---:|---:|---:|")
    for n in [1, 10] {
        let pages = try WebPages(socketURL: web.socketURL, pages: n)
        Thread.sleep(forTimeInterval: 0.5)
        let l = webLatencies(driver, pages, count: events)
        print(String(format: "| %d | %d | %.2f | %.2f | %.2f |", n, l.count, percentile(l, 0.5), percentile(l, 0.95), l.max() ?? .nan))
        pages.close()
    }
    print("\nCost: \(Int(seconds)) s each, two rounds; CPU is this process's user + system time over wall time (engine, callback, web server, feedback thread; 100 % = one core).\n")
    print("| pages open | page 1 | podium CPU | longest callback | xruns |")
    print("|---:|---|---:|---:|---:|")
    // Twice, interleaved: the dummy server on a shared machine has xruns and long callbacks of
    // its own; what stays across rounds is the pages' doing.
    for (n, moving) in [(0, false), (10, false), (10, true), (0, false), (10, false), (10, true)] {
        let pages = n > 0 ? try WebPages(socketURL: web.socketURL, pages: n) : nil
        Thread.sleep(forTimeInterval: 0.5)
        let load = webLoad(driver, pages, seconds: seconds, moving: moving)
        pages?.close()
        print(String(format: "| %d | %@ | %.1f %% | %.0f µs (%.0f %% of the period) | %llu |", n, n == 0 ? "—" : moving ? "moves a fader 30×/s" : "idle",
                     load.cpuPercent, load.maxCallbackUs, load.maxCallbackUs / load.periodUs * 100, load.xruns))
    }
    print("\n\(web.stats.summary)\n")
}
