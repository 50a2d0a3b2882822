import Foundation
import PodiumEngine
import PodiumHost
import PodiumOSC
import PodiumProbe
import PodiumSurfaces

// `bench/run reload`: how long a hot swap takes from every surface, measured from outside: a
// held note outputs a global as a constant level (`out a(gkLevel)`), each compile sets that
// global (`gkLevel init 0.NN`), and a frame-stamped capture client finds the first frame with the
// new level. Send → merged (the audio thread's k-cycle) and send → heard, from the JACK frame
// read just before the send: an editor's save (a new file renamed into place), the REPL,
// `/podium/orc`, the csound port, and the same compile through the csound CLI's own `--port`.

func levelOrchestra(_ level: Int) -> String {
    "nchnls = 1\n0dbfs = 1\ngkLevel init \(levelText(level))\ninstr 1\n out a(gkLevel)\nendin\n"
}
func levelText(_ level: Int) -> String { String(format: "0.%02d", level) }

final class MergedFrames: @unchecked Sendable {
    private let lock = NSLock()
    private var frames: [Int64] = []
    func add(_ f: Int64) { lock.withLock { frames.append(f) } }
    func first(after f: Int64) -> Int64? { lock.withLock { frames.first { $0 >= f } } }
}

/// The first frame at or after `from` whose sample is `level` (nil within `seconds`).
func heardFrame(_ capture: CaptureClient, level: Int, from: Int64, seconds: Double = 2) -> Int64? {
    let target = Float(Double(level) / 100)
    let deadline = Date().addingTimeInterval(seconds)
    var checked = capture.sampleIndex(ofFrame: from) ?? 0
    while Date() < deadline {
        let s = capture.samples(0)
        if checked < s.count, let i = s[checked...].firstIndex(where: { $0 == target }) { return capture.frame(ofSample: i) }
        checked = max(checked, s.count - 1)
        Thread.sleep(forTimeInterval: 0.002)
    }
    return nil
}

func compileLatencyTable(period: Int, compiles: Int) throws {
    let server = try TestJackServer(period: period, tag: "bench-compile")
    defer { server.stop() }
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("podium-bench-compile-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("live.orc").path
    try levelOrchestra(10).write(toFile: file, atomically: true, encoding: .utf8)
    var level = 10
    func nextLevel() -> Int { level = level % 89 + 11; return level }

    let driver = JackDriver(source: .orchestra(path: file, score: nil), jack: JackOptions(serverName: server.name, connect: false))
    let merged = MergedFrames()
    driver.onApplied = { if $0.kind == .compileMerged { merged.add($0.frame) } }
    try driver.start()
    defer { driver.stop() }
    try WarmChecker.shared.start()
    let reload = try HotReload(path: file, driver: driver)
    try reload.watch()
    defer { reload.stop() }
    let osc = try OSCSurface(driver: driver, options: OSCOptions(port: 0))
    osc.start()
    defer { osc.stop() }
    let port = try CsoundTextPort(driver: driver, options: OSCOptions(port: 0))
    port.start()
    defer { port.stop() }
    let repl = ReplSession(driver: driver, reloader: reload) { _ in }
    try driver.makeProducer().event([1, 0, 3600])
    let capture = try CaptureClient(server: server.name, channels: 1, seconds: Double(compiles) * 6 * 0.3 + 10)
    try capture.connect(from: "podium:out_1", channel: 0)
    capture.start()
    Thread.sleep(forTimeInterval: 0.5)
    let oscSender = UDPSender(port: osc.port)
    let textSender = UDPSender(port: port.port)

    func measure(_ surface: String, _ send: (Int) throws -> Void) throws {
        var toMerged: [Double] = [], toHeard: [Double] = []
        for _ in 0..<compiles {
            let l = nextLevel()
            let sent = capture.frameTime
            try send(l)
            if let h = heardFrame(capture, level: l, from: sent) {
                toHeard.append(Double(h - sent) / 48)
                // The supervisor reports a merge within about 10 ms.
                let until = Date().addingTimeInterval(0.3)
                while merged.first(after: sent) == nil && Date() < until { Thread.sleep(forTimeInterval: 0.002) }
                if let m = merged.first(after: sent) { toMerged.append(Double(m - sent) / 48) }
            }
            Thread.sleep(forTimeInterval: 0.25)  // within the compile budget (5 a second)
        }
        print(String(format: "| %d | %@ | %d | %.1f | %.1f | %.1f | %.1f |", period, surface, toHeard.count, percentile(toMerged, 0.5), toMerged.max() ?? .nan,
                     percentile(toHeard, 0.5), toHeard.max() ?? .nan))
    }
    try measure("file saved (new file renamed into place)") { l in
        let tmp = file + ".tmp"
        try levelOrchestra(l).write(toFile: tmp, atomically: false, encoding: .utf8)
        guard rename(tmp, file) == 0 else { throw TestFailure("rename: \(String(cString: strerror(errno)))") }
    }
    try measure("REPL line") { l in repl.handle("gkLevel init \(levelText(l))") }
    try measure("OSC `/podium/orc`") { l in _ = oscSender.send(RawOSC.message("/podium/orc", [.s("gkLevel init \(levelText(l))")])) }
    try measure("csound port (UDP text)") { l in _ = textSender.send(Array("gkLevel init \(levelText(l))".utf8)) }
    capture.close()
    driver.stop()

    // The csound CLI's own --port, on the same server (its JACK module buffers -B frames).
    let csd = dir.appendingPathComponent("level.csd").path
    try "<CsoundSynthesizer>\n<CsInstruments>\nsr = 48000\nksmps = 64\n\(levelOrchestra(10).replacingOccurrences(of: "nchnls = 1\n0dbfs = 1\n", with: "nchnls = 1\n0dbfs = 1\n"))</CsInstruments>\n<CsScore>\ni1 0 3600\n</CsScore>\n</CsoundSynthesizer>\n"
        .write(toFile: csd, atomically: true, encoding: .utf8)
    let cliPort = UInt16.random(in: 20000...40000)
    let cli = try startPeer("/usr/bin/csound", ["-+rtaudio=jack", "-+jack_client=cscli", "-odac", "-b\(period)", "-B\(period * 2)", "--port=\(cliPort)", "-d", "-m0", csd],
                            server: server.name)
    defer { cli.terminate(); cli.waitUntilExit() }
    guard waitForPort("cscli:output1", server: server.name) else {
        print("| \(period) | csound CLI `--port` | 0 | | | | | (did not start on JACK)")
        return
    }
    let cliCapture = try CaptureClient(server: server.name, channels: 1, seconds: Double(compiles) * 0.3 + 10, name: "cli-capture")
    try cliCapture.connect(from: "cscli:output1", channel: 0)
    cliCapture.start()
    Thread.sleep(forTimeInterval: 0.5)
    let cliSender = UDPSender(port: cliPort)
    var toHeard: [Double] = []
    for _ in 0..<compiles {
        let l = nextLevel()
        let sent = cliCapture.frameTime
        _ = cliSender.send(Array("gkLevel init \(levelText(l))".utf8))
        if let h = heardFrame(cliCapture, level: l, from: sent) { toHeard.append(Double(h - sent) / 48) }
        Thread.sleep(forTimeInterval: 0.25)
    }
    print(String(format: "| %d | csound CLI `--port` (`-b%d -B%d`) | %d | | | %.1f | %.1f |", period, period, period * 2, toHeard.count,
                 percentile(toHeard, 0.5), toHeard.max() ?? .nan))
}
