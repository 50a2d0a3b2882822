import Foundation
import PodiumHost
import PodiumPatterns
import PodiumSurfaces
import Synchronization

/// The SuperDirt surface (`podium play --dirt`): TidalCycles, started as its users start it
/// (`startTidal superdirtTarget …`), plays Podium as it plays SuperDirt.
///
///   - `/dirt/handshake` is answered as SuperDirt answers it (`/dirt/handshake/reply`, to the
///     sender: server host and port, control bus indices 0…127).
///   - `/dirt/play` key/value pairs become a note (`DirtPlayer`): in a bundle on the timetag's
///     frame (`TimetagClock`, as OSC bundles), late ones at once and counted; without a bundle at once.
///   - Podium's clock follows Tidal's (`DirtClockFollower`) unless Link or JACK transport lead it.
///
/// Its own thread and its own command ring: a flood from Tidal never waits for, or stalls,
/// another surface. Whom it trusts: loopback, and the `--dirt-allow` ranges when bound to
/// another address (it takes no orchestra code, so nothing more is asked).
public final class DirtSurface: @unchecked Sendable {
    public static let defaultPort: UInt16 = 57120
    public let options: OSCOptions
    public let followsClock: Bool
    let driver: JackDriver
    let socket: UDPSocket
    let parser: LoParser
    public let player: DirtPlayer
    let producer: CommandProducer
    let running = Atomic<Bool>(false)
    let done = DispatchSemaphore(value: 0)
    var clock = TimetagClock()
    var follower = DirtClockFollower()
    var lastNotice: [String: ContinuousClock.Instant] = [:]
    /// Lines for the console (each kind at most once a second).
    public var onNotice: (@Sendable (String) -> Void)?

    /// What the surface counted (the player's counts are `player.stats`).
    public struct Stats: Sendable, Equatable {
        public var datagrams = 0, messages = 0, handshakes = 0, events = 0
        /// Bundles whose timetag had passed (played at once); messages without a bundle.
        public var late = 0, immediate = 0
        /// Of the late bundles, those whose timetag had passed already when the kernel received
        /// them: the sender's lateness (Tidal's scheduler, or its latency too small), not Podium's.
        public var lateOnArrival = 0
        public var malformed = 0, refusedSources = 0, unknownAddresses = 0, badArguments = 0
        /// Tempo or phase changes of Tidal's that Podium's clock followed.
        public var clockChanges = 0
        /// CPU time the surface's thread has used (receiving, parsing, mapping, posting), seconds.
        public var cpuSeconds = 0.0
    }
    let statsLock = NSLock()
    var local = Stats()
    var published = Stats()
    public var stats: Stats { statsLock.withLock { published } }
    public var port: UInt16 { socket.port }

    // Thread: NRT (owner)
    public init(driver: JackDriver, options: OSCOptions, samples: SampleStore?, followClock: Bool) throws {
        self.driver = driver
        self.options = options
        followsClock = followClock
        socket = try UDPSocket(bind: options.bind, port: options.port)
        socket.timesEvery = true
        parser = try LoParser()
        producer = driver.makeProducer()
        player = DirtPlayer(driver: driver, producer: producer, samples: samples)
        // Tidal sends only when an event is due (a beat apart, or a cycle): its timetags stay on
        // one anchor while the clocks agree, so that onsets keep their spacing to the frame.
        clock.idle = .seconds(60)
    }

    public func start() {
        running.store(true, ordering: .releasing)
        let t = Thread { [self] in loop() }
        t.name = "podium-dirt"
        t.start()
    }

    public func stop() {
        if running.exchange(false, ordering: .acquiringAndReleasing) { done.wait() }
    }

    public var summary: String {
        let s = stats, p = player.stats
        return "datagrams \(s.datagrams), events \(s.events) (instrument notes \(p.instrumentNotes), sample notes \(p.sampleNotes)), handshakes \(s.handshakes), "
            + "late \(s.late) (on arrival \(s.lateOnArrival)), without a bundle \(s.immediate), unknown sounds \(p.unknownSounds), unknown controls \(p.unknownControls), "
            + "waited for a sample \(p.waitedForSample) (late \(p.lateForSample)), ring full \(p.ringFull), refused \(p.refused), "
            + "malformed \(s.malformed), refused sources \(s.refusedSources), unknown addresses \(s.unknownAddresses), clock changes followed \(s.clockChanges)"
    }

    // Thread: NRT (dirt)
    func loop() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536 + 16, alignment: 8)
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        defer { buffer.deallocate(); done.signal() }
        let received = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<65536])
        while running.load(ordering: .acquiring) {
            player.playWaiting()
            guard let got = socket.receive(into: received, timeout: 10) else { publish(); continue }
            receive(buffer, count: got.count, from: got.source, arrival: got.arrival)
            if local.datagrams & 255 == 0 { publish() }
        }
        publish()
    }

    func publish() {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        local.cpuSeconds = Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
        statsLock.withLock { published = local }
    }

    // Thread: NRT (dirt)
    func receive(_ buffer: UnsafeMutableRawBufferPointer, count n: Int, from source: Endpoint, arrival: Int64 = 0) {
        // liblo reads a few bytes past a truncated string: zeros, not the last datagram's bytes.
        buffer[n..<(n + 16)].initializeMemory(as: UInt8.self, repeating: 0)
        local.datagrams += 1
        guard options.allows(source) else {
            local.refusedSources += 1
            return notice("source", "SuperDirt messages from \(source.host) refused (not loopback, not in --dirt-allow)")
        }
        guard n > 0, let messages = parser.parse(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<n])) else {
            local.malformed += 1
            return notice("malformed", "a malformed OSC datagram from \(source) (\(n) bytes) on the SuperDirt port")
        }
        for m in messages {
            local.messages += 1
            switch m.address {
            case "/dirt/play", "/play2", "/play": play(m, source, arrival: arrival)
            case "/dirt/handshake":
                local.handshakes += 1
                publish()
                let bytes = LoParser.serialize("/dirt/handshake/reply", DirtSurface.handshakeReply)
                bytes.withUnsafeBytes { socket.send($0, to: source) }
            default:
                local.unknownAddresses += 1
                notice("address " + m.address, "\(m.address) from \(source) is not a SuperDirt message Podium takes (it takes /dirt/play and /dirt/handshake)")
            }
        }
    }

    /// SuperDirt's reply: its server's address and the control buses Tidal may set (`^` controls).
    static let handshakeReply: [OSCValue] = [.string("&serverHostname"), .string("127.0.0.1"), .string("&serverPort"), .int(57110),
                                             .string("&controlBusIndices")] + (0..<128).map { .int(Int64($0)) }

    // Thread: NRT (dirt)
    /// `arrival`: when the kernel received the datagram (CLOCK_REALTIME ns; 0: not known).
    func play(_ m: OSCMessage, _ source: Endpoint, arrival: Int64 = 0) {
        let controls: ControlMap
        switch DirtSurface.controls(m.arguments) {
        case let .success(c): controls = c
        case let .failure(problem):
            local.badArguments += 1
            return notice("arguments", "\(m.address) from \(source): \(problem.text)")
        }
        local.events += 1
        var frame: Int64 = 0
        if let t = m.timetag {
            let ahead = t - LoParser.ntpNow
            do { try InputCheck.ahead(ahead, "the bundle's timetag") } catch {
                local.badArguments += 1
                return notice("timetag", "\(m.address) from \(source): \(error.description)")
            }
            if ahead < 0 {
                local.late += 1
                // NTP counts from 1900, CLOCK_REALTIME from 1970.
                let arrived = Double(arrival) / 1e9 + 2_208_988_800
                if arrival > 0 && arrived > t {
                    local.lateOnArrival += 1
                    notice("late", String(format: "a SuperDirt bundle arrived %.3f s after its time: played at once (the sender was late; Tidal's latency, oLatency, may be too small)", arrived - t))
                } else {
                    notice("late in Podium", String(format: "a SuperDirt bundle waited %.3f s past its time for Podium's SuperDirt thread: played at once", -ahead))
                }
            } else {
                frame = clock.frame(ntp: t, jack: driver) ?? 0
                if followsClock, frame > 0 { follow(controls, frame: frame) }
            }
        } else {
            local.immediate += 1
        }
        player.play(controls, frame: frame)
    }

    /// Podium's tempo and bar follow Tidal's: a cycle is a bar (as for patterns).
    // Thread: NRT (dirt)
    func follow(_ c: ControlMap, frame: Int64) {
        // Only a slot's events (`_id_`) carry Tidal's timeline; `once` is shifted by its latency.
        guard c["_id_"] != nil, let cps = c["cps"]?.number, let cycle = c["cycle"]?.number, cps > 0, cps.isFinite, cycle.isFinite else { return }
        let sampleRate = driver.engine.sampleRate
        // A nudge is seconds; one that is not a number, or past a minute either way, is none.
        let nudge = c["nudge"]?.number ?? 0
        let onset = frame - Int64(Int(roundingClamped: nudge.isFinite && abs(nudge) <= 60 ? nudge * sampleRate : 0))
        guard follower.observe(cps: cps, cycle: cycle, frame: onset, sampleRate: sampleRate) else { return }
        let quantum = driver.clock.quantum
        do {
            if try producer.post(.clock(tempo: cps * 60 * quantum, locate: cycle * quantum, frame: onset)) != nil { local.clockChanges += 1 }
        } catch {
            notice("tempo", "Tidal's tempo (cps \(cps)) was not followed: \(error.description)")
        }
    }

    /// A message's arguments as controls: key (a string), value (a number or a string), ….
    static func controls(_ arguments: [OSCValue]) -> Result<ControlMap, DirtProblem> {
        guard arguments.count % 2 == 0 else { return .failure(DirtProblem(text: "expected key/value pairs (an odd number of arguments came)")) }
        var c: ControlMap = [:]
        var i = 0
        while i < arguments.count {
            guard let key = arguments[i].string, !key.isEmpty else {
                return .failure(DirtProblem(text: "argument \(i + 1) should be a control's name (a string)"))
            }
            switch arguments[i + 1] {
            case let .string(s): c[key] = .string(s)
            case let .int(v): c[key] = .int(Int(v))
            case let .float(v): c[key] = .double(v)
            case let .bool(b): c[key] = .int(b ? 1 : 0)
            case .other: return .failure(DirtProblem(text: "the value of `\(key)` is of a type Podium does not read"))
            }
            i += 2
        }
        return .success(c)
    }

    /// At most one console line per kind a second.
    func notice(_ kind: String, _ text: String) {
        let now = ContinuousClock.now
        if let last = lastNotice[kind], now - last < .seconds(1) { return }
        if lastNotice.count > 256 { lastNotice.removeAll() }
        lastNotice[kind] = now
        onNotice?(text)
    }
}

struct DirtProblem: Error { var text: String }
