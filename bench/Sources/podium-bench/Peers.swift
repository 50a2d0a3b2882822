// Peers: event-to-sound latency of Podium (OSC, csound text protocol), the csound CLI on JACK
// (triggered through --port) and scsynth (/s_new), all measured the same way in one run: a UDP
// trigger sent at a known JACK frame, the onset found by a frame-stamped capture client.
import Foundation
import PodiumEngine
import PodiumOSC
import PodiumProbe
import PodiumHost
import PodiumSession
import CJack

struct PeerRow {
    var system: String
    var onsets: Onsets
    var note: String
    /// Podium's OSC rows: each event's way through the OSC thread, beside when it was sent.
    var paths: [SentPath] = []

    init(system: String, onsets: Onsets = Onsets(), note: String, paths: [SentPath] = []) {
        self.system = system
        self.onsets = onsets
        self.note = note
        self.paths = paths
    }
}

/// One Podium OSC event's way through the OSC thread, and how long before the next cycle's
/// start on the grid it was sent (frames; nil without a grid position: `Onsets.leads`).
struct SentPath {
    var path: OSCPathTiming
    var lead: Double?
}

/// What one system's events measured: onset − send in frames, and the events left out because
/// the capture client saw an xrun in their window (JACK's frame-time estimate jumps there).
struct Onsets {
    var latencies: [Double] = []
    /// Per event, from the send to the moment the capture client's callback received the cycle
    /// holding the onset (µs, both read from JACK's clock: the frame-time estimate, which a dummy
    /// server's late wake-ups throw off, plays no part). Its minimum is how close before a cycle
    /// an event can be sent and still sound in it: the receive path's floor, plus the cycle's
    /// work up to the capture client.
    var toCycle: [Double] = []
    /// Per event, onset − send in frames with the send placed on the server's cycle grid as a
    /// portless client keeps it (`CycleClock`), not on `jack_frame_time`'s estimate: what a
    /// listener hears, free of the estimate's drift and of the sources' own callback time.
    var onGrid: [Double] = []
    /// Per event sent (in order, the warm-up not counted): how long before the next cycle's
    /// start on the grid it was sent, in frames (onset − send on the grid, modulo the period);
    /// nil without a grid position.
    var leads: [Double?] = []
    var xrunEvents = 0
}

/// Sends `trigger` at random moments; returns onset − send, in frames.
func measureOnsets(server: TestJackServer, clock: CycleClock, from port: String, events: Int, after: () -> Void = {}, trigger: () -> Void) throws -> Onsets {
    let capture = try CaptureClient(server: server.name, channels: 1, seconds: 2, name: "peer-capture")
    defer { capture.close() }
    try capture.connect(from: port, channel: 0)
    trigger()  // warm-up (first-note allocation)
    Thread.sleep(forTimeInterval: 0.3)
    after()
    var result = Onsets()
    for _ in 0..<events {
        let xruns = capture.xruns
        capture.start()
        let began = capture.microseconds
        Thread.sleep(forTimeInterval: Double.random(in: 0.03...0.05))
        let sent = capture.frameTime, sentMicros = capture.microseconds
        trigger()
        Thread.sleep(forTimeInterval: 0.06)
        let ended = capture.microseconds
        capture.stopRecording()
        after()
        guard capture.xruns == xruns else { result.xrunEvents += 1; result.leads.append(nil); continue }
        var lead: Double? = nil
        if let onset = capture.onsetFrame(0), let i = capture.sampleIndex(ofFrame: onset) {
            result.latencies.append(Double(onset - sent))
            result.toCycle.append(Double(Int64(capture.receivedMicros(ofSample: i)) - Int64(sentMicros)))
            if let f = clock.frame(atMicros: sentMicros, from: began, to: ended) {
                let onGrid = Double(onset) - f, period = Double(server.period)
                result.onGrid.append(onGrid)
                let r = onGrid.truncatingRemainder(dividingBy: period)
                lead = r < 0 ? r + period : r
            }
        }
        result.leads.append(lead)
    }
    return result
}

/// Starts a peer program on the bench's JACK server, its output discarded.
func startPeer(_ executable: String, _ arguments: [String], server: String, environment: [String: String] = [:]) throws -> Process {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments = arguments
    p.environment = ProcessInfo.processInfo.environment.merging(environment.merging(["JACK_DEFAULT_SERVER": server]) { $1 }) { $1 }
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try p.run()
    return p
}

/// Waits until a JACK port exists (an external program starting up).
func waitForPort(_ name: String, server: String, seconds: Double = 15) -> Bool {
    guard let probe = CaptureClient.openClient(name: "port-probe", server: server) else { return false }
    defer { jack_client_close(probe) }
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if jack_port_by_name(probe, name) != nil { return true }
        Thread.sleep(forTimeInterval: 0.05)
    }
    return false
}

/// A minimal SynthDef (SCgf version 2) without sclang: `DC.ar(0.5)` to bus 0, freed after
/// 20 ms by `Line.kr(doneAction: 2)`.
func impulseSynthDef(name: String) -> [UInt8] {
    var b: [UInt8] = []
    func i32(_ v: Int32) { withUnsafeBytes(of: v.bigEndian) { b += $0 } }
    func i16(_ v: Int16) { withUnsafeBytes(of: v.bigEndian) { b += $0 } }
    func i8(_ v: Int8) { b.append(UInt8(bitPattern: v)) }
    func f32(_ v: Float) { withUnsafeBytes(of: v.bitPattern.bigEndian) { b += $0 } }
    func pstring(_ s: String) { b.append(UInt8(s.utf8.count)); b += Array(s.utf8) }
    b += Array("SCgf".utf8); i32(2); i16(1)
    pstring(name)
    let constants: [Float] = [0.5, 0.02, 2, 0]          // 0.5 level/line value, 0.02 s, doneAction 2, bus 0
    i32(Int32(constants.count)); constants.forEach(f32)
    i32(0)                                              // parameters
    i32(0)                                              // parameter names
    i32(3)                                              // UGens
    // 0: Line.kr(0.5, 0.5, 0.02, 2)
    pstring("Line"); i8(1); i32(4); i32(1); i16(0)
    for c: Int32 in [0, 0, 1, 2] { i32(-1); i32(c) }
    i8(1)
    // 1: DC.ar(0.5)
    pstring("DC"); i8(2); i32(1); i32(1); i16(0)
    i32(-1); i32(0)
    i8(2)
    // 2: Out.ar(0, DC)
    pstring("Out"); i8(2); i32(2); i32(0); i16(0)
    i32(-1); i32(3)
    i32(1); i32(0)
    i16(0)                                              // variants
    return b
}

/// scsynth (supercollider-server) on `server` with the impulse synth defined: the process, a
/// sender to its UDP port, or why not (not installed, no JACK port, no answer to /d_recv).
// Thread: bench main
func startScsynth(server: TestJackServer) throws -> (Process?, UDPSender?, String) {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/scsynth") else { return (nil, nil, "not installed (apt: supercollider-server)") }
    let port = UInt16.random(in: 40001...60000)
    let p = try startPeer("/usr/bin/scsynth", ["-u", "\(port)", "-i", "0", "-o", "1", "-R", "0"], server: server.name,
                          environment: ["SC_JACK_DEFAULT_OUTPUTS": ""])
    guard waitForPort("SuperCollider:out_1", server: server.name) else { return (p, nil, "did not start on JACK") }
    // The synth definition, until scsynth answers /done (its UDP port may open after its JACK port).
    let sender = UDPSender(port: port)
    for _ in 0..<10 {
        _ = sender.send(RawOSC.message("/d_recv", [.b(impulseSynthDef(name: "podium-impulse"))]))
        if sender.reply(timeout: 1).map({ String(decoding: $0.prefix(5), as: UTF8.self) == "/done" }) == true { return (p, sender, "") }
    }
    return (p, nil, "did not answer /d_recv")
}

/// Podium's OSC path and scsynth run side by side on one server and are measured in `pairs`
/// interleaved blocks (Podium, scsynth, Podium, …), so that both meet the same moments of the
/// machine; the csound text protocol and the csound CLI once each.
func peersTable(period: Int, events: Int, pairs: Int) throws -> [PeerRow] {
    var rows: [PeerRow] = []
    let server = try TestJackServer(period: period, realtime: realtimeServer, tag: "bench-peers")
    defer { server.stop() }
    let clock = try CycleClock(server: server.name)

    let (driver, osc) = try startPodium(server: server)
    defer { osc.stop(); driver.stop() }
    let text = try CsoundTextPort(driver: driver, options: OSCOptions(port: 0))
    text.start()
    defer { text.stop() }
    let oscSender = UDPSender(port: osc.port), textSender = UDPSender(port: text.port)
    let event = OSCMessage.encode("/podium/event", [.int(2), .float(0), .float(0.01), .float(0.5)])

    // scsynth (supercollider-server): DSP in its JACK callback, 64-sample blocks.
    let (scsynth, scsynthSender, scsynthNote) = try startScsynth(server: server)
    defer { scsynth?.terminate(); scsynth?.waitUntilExit() }

    var node: Int32 = 1000
    for pair in 1...pairs {
        // One entry per `after` (the warm-up's first, then one per event sent), so that each
        // event's path lines up with its lead.
        var paths: [OSCPathTiming?] = []
        let onsets = try measureOnsets(server: server, clock: clock, from: "podium:out_1", events: events, after: {
            paths.append(osc.stats.lastPath)
        }) { _ = oscSender.send(event) }
        rows.append(PeerRow(system: "Podium, OSC `/podium/event` (\(pair))", onsets: onsets, note: "in the JACK callback",
                            paths: zip(paths.dropFirst(), onsets.leads).compactMap { path, lead in path.map { SentPath(path: $0, lead: lead) } }))
        guard let sender = scsynthSender else { rows.append(PeerRow(system: "scsynth", note: scsynthNote)); continue }
        // Each synth gets its id and is freed after its measurement. Its message is encoded
        // before the send is timed, as Podium's is.
        func newSynth() -> [UInt8] { RawOSC.message("/s_new", [.s("podium-impulse"), .i(node + 1), .i(0), .i(0)]) }
        var next = newSynth()
        rows.append(PeerRow(system: "scsynth `/s_new` (\(pair))", onsets: try measureOnsets(server: server, clock: clock, from: "SuperCollider:out_1", events: events, after: {
                                _ = sender.send(RawOSC.message("/n_free", [.i(node)]))
                                next = newSynth()
                            }) {
                                node += 1
                                _ = sender.send(next)
                            }, note: "in the JACK callback"))
    }
    rows.append(PeerRow(system: "Podium, csound text protocol `&i2 …`",
                        onsets: try measureOnsets(server: server, clock: clock, from: "podium:out_1", events: events) { _ = textSender.send(Array("&i2 0 0.01 0.5".utf8)) }, note: "in the JACK callback"))

    // Timetagged bundles: 8 bundles 4811 frames apart (sent together, 200 ms ahead); the
    // error is each onset's distance from the first onset + i × 4811.
    let capture = try CaptureClient(server: server.name, channels: 1, seconds: 2, name: "bundle-capture")
    try capture.connect(from: "podium:out_1", channel: 0)
    capture.start()
    Thread.sleep(forTimeInterval: 0.05)
    let now = Date().timeIntervalSince1970 + 2_208_988_800 + 0.2
    for i in 0..<8 {
        let t = now + Double(i * 4811) / 48000
        let bundle = RawOSC.bundle(ntp: t, [RawOSC.message("/podium/event", [.i(2), .f(0), .f(0.005), .f(0.5)])])
        _ = oscSender.send(bundle)
    }
    Thread.sleep(forTimeInterval: 1.2)
    capture.stopRecording()
    let onsets = capture.onsets(0)
    let errors = onsets.enumerated().map { Double($0.element - (onsets.first ?? 0) - Int64($0.offset * 4811)) }
    bundleRows.append(String(format: "| %d | %d of 8 | %@ |", period, onsets.count, errors.map { String(format: "%+.0f", $0) }.joined(separator: " ")))
    capture.close()

    // The csound CLI with its JACK module, at the smallest buffers it accepts (-B must exceed -b).
    do {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("podium-bench-peers-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let csd = dir.appendingPathComponent("impulse.csd").path
        try "<CsoundSynthesizer>\n<CsInstruments>\nsr = 48000\nksmps = 64\n\(impulseOrchestra)\n</CsInstruments>\n<CsScore>\nf0 3600\n</CsScore>\n</CsoundSynthesizer>\n"
            .write(toFile: csd, atomically: true, encoding: .utf8)
        let port = UInt16.random(in: 20000...40000)
        let p = try startPeer("/usr/bin/csound", ["-+rtaudio=jack", "-+jack_client=cscli", "-odac", "-b\(period)", "-B\(period * 2)", "--port=\(port)", "-d", "-m0", csd],
                              server: server.name)
        defer { p.terminate(); p.waitUntilExit() }
        if waitForPort("cscli:output1", server: server.name) {
            let sender = UDPSender(port: port)
            Thread.sleep(forTimeInterval: 0.5)
            rows.append(PeerRow(system: "csound CLI `-+rtaudio=jack -b\(period) -B\(period * 2)`, `--port` `&i2 …`",
                                onsets: try measureOnsets(server: server, clock: clock, from: "cscli:output1", events: events) { _ = sender.send(Array("&i2 0 0.01 0.5".utf8)) },
                                note: "its JACK module buffers -B frames"))
        } else {
            rows.append(PeerRow(system: "csound CLI", note: "did not start on JACK"))
        }
    }
    return rows
}

nonisolated(unsafe) var bundleRows: [String] = []

/// One process's memory, read from /proc while it plays: the peak and where the resident pages are.
struct MemoryBreakdown {
    var peakKiB = 0
    /// JACK's shared segment (/dev/shm/jack-…): the server's, mapped by every client.
    var jackKiB = 0
    /// File-backed pages: the program and its libraries (clean, shared with the page cache).
    var fileKiB = 0
    /// Anonymous pages: heap, stacks, rings, Csound's and Swift's data.
    var anonKiB = 0

    /// Runs `executable` with JACK_DEFAULT_SERVER = `server`, reads its memory after `after` seconds,
    /// then waits for it to end.
    static func measure(_ executable: String, _ arguments: [String], server: String, after: Double) -> MemoryBreakdown? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.environment = ProcessInfo.processInfo.environment.merging(["JACK_DEFAULT_SERVER": server]) { $1 }
        p.standardError = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return nil }
        defer { p.waitUntilExit() }
        Thread.sleep(forTimeInterval: after)
        let pid = p.processIdentifier
        // /proc files report a size of 0: read them to their end.
        func read(_ path: String) -> String? {
            guard let h = FileHandle(forReadingAtPath: path) else { return nil }
            defer { try? h.close() }
            return String(decoding: h.readDataToEndOfFile(), as: UTF8.self)
        }
        guard let smaps = read("/proc/\(pid)/smaps"), let status = read("/proc/\(pid)/status") else { return nil }
        var m = MemoryBreakdown()
        func kib(_ line: Substring) -> Int { Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0 }
        for line in status.split(separator: "\n") {
            if line.hasPrefix("VmHWM:") { m.peakKiB = kib(line) }
        }
        // Each mapping's header line (address range, permissions, offset, device, inode, path), then its fields.
        var kind = 0  // 0 anonymous, 1 file, 2 JACK's shared segment
        for line in smaps.split(separator: "\n") {
            if let first = line.first, first.isHexDigit, line.contains("-"), !line.hasSuffix(":"), line.split(separator: " ").count >= 5 {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                let path = fields.count >= 6 ? String(fields[5]) : ""
                kind = path.hasPrefix("/dev/shm/jack") ? 2 : (path.hasPrefix("/") ? 1 : 0)
            } else if line.hasPrefix("Rss:") {
                switch kind {
                case 2: m.jackKiB += kib(line)
                case 1: m.fileKiB += kib(line)
                default: m.anonKiB += kib(line)
                }
            }
        }
        return m
    }
}

/// Podium and the csound CLI playing the same orchestra on JACK: the peak, and what it is made of.
func memoryTable(podium: String) throws {
    let server = try TestJackServer(period: 256, tag: "bench-memory")
    defer { server.stop() }
    let csd = "Orchestras/sine.csd"
    let podiumRun = MemoryBreakdown.measure(podium, ["play", csd, "--server", server.name, "--no-connect", "--no-repl", "--no-watch", "--no-osc", "--no-session", "--duration", "4"],
                                            server: server.name, after: 2.5)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("podium-bench-memory-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    // The same orchestra, with a score that ends after four seconds.
    let text = try String(contentsOfFile: csd, encoding: .utf8).replacingOccurrences(of: "i1 0 10", with: "i1 0 4")
    let short = dir.appendingPathComponent("sine4.csd").path
    try text.write(toFile: short, atomically: true, encoding: .utf8)
    let csoundRun = MemoryBreakdown.measure("/usr/bin/csound", ["-+rtaudio=jack", "-+jack_client=csmem", "-odac", "-b256", "-B512", "-d", "-m0", short],
                                            server: server.name, after: 2.5)
    func mb(_ k: Int?) -> String { k.map { String(format: "%.1f MB", Double($0) / 1024) } ?? "failed" }
    print("\n### Memory: podium play vs the csound CLI on JACK, the same orchestra (Orchestras/sine.csd; resident pages read from /proc after 2.5 s)\n")
    print("| process | peak resident | JACK's shared segment | program and libraries (file pages) | anonymous (heap, stacks, rings) |")
    print("|---|---:|---:|---:|---:|")
    func row(_ name: String, _ m: MemoryBreakdown?) {
        print("| \(name) | \(mb(m?.peakKiB)) | \(mb(m?.jackKiB)) | \(mb(m?.fileKiB)) | \(mb(m?.anonKiB)) |")
    }
    row("podium play", podiumRun)
    row("csound CLI", csoundRun)
    if let a = podiumRun, let b = csoundRun {
        print("| podium − csound | \(mb(a.peakKiB - b.peakKiB)) | \(mb(a.jackKiB - b.jackKiB)) | \(mb(a.fileKiB - b.fileKiB)) | \(mb(a.anonKiB - b.anonKiB)) |")
    }
}

/// Runs the driver on its own server for `seconds` (under callgrind, bench/run counts the
/// instructions of the process callback and of csoundPerformKsmps inside it).
/// The server is started by the caller (`--server`): valgrind keeps child processes from being spawned.
func overheadRun(seconds: Double, server: String) throws {
    let driver = JackDriver(source: .csd(path: "bench/orchestras/voices.csd"), options: EngineOptions(seed: 1),
                            jack: JackOptions(serverName: server, connect: false, ksmps: 64))
    try driver.start()
    Thread.sleep(forTimeInterval: seconds)
    let s = driver.stats
    driver.stop()
    print("OVERHEAD callbacks \(s.callbacks) cycles \(s.cycles)")
}

/// Soak: an OSC flood, a hot reload every 2 s and a recording, for `seconds`; beside it, over
/// the same window, an idle client on a second dummy server of the same period (the control:
/// the xruns this shared machine makes by itself).
func soakTable(seconds: Double, rate: Int, period: Int) throws {
    let server = try TestJackServer(period: period, realtime: realtimeServer, tag: "bench-soak")
    defer { server.stop() }
    let controlServer = try TestJackServer(period: period, realtime: realtimeServer, tag: "bench-soak-control")
    defer { controlServer.stop() }
    let orchestra = "nchnls = 2\n0dbfs = 1\nchn_k \"level\", 1\ninstr 1\n a1 vco2 0.1 * chnget:k(\"level\"), p4\n outs a1, a1\nendin\n"
    let driver = JackDriver(source: .text(orchestra: orchestra, score: nil, name: "soak.orc"), options: EngineOptions(seed: 1),
                            jack: JackOptions(serverName: server.name, connect: false, ksmps: 64))
    try driver.start()
    defer { driver.stop() }
    let osc = try OSCSurface(driver: driver, options: OSCOptions(port: 0))
    osc.start()
    defer { osc.stop() }
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("podium-bench-soak-\(getpid())")
    defer { try? FileManager.default.removeItem(at: dir) }
    let recording = Recording(driver: driver, sessions: dir, podiumVersion: "bench")
    _ = try recording.startRecording()
    let producer = driver.makeProducer()
    for n in 0..<8 { try producer.event([1, 0, -1, 110 * Double(n + 1)]) }
    Thread.sleep(forTimeInterval: 0.3)
    driver.resetCallbackTimes()
    let before = driver.stats
    // The control: an idle client on the second server over the same window, in a process of its own.
    let idle = Process()
    idle.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    idle.arguments = ["idle-xruns", "--server", controlServer.name, "--seconds", "\(seconds)"]
    let idleOut = Pipe()
    idle.standardOutput = idleOut
    try idle.run()
    let sender = UDPSender(port: osc.port)
    let datagram = OSCMessage.encode("/podium/chn/level", [.float(0.5)])
    let start = ContinuousClock.now
    var sent = 0, reloads = 0, lastReload = start
    while ContinuousClock.now - start < .milliseconds(Int64(seconds * 1000)) {
        for _ in 0..<(rate / 500) where sender.send(datagram) { sent += 1 }
        if ContinuousClock.now - lastReload >= .seconds(2) {
            lastReload = ContinuousClock.now
            reloads += 1
            _ = try? driver.compileAndWait("instr 1\n a1 vco2 0.1 * chnget:k(\"level\"), p4 * \(1 + Double(reloads % 3) * 0.001)\n outs a1, a1\nendin\n", source: "soak")
        }
        Thread.sleep(forTimeInterval: 0.002)
    }
    Thread.sleep(forTimeInterval: 0.3)
    let s = driver.stats
    idle.waitUntilExit()
    let idleXruns = Int(String(decoding: idleOut.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    let summary = recording.stopRecording() ?? ""
    print(String(format: "| %d | %.0f s | %d/s, %d sent, %d received | %d | %llu | %d | %llu | ≤%.1f%% | %.0f µs of %.0f | %@ |",
                 period, seconds, rate, sent, osc.stats.datagrams, reloads, s.xruns - before.xruns, idleXruns, s.lateCommands - before.lateCommands,
                 s.p99 * 100, s.maxCallbackMicroseconds, s.periodMicroseconds, summary.contains(" 0 overruns") ? "0 disk overruns" : summary))
}
