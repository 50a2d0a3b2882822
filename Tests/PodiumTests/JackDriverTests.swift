import CAllocCounter
import CJack
import Foundation
import PodiumEngine
import PodiumHost
import PodiumProbe
import PodiumRealtime
import Synchronization
import Testing

/// Everything that opens JACK clients in this process runs one suite at a time: libjack keeps
/// process-wide state, and one suite kills its server on purpose. So do the suites that hold or
/// kill the process's one warm checker (CompileQueueTests.swift).
@Suite("JACK", .serialized)
struct JackSuites {}

/// The JACK-clocked core against a real `jackd -d dummy` (one server for the suite).
extension JackSuites {
@Suite("JACK driver", .serialized)
final class JackDriverTests {
    let server: TestJackServer

    static let orchestra = """
    nchnls = 2
    nchnls_i = 1
    0dbfs = 1
    chn_k "freq", 1
    chn_k "level", 1
    chn_k "button", 1
    chn_k "buttonSeen", 2

    instr 1 ; a sine at the "freq" channel, both outputs
      a1 oscili 0.5, chnget:k("freq")
      outs a1, a1
    endin

    instr 2 ; a step of p4 on output 2 only (for onsets; linseg honours sample-accurate starts)
      a1 linseg p4, p3, p4
      outs a(0), a1
    endin

    instr 3 ; counts the k-cycles in which "button" was 1
      kseen init 0
      kseen += chnget:k("button")
      chnset kseen, "buttonSeen"
    endin
    """

    init() throws {
        server = try TestJackServer()
    }

    deinit { server.stop() }

    func makeDriver(ksmps: Int? = nil, name: String = "podium") -> JackDriver {
        JackDriver(source: .text(orchestra: JackSuites.JackDriverTests.orchestra, score: nil, name: "test.orc"),
                   jack: JackOptions(clientName: name, serverName: server.name, connect: false, ksmps: ksmps))
    }

    @Test("ports follow nchnls and nchnls_i; sr is JACK's; ksmps is the period")
    func portsAndAlignment() throws {
        let driver = makeDriver()
        try driver.start()
        defer { driver.stop() }
        #expect(driver.portNames.inputs == ["podium:in_1"])
        #expect(driver.portNames.outputs == ["podium:out_1", "podium:out_2"])
        #expect(driver.engine.sampleRate == 48000)
        #expect(driver.engine.ksmps == 256)
        let probe = try CaptureClient(server: server.name, channels: 1, seconds: 1, name: "portprobe")
        #expect(jack_port_by_name(probe.client, "podium:out_2") != nil)
        #expect(jack_port_by_name(probe.client, "podium:in_1") != nil)
    }

    @Test("a divisor of the period is accepted as ksmps")
    func divisorKsmps() throws {
        let driver = makeDriver(ksmps: 64)
        try driver.start()
        defer { driver.stop() }
        #expect(driver.engine.ksmps == 64)
        #expect(eventually(2) { driver.stats.cycles >= 40 })
        #expect(driver.stats.cycles % 4 == 0, "four k-cycles per 256-frame period")
    }

    @Test("a ksmps that does not divide the period is refused, listing the valid ones")
    func nonDivisorRefused() {
        let driver = makeDriver(ksmps: 100)
        #expect(throws: JackError.badKsmps(ksmps: 100, period: 256, valid: [1, 2, 4, 8, 16, 32, 64, 128, 256])) { try driver.start() }
        #expect(!driver.isConnected)
    }

    @Test("audio reaches a JACK capture client at the expected frequency")
    func audioReachesCapture() throws {
        let driver = makeDriver()
        try driver.start()
        defer { driver.stop() }
        let producer = driver.makeProducer()
        try producer.set("freq", 440)
        try producer.event([1, 0, 30])
        let capture = try CaptureClient(server: server.name, channels: 2, seconds: 2)
        try capture.connect(from: "podium:out_1", channel: 0)
        try capture.connect(from: "podium:out_2", channel: 1)
        Thread.sleep(forTimeInterval: 0.1)
        capture.record(seconds: 1.2)
        let s = capture.samples(0)
        #expect(s.count > 40000)
        let f = estimatedFrequency(Array(s.suffix(40000)), sampleRate: 48000)
        #expect(abs(f - 440) < 3, "measured \(f) Hz")
        #expect((s.map { abs($0) }.max() ?? 0) > 0.45)
    }

    @Test("a command posted from another thread is applied in the next callback and heard in that very period")
    func commandHeardNextPeriod() throws {
        let driver = makeDriver()
        let applied = AppliedLog()
        driver.onApplied = { applied.add($0) }
        try driver.start()
        defer { driver.stop() }
        let capture = try CaptureClient(server: server.name, channels: 1, seconds: 4)
        try capture.connect(from: "podium:out_2", channel: 0)
        Thread.sleep(forTimeInterval: 0.1)
        var cyclesAfterPost: [Int64] = []
        for i in 0..<8 {
            capture.start()
            Thread.sleep(forTimeInterval: 0.05 + Double(i) * 0.0133)  // land at varying points of a period
            let box = PostResult()
            let poster = Thread {
                let producer = PostBox.producer(for: driver)
                // The start frame of the JACK cycle in progress when the command is posted.
                box.lastFrameAtPost = capture.lastFrameTime
                box.id = (try? producer.event([2, 0, 0.02, 0.5])) ?? nil
                box.done.signal()
            }
            poster.start()
            box.done.wait()
            Thread.sleep(forTimeInterval: 0.06)
            capture.stopRecording()
            let id = try #require(box.id)
            let record = try #require(applied.all.first { $0.kind == .command && $0.id == id })
            // No buffering between Csound and JACK: the sound starts on the applied cycle's first frame.
            #expect(capture.onsetFrame(0) == record.frame)
            cyclesAfterPost.append((record.frame - box.lastFrameAtPost) / 256)
        }
        // Applied in the cycle after the one in progress (1). A post that races the start of a
        // callback lands one later (2) or, when JACK's frame timer is read just before it
        // updates, shows as the cycle "in progress" (0). More than 2 would mean the posting
        // thread itself was preempted between reading the frame time and posting.
        let sorted = cyclesAfterPost.sorted()
        #expect(sorted[sorted.count / 2] == 1, "cycles after post: \(cyclesAfterPost)")
        #expect(sorted.allSatisfy { $0 >= 0 && $0 <= 3 }, "cycles after post: \(cyclesAfterPost)")
    }

    @Test("commands stamped with a future frame start exactly on it, inside a k-cycle")
    func frameStampedCommands() throws {
        let driver = makeDriver(ksmps: 64)
        try driver.start()
        defer { driver.stop() }
        let capture = try CaptureClient(server: server.name, channels: 1, seconds: 3)
        try capture.connect(from: "podium:out_2", channel: 0)
        Thread.sleep(forTimeInterval: 0.1)
        let producer = driver.makeProducer()
        try producer.event([2, 0, 0.01, 0.0001])  // the instrument's first note allocates: not in the measurement
        Thread.sleep(forTimeInterval: 0.1)
        capture.start()
        Thread.sleep(forTimeInterval: 0.05)
        // Six events 4811 frames apart: their offsets inside a 64-frame k-cycle step by 11,
        // so both halves of a k-cycle are covered wherever the first one falls.
        let xrunsBefore = driver.stats.xruns
        let first = driver.frameTime + 9600 + 37
        let frames = (0..<6).map { first + Int64($0) * 4811 }
        for f in frames { try producer.event([2, 0, 0.02, 0.5], frame: f) }
        Thread.sleep(forTimeInterval: 0.9)
        capture.stopRecording()
        let onsets = capture.onsets(0)
        let xruns = driver.stats.xruns - xrunsBefore
        // An xrun (the dummy server in a VM has some) skips a period: an event due in it starts
        // at the next callback, on a period boundary; or the skipped period shifts the frame
        // times the two clients read by whole periods, and an event reads a whole number of
        // periods late at its own offset. Every other event is exact.
        let exact = zip(onsets, frames).filter { onset, frame in
            !(xruns > 0 && onset > frame && (onset % 256 == 0 || (onset - frame) % 256 == 0))
        }
        #expect(onsets.count == frames.count && exact.allSatisfy { $0.0 == $0.1 } && exact.count >= frames.count - Int(xruns),
                "onsets \(onsets), asked \(frames), offsets differ by \(zip(onsets, frames).map { $0 - $1 }), xruns \(xruns)")
    }

    @Test("very short notes timed late in a k-cycle (Csound 6.18 crashes on them as asked) start on their frame, lengthened past the k-cycle")
    func shortLateNotes() throws {
        let driver = makeDriver()   // ksmps 256
        try driver.start()
        defer { driver.stop() }
        let capture = try CaptureClient(server: server.name, channels: 1, seconds: 3)
        try capture.connect(from: "podium:out_2", channel: 0)
        let producer = driver.makeProducer()
        try producer.event([2, 0, 0.02, 0.0001])
        Thread.sleep(forTimeInterval: 0.1)
        capture.start()
        let first = driver.frameTime + 4800
        // 96 frames after a k-cycle's start would be early enough; 200 is late (≥ 128) and
        // 0.001 s (48 frames) ends inside the cycle: the case Csound cannot start early.
        let aligned = first - first % 256
        let frames = (0..<4).map { aligned + Int64($0) * 9600 + 200 }
        for f in frames { try producer.event([2, 0, 0.001, 0.5], frame: f) }
        try producer.event([2, 0, 0.003, 0.5], frame: aligned + 4 * 9600 + 96)  // early in its cycle: exact
        Thread.sleep(forTimeInterval: 1.2)
        capture.stopRecording()
        #expect(driver.stats.cycles > 0 && driver.isConnected, "the engine is alive")
        let onsets = capture.onsets(0)
        #expect(onsets.count == 5, "\(onsets)")
        #expect(zip(onsets.prefix(4), frames).allSatisfy { $0.0 == $0.1 }, "on their frames: \(zip(onsets, frames).map { $0 - $1 })")
        #expect(onsets.last == aligned + 4 * 9600 + 96)
        let samples = capture.samples(0)
        #expect(onsets.prefix(4).allSatisfy { o in capture.sampleIndex(ofFrame: o).map { samples[$0...].prefix { abs($0) > 0.01 }.count > 0 } ?? false })
    }

    @Test("momentary channels are 1 for exactly one k-cycle")
    func momentary() throws {
        let driver = makeDriver(ksmps: 32)
        try driver.start()
        defer { driver.stop() }
        let producer = driver.makeProducer()
        try producer.event([3, 0, 60])
        Thread.sleep(forTimeInterval: 0.05)
        for _ in 0..<5 {
            try producer.set("button", 1, momentary: true)
            Thread.sleep(forTimeInterval: 0.03)
        }
        #expect(eventually(1) { (try? driver.engine.control("buttonSeen")) == 5 })
    }

    @Test("every applied command is stamped with its k-cycle; compiles with the cycle they merged in")
    func appliedStamps() throws {
        let driver = makeDriver(ksmps: 64)
        let seen = AppliedLog()
        driver.onApplied = { seen.add($0) }
        try driver.start()
        defer { driver.stop() }
        let producer = driver.makeProducer()
        let id = try #require(try producer.event([2, 0, 0.1, 0.1]))
        let marker = try driver.compileAndWait("instr 5\n out a(0.1)\nendin\n", source: "live")
        #expect(eventually(1) { seen.all.contains { $0.kind == .command && $0.id == id } })
        #expect(eventually(1) { seen.all.contains { $0.kind == .compileMerged && $0.id == marker } })
        let cycles = seen.all.map(\.cycle)
        #expect(cycles.allSatisfy { $0 >= 0 })
        #expect(driver.engine.instruments.defines(number: 5))
    }

    @Test("a broken live compile changes nothing and says where")
    func brokenLiveCompile() throws {
        let driver = makeDriver()
        try driver.start()
        defer { driver.stop() }
        #expect {
            _ = try driver.compileAndWait("instr 1\n a1 nosuch 3\n out a1\nendin\n", source: "live.orc")
        } throws: { error in
            guard case let EngineError.compile(failure) = error else { return false }
            return failure.lines == [2] && failure.description.hasPrefix("live.orc:2:")
        }
        #expect(driver.stats.silentCallbacks == 0)
    }

    @Test("the allocation counter sees allocations of the watched thread")
    func allocationCounterWorks() {
        podium_alloc_watch(UInt(pthread_self()))
        let array = [Int](repeating: 7, count: Int.random(in: 1000...2000))
        let counted = podium_alloc_count()
        podium_alloc_watch(0)
        #expect(counted >= 1)
        #expect(array.count >= 1000)
    }

    @Test("the audio thread allocates nothing across 1000 steady-state cycles")
    func noAllocations() throws {
        let driver = makeDriver(ksmps: 64)
        try driver.start()
        defer { driver.stop() }
        let producer = driver.makeProducer()
        try producer.set("freq", 330)
        try producer.event([1, 0, 60])
        // Warm up: the first note allocates its instance (Csound's own first-use allocation).
        #expect(eventually(2) { driver.engine.console.realtimeThread != 0 && driver.stats.cycles > 200 })
        Thread.sleep(forTimeInterval: 0.2)
        let rt = driver.engine.console.realtimeThread
        let before = driver.stats.cycles
        podium_alloc_watch(rt)
        // Steady state with traffic: channel sets every few ms.
        var v = 300.0
        while driver.stats.cycles < before + 1000 {
            v += 1
            try producer.set("freq", v)
            Thread.sleep(forTimeInterval: 0.005)
        }
        let allocations = podium_alloc_count()
        podium_alloc_watch(0)
        #expect(allocations == 0, "\(allocations) allocations on the audio thread")
        #expect(driver.stats.cycles >= before + 1000)
    }

    /// An orchestra that keeps the callback inside Csound for most of each period.
    static let busyOrchestra = """
    nchnls = 2
    0dbfs = 1
    instr 1 ; busy work in every k-cycle (p4 iterations), silent
      ki = 0
      kx = 0
      while ki < p4 do
        kx += sin(ki) * 1e-9
        ki += 1
      od
      outs a(kx), a(kx)
    endin
    """

    @Test("stopping while the callback is inside Csound: JACK2 cancels its thread asynchronously on deactivation, so the driver parks the callback first; 12 start/stop rounds with callbacks busy most of the period, each stop and the engine's destruction return")
    func stopWhileBusy() throws {
        let serverName = server.name
        for round in 0..<12 {
            let done = DispatchSemaphore(value: 0)
            let failure = Mutex<String?>(nil)
            let busy = Mutex(0.0)
            let thread = Thread {
                do {
                    let driver = JackDriver(source: .text(orchestra: JackSuites.JackDriverTests.busyOrchestra, score: nil, name: "busy.orc"),
                                            jack: JackOptions(serverName: serverName, connect: false, ksmps: 64))
                    try driver.start()
                    try driver.makeProducer().event([1, 0, 600, 20000])
                    _ = eventually(2) { driver.stats.cycles > 400 }
                    Thread.sleep(forTimeInterval: Double.random(in: 0...0.05))
                    let stats = driver.stats
                    busy.withLock { $0 = stats.p50 }
                    driver.stop()
                } catch {
                    failure.withLock { $0 = "\(error)" }
                }
                done.signal()  // the driver, its engine with it, is gone by now
            }
            thread.start()
            let returned = done.wait(timeout: .now() + 20) == .success
            #expect(returned, "round \(round): stop or the engine's destruction did not return in 20 s")
            guard returned else { return }
            #expect(failure.withLock { $0 } == nil, "round \(round): \(failure.withLock { $0 } ?? "")")
            if round == 0 { #expect(busy.withLock { $0 } > 0.3, "the callback's median is \(busy.withLock { $0 }) of the period: raise the orchestra's work") }
        }
    }

    @Test("a period change that ksmps still divides keeps the engine")
    func periodChangeKept() throws {
        let driver = makeDriver(ksmps: 64)
        try driver.start()
        defer { driver.stop() }
        let engineBefore = ObjectIdentifier(driver.engine)
        let other = try CaptureClient(server: server.name, channels: 1, seconds: 1, name: "resizer")
        #expect(jack_set_buffer_size(other.client, 128) == 0)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(ObjectIdentifier(driver.engine) == engineBefore)
        #expect(driver.stats.silentCallbacks == 0)
        #expect(jack_set_buffer_size(other.client, 256) == 0)
        Thread.sleep(forTimeInterval: 0.2)
    }

    @Test("a period ksmps no longer divides restarts the engine aligned, channels restored")
    func periodChangeRestarts() throws {
        let driver = makeDriver()  // ksmps = 256
        let notices = AppliedLog()
        driver.onNotice = { notices.note($0) }
        try driver.start()
        defer { driver.stop() }
        let producer = driver.makeProducer()
        try producer.set("freq", 523.25)
        #expect(eventually(1) { (try? driver.engine.control("freq")) == 523.25 })
        let other = try CaptureClient(server: server.name, channels: 1, seconds: 1, name: "resizer2")
        #expect(jack_set_buffer_size(other.client, 128) == 0)
        #expect(eventually(3) { driver.engine.ksmps == 128 })
        #expect(try driver.engine.control("freq") == 523.25)
        #expect(notices.notes.contains { $0.contains("restarting the engine at ksmps 128") })
        let cyclesNow = driver.stats.cycles
        #expect(eventually(1) { driver.stats.cycles > cyclesNow + 50 })
        #expect(jack_set_buffer_size(other.client, 256) == 0)
        #expect(eventually(3) { driver.engine.ksmps == 128 && driver.stats.lastPeriodIsAligned })
    }
}
}

/// Kills and restarts the server: its own suite, since it takes the server down.
extension JackSuites {
@Suite("JACK server going away", .serialized)
final class JackReconnectTests {
    let server: TestJackServer
    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    @Test("the server killed and restarted: podium reconnects, keeps its state and plays again")
    func reconnects() throws {
        let driver = JackDriver(source: .text(orchestra: JackSuites.JackDriverTests.orchestra, score: nil, name: "test.orc"),
                                jack: JackOptions(serverName: server.name, connect: false))
        driver.jackOptionsReconnectInterval = 0.1
        let notices = AppliedLog()
        driver.onNotice = { notices.note($0) }
        try driver.start()
        defer { driver.stop() }
        let producer = driver.makeProducer()
        try producer.set("freq", 330)
        try producer.event([1, 0, 600])
        let engineBefore = ObjectIdentifier(driver.engine)

        server.kill()
        #expect(eventually(3) { !driver.isConnected })
        #expect(notices.notes.contains { $0.contains("JACK server went away") })
        try server.start()
        #expect(eventually(5) { driver.isConnected })
        #expect(notices.notes.contains { $0.hasPrefix("reconnected to JACK") })
        #expect(ObjectIdentifier(driver.engine) == engineBefore, "same sr and period: the engine (and its notes) is kept")

        let capture = try CaptureClient(server: server.name, channels: 1, seconds: 2)
        try capture.connect(from: "podium:out_1", channel: 0)
        Thread.sleep(forTimeInterval: 0.1)
        capture.record(seconds: 0.8)
        let f = estimatedFrequency(capture.samples(0), sampleRate: 48000)
        #expect(abs(f - 330) < 5, "measured \(f) Hz after reconnecting")
    }
}

}

/// Collects what the supervisor thread reports.
final class AppliedLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Applied] = []
    private var texts: [String] = []
    func add(_ a: Applied) { lock.withLock { items.append(a) } }
    func note(_ s: String) { lock.withLock { texts.append(s) } }
    var all: [Applied] { lock.withLock { items } }
    var notes: [String] { lock.withLock { texts } }
}

final class PostResult: @unchecked Sendable {
    var lastFrameAtPost: Int64 = 0
    var id: UInt64?
    let done = DispatchSemaphore(value: 0)
}

/// One producer per test thread that posts (the ring is single-producer).
enum PostBox {
    nonisolated(unsafe) static var producers: [ObjectIdentifier: CommandProducer] = [:]
    static let lock = NSLock()
    static func producer(for driver: JackDriver) -> CommandProducer {
        lock.withLock {
            if let p = producers[ObjectIdentifier(driver)] { return p }
            let p = driver.makeProducer()
            producers[ObjectIdentifier(driver)] = p
            return p
        }
    }
}
