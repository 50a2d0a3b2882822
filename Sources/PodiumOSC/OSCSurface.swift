import Foundation
import PodiumEngine
import PodiumHost
import PodiumRealtime
import PodiumSurfaces
import Synchronization

/// The OSC control surface: its own thread reads datagrams from a socket Podium owns, liblo
/// parses them, and each message becomes `Command`s on this surface's ring (or a compile, which
/// goes to the compile queue). Replies go back to the sender from the listening port. The
/// thread's work runs under the surface's `SurfaceLane`; a sender's messages that come while
/// its compile waits run after its answer (`/podium/status` answers at once), other senders'
/// at once.
public final class OSCSurface: @unchecked Sendable {
    public let options: OSCOptions
    let driver: JackDriver
    let lane: SurfaceLane
    let socket: UDPSocket
    let parser: LoParser
    /// A note's numbers, read in place from the receive buffer (`NumericMessage`).
    let numbers = UnsafeMutableBufferPointer<Double>.allocate(capacity: Command.maxPFields)
    let producer: CommandProducer
    let score: ScoreInput
    /// The orchestra file `/podium/reload` recompiles.
    let orchestraFile: EngineSource?
    let running = Atomic<Bool>(false)
    let done = DispatchSemaphore(value: 0)
    /// Guards what the OSC thread shares with other threads: the published statistics, the
    /// feedback subscribers and the last notice per address.
    let sharedLock = NSLock()
    var _stats = OSCStats()
    var subscribers: Set<Endpoint> = []
    var lastNotice: [String: (ContinuousClock.Instant, Int)] = [:]
    var clock = TimetagClock()
    /// Feedback: last values sent for output channels, pending echoes of input changes.
    var lastOutputs: [String: Double] = [:]
    var pendingEchoes: [String: [OSCValue]] = [:]
    /// `/podium/error` replies, limited per sender and address.
    var errors = RepeatedErrors()
    var nextFeedback = ContinuousClock.now
    /// Output-channel feedback rate cap (CsoundUI's label binding), per second.
    public var feedbackRate = 30.0
    /// Lines for the console (rate-limited per kind), on the OSC thread.
    public var onNotice: (@Sendable (String) -> Void)?
    /// Session recording for `/podium/record/start|stop` (nil: answered with a failure).
    public var recording: RecordingControl?
    /// Presets for `/podium/preset/save|load ,s NAME` (nil: answered with a failure).
    public var presets: Presets?
    /// The orchestra file's hot reload: `/podium/reload` compiles what changed in the file,
    /// nothing when it is unchanged (as a save does). Without it, the whole text is compiled.
    public var reloader: HotReload?
    /// Live loops (`/podium/loop`), when the performance runs them.
    public var loops: LiveLoops?

    public var port: UInt16 { socket.port }
    /// As of the last burst; the kernel's drops as of now.
    public var stats: OSCStats {
        var s = sharedLock.withLock { _stats }
        s.kernelDropped = socket.kernelDrops
        return s
    }

    /// The orchestra's OSC map (nil: TouchOSC defaults only).
    let map: OSCMap?
    /// Whether notes are read in place (`NumericMessage`): unless the map binds a note's address.
    let readsNotesInPlace: Bool

    public init(driver: JackDriver, options: OSCOptions = OSCOptions(), reloadSource: EngineSource? = nil, map: OSCMap? = nil) throws {
        if let map {
            let missing = map.undeclared(in: driver.engine)
            if !missing.isEmpty {
                throw OSCMap.LoadError(path: "OSC map", message: "channels the orchestra does not declare: \(missing.joined(separator: ", ")) (declare them with chn_k)")
            }
        }
        self.map = map
        readsNotesInPlace = NumericMessage.addresses.allSatisfy { map?.control(for: $0) == nil }
        self.options = options
        self.driver = driver
        socket = try UDPSocket(bind: options.bind, port: options.port)
        lane = SurfaceLane(driver: driver)
        parser = try LoParser()
        producer = driver.makeProducer()
        score = ScoreInput(driver: driver, producer: producer)
        orchestraFile = reloadSource
        // The map's MIDI controllers, and the output channels feedback reads after each
        // k-cycle, go through the driver's bindings.
        let outputs = driver.engine.channels().filter(\.isPerformerOutput)
            .map { Binding(source: .output, channel: $0.name) }
        try driver.setBindings(driver.bindings.filter { $0.source != .output } + (map?.midiBindings ?? []) + outputs)
        // Declared defaults go in before the first controller moves.
        for c in map?.controls.values ?? [:].values {
            if let d = c.default { for ch in c.targetChannels { _ = try? producer.set(ch, d) } }
        }
    }

    deinit { numbers.deallocate() }

    public func start() {
        running.store(true, ordering: .releasing)
        let t = Thread { [self] in loop() }
        t.name = "podium-osc"
        t.start()
    }

    public func stop() {
        if running.exchange(false, ordering: .acquiringAndReleasing) { done.wait() }
    }

    /// Counts kept by the OSC thread alone, published to `stats` when the socket runs dry
    /// (one lock per burst, not per datagram) and before each reply.
    var local = OSCStats()
    func count(_ body: (inout OSCStats) -> Void) { body(&local) }
    func publish() { sharedLock.withLock { _stats = local } }

    // Thread: NRT (OSC)
    func loop() {
        // Zeroed, and zeroed again after each datagram: liblo 0.31 reads a few bytes past the
        // end of a truncated blob or string (valgrind), which then read zeros, not stale bytes.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536 + 16, alignment: 8)
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        let received = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<65536])
        defer { buffer.deallocate(); done.signal() }
        broadcast("/podium/started", [])
        defer { broadcast("/podium/stopped", []) }
        while running.load(ordering: .acquiring) {
            lane.exclusive {
                feedbackIfDue()
                repeatedErrorsIfDue()
            }
            guard let got = socket.receive(into: received, timeout: 10) else { lane.exclusive { publish() }; continue }
            let stamps = DatagramStamps(arrival: got.arrival)
            lane.exclusive { receive(buffer, count: got.count, from: got.source, stamps: stamps) }
        }
    }

    /// One datagram: counted, its sender checked, parsed, each message carried out in the
    /// sender's order.
    // Thread: NRT (OSC, under the lane)
    /// `stamps` time the datagram's way for the statistics.
    func receive(_ buffer: UnsafeMutableRawBufferPointer, count n: Int, from source: Endpoint, stamps: DatagramStamps) {
        buffer[n..<(n + 16)].initializeMemory(as: UInt8.self, repeating: 0)
        if local.datagrams & 1023 == 0 { publish() }
        count { $0.datagrams += 1 }
        guard options.allows(source) else {
            count { $0.refusedSources += 1 }
            notice("source", "OSC from \(source.host) refused (not loopback, not in --osc-allow)")
            return
        }
        // A note (numbers only, no bundle) is read where it lies and goes to its route at once
        // (unless the orchestra's map binds the note's address: then liblo's path, as any mapped one).
        if n > 0, readsNotesInPlace, let (address, values) = NumericMessage.read(UnsafeRawBufferPointer(rebasing: buffer[0..<n]), into: numbers),
           OSCSurface.isNote(count: values) {
            countParsed(messages: 1)
            count { $0.notesInPlace += 1 }
            let parsed = stamps.now()
            defer { timed(stamps, parsed: parsed) }
            let address = NumericMessage.addresses[address]
            // No compile under way: played from the receive buffer (nothing copied, no closure kept).
            if lane.runIfIdle({ post(instrument: .number(numbers[0]), fields: UnsafeBufferPointer(rebasing: numbers[1..<values]), address: address, source, 0) }) { return }
            let instrument = numbers[0], fields = Array(numbers[1..<values])
            carryOut(address, from: source) { [self] in post(instrument: .number(instrument), fields: fields, address: address, source, 0) }
            return
        }
        guard n > 0, let messages = parser.parse(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<n])) else {
            count { $0.malformed += 1 }
            notice("malformed", "malformed OSC datagram from \(source) (\(n) bytes)")
            return
        }
        countParsed(messages: messages.count)
        let parsed = stamps.now()
        defer { timed(stamps, parsed: parsed) }
        for m in messages {
            if OSCSurface.answeredAtOnce.contains(m.address) { handle(m, from: source); continue }
            carryOut(m.address, from: source) { [self] in handle(m, from: source) }
        }
    }

    /// A message's action, now or — while its sender's compile waits — after it.
    // Thread: NRT (OSC, under the lane)
    func carryOut(_ address: String, from source: Endpoint, _ action: @escaping @Sendable () -> Void) {
        if !lane.run(key: source.description, action) {
            count { $0.behindCompile += 1 }
            replyError(source, address, "\(SurfaceLane.capacity) messages from you already wait for your compile; \(address) dropped")
        }
    }

    /// Messages that do not wait for their sender's compile: they change nothing.
    static let answeredAtOnce = ["/podium/status", "/podium/subscribe", "/podium/unsubscribe"]

    // MARK: routing — Thread: NRT (OSC)

    func handle(_ m: OSCMessage, from source: Endpoint) {
        var frame: Int64 = 0
        if let t = m.timetag {
            let ahead = t - LoParser.ntpNow
            do { try InputCheck.ahead(ahead, "the bundle's timetag") } catch {
                return bad(m, source, error.description)
            }
            if ahead < 0 {
                count { $0.lateBundles += 1 }
                notice("late", String(format: "late %.3f s: %@ from %@ runs now", -ahead, m.address, source.description))
                reply(to: source, "/podium/late", [.string(m.address), .float(-ahead)])
            } else {
                frame = clock.frame(ntp: t, jack: driver) ?? 0
            }
        }
        let a = m.address
        if let (control, cell) = map?.control(for: a) { return mapped(control, cell: cell, m, source, frame) }
        // The commonest addresses (notes, a fader's channel) without splitting the address.
        if a == "/podium/event" || a == "/csound/event" { return event(m, source, frame) }
        if a.hasPrefix("/podium/chn/") {
            let name = a.utf8.dropFirst(12)
            if !name.isEmpty && !name.contains(UInt8(ascii: "/")) { return setChannel(String(Substring(name)), m, source, frame) }
        }
        let parts = a.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        switch (parts.first, parts.count) {
        case ("podium", _) where parts.count >= 2:
            podium(Array(parts.dropFirst()), m, source, frame)
        case ("csound", _) where parts.count >= 2:
            switch parts[1] {
            case "channel" where parts.count >= 3: setChannel(parts[2...].joined(separator: "/"), m, source, frame)
            case "event": event(m, source, frame)
            case "compile": compile(m, source)
            default: unknown(m, source)
            }
        case ("ctrl", 1):
            ctrl(m, source)
        case ("accxyz", 1):
            setChannels(["accelerometerX", "accelerometerY", "accelerometerZ"], m, source, frame)
        case (_, 2):
            // TouchOSC without a map: /<page>/<control> sets the channel named <control>.
            if m.arguments.count >= 2 {
                setChannels(m.arguments.indices.map { "\(parts[1])_\(["x", "y", "z", "w"][min($0, 3)])" }, m, source, frame)
            } else {
                setChannel(parts[1], m, source, frame)
            }
        case (_, 4):
            // /<page>/<control>/<row>/<col> (multitoggle): the channel <control>_<row>_<col>.
            setChannel("\(parts[1])_\(parts[2])_\(parts[3])", m, source, frame)
        default:
            unknown(m, source)
        }
    }

    func podium(_ parts: [String], _ m: OSCMessage, _ source: Endpoint, _ frame: Int64) {
        switch parts[0] {
        case "event": event(m, source, frame)
        case "score": score(m, source, frame)
        case "chn" where parts.count >= 2: setChannel(parts[1...].joined(separator: "/"), m, source, frame)
        case "orc": compile(m, source)
        case "reload": reload(source)
        case "status": status(source)
        case "record": record(parts.count > 1 ? parts[1] : "", source)
        case "preset": preset(parts.count > 1 ? parts[1] : "", m, source)
        case "tempo": tempo(m, source)
        case "link" where parts.count == 2 && parts[1] == "play": linkPlay(m, source)
        case "link": link(m, source)
        case "quant": quant(m, source)
        case "hush":
            do { reply(to: source, "/podium/done", [.string(try Hush.perform(producer: producer, loops: loops))]) } catch {
                reply(to: source, "/podium/fail", [.string("\(error)")])
            }
        case "loop": loop(parts.count > 1 ? parts[1] : "", m, source)
        case "pattern": pattern(m, source)
        case "samples": samples(m, source)
        case "subscribe":
            sharedLock.withLock { _ = subscribers.insert(source) }
            reply(to: source, "/podium/started", [])  // the performance is running (CsoundObj's listener)
        case "unsubscribe": sharedLock.withLock { _ = subscribers.remove(source) }
        default: unknown(m, source)
        }
    }

    func unknown(_ m: OSCMessage, _ source: Endpoint) {
        count { $0.unknownAddresses += 1 }
        notice("address", "unknown OSC address \(m.address) from \(source)")
        replyError(source, m.address, "unknown address \(m.address)")
    }

    func bad(_ m: OSCMessage, _ source: Endpoint, _ why: String) { bad(address: m.address, source, why) }

    func bad(address: String, _ source: Endpoint, _ why: String) {
        count { $0.badArguments += 1 }
        notice("arguments", "\(address) from \(source): \(why)")
        replyError(source, address, "\(address): \(why)")
    }

    /// `/podium/event ,i|s f…`: instrument (number or name), start, duration, p4…
    func event(_ m: OSCMessage, _ source: Endpoint, _ frame: Int64) {
        guard let first = m.arguments.first else { return bad(m, source, "expected instrument, start, duration, p4…") }
        if let text = first.string, m.arguments.count == 1 { return scoreText(text, m, source, frame) }  // Csound 7: /csound/event ,s "i1 0 1"
        let instrument: ScoreLine.Instrument
        if let n = first.number { instrument = .number(n) } else if let s = first.string { instrument = .name(s) } else {
            return bad(m, source, "the instrument must be a number or a name")
        }
        let rest = m.arguments.dropFirst().compactMap(\.number)
        guard rest.count == m.arguments.count - 1, OSCSurface.isNote(count: rest.count + 1) else {
            return bad(m, source, "expected numbers after the instrument: start, duration, p4… (at most \(Command.maxPFields - 1))")
        }
        post(instrument: instrument, fields: Array(rest), address: m.address, source, frame)
    }

    /// A note's count of numbers, the instrument's included: instrument, start and duration at
    /// least, at most `Command.maxPFields` (both routes to `post` ask this).
    static func isNote(count: Int) -> Bool { count >= 3 && count <= Command.maxPFields }

    func post(instrument: ScoreLine.Instrument, fields: [Double], address: String, _ source: Endpoint, _ frame: Int64) {
        fields.withUnsafeBufferPointer { post(instrument: instrument, fields: $0, address: address, source, frame) }
    }

    /// A note to the ring, or its error to the sender.
    func post(instrument: ScoreLine.Instrument, fields: UnsafeBufferPointer<Double>, address: String, _ source: Endpoint, _ frame: Int64) {
        do { try score.play(instrument: instrument, fields: fields, frame: frame, quantize: quantize(frame)) } catch {
            switch error.kind {
            case .unknownTarget:
                count { $0.unknownTargets += 1 }
                replyError(source, address, error.description)
            case .ringFull:
                count { $0.ringFull += 1 }
                replyError(source, address, error.description)
            case .invalid:
                bad(address: address, source, error.description)
            }
        }
    }

    /// `/podium/score ,s`: score lines; plain `i` lines become frame-exact events.
    func score(_ m: OSCMessage, _ source: Endpoint, _ frame: Int64) {
        guard let text = m.arguments.first?.string else { return bad(m, source, "expected a string of score") }
        scoreText(text, m, source, frame)
    }

    func scoreText(_ text: String, _ m: OSCMessage, _ source: Endpoint, _ frame: Int64) {
        do {
            try score.play(prefixed: text, frame: frame, otherwise: quantize(frame))
        } catch let error as InputError { bad(m, source, error.description) }
        catch { bad(m, source, "\(error)") }
    }

    func setChannel(_ name: String, _ m: OSCMessage, _ source: Endpoint, _ frame: Int64) {
        setChannels([name], m, source, frame)
    }

    /// Sets a channel per argument; one reply for what failed, one echo for what was set
    /// (every value: an XY pad follows only when both come back).
    func setChannels(_ names: [String], _ m: OSCMessage, _ source: Endpoint, _ frame: Int64) {
        guard !m.arguments.isEmpty else { return bad(m, source, "expected a value") }
        var problems: [String] = []
        var echo: [OSCValue] = []
        // Each value is also a controller of the patterns' (`cF 0 "fader1"`).
        if let controllers = loops?.patterns.controllers {
            for (name, value) in zip(names, m.arguments) { if let v = OSCSurface.controllerValue(value) { controllers.set(name, v) } }
        }
        for (name, value) in zip(names, m.arguments) {
            if let problem = set(name, value, frame) { problems.append(problem) } else if let v = value.number { echo.append(.float(v)) }
        }
        if echo.count == min(names.count, m.arguments.count) {
            // Controllers follow: the values go back to subscribers at the address they came on.
            sharedLock.withLock { pendingEchoes[m.address] = echo }
        }
        if !problems.isEmpty {
            notice("channel", "\(m.address) from \(source): \(problems.joined(separator: "; "))")
            replyError(source, m.address, problems.joined(separator: "; "))
        }
    }

    /// One channel from one OSC value: a number or a string. Returns the problem, nil when posted.
    func set(_ name: String, _ value: OSCValue, _ frame: Int64) -> String? {
        do {
            if let text = value.string {
                try producer.setString(name, text, frame: frame)
                return nil
            }
            guard let v = value.number else {
                count { $0.badArguments += 1 }
                return "\(name): expected a number or a string"
            }
            if try producer.set(name, v, frame: frame) == nil {
                count { $0.ringFull += 1 }
                return "command ring full: \(name) not set"
            }
            return nil
        } catch let e as EngineError {
            count { $0.unknownTargets += 1 }
            if case .wrongKind(_, isControl: true) = e, let text = value.string { return "\(name) is a control channel: \"\(text)\" is not a number" }
            return "\(e)"
        } catch {
            count { $0.unknownTargets += 1 }
            return "\(error)"
        }
    }

    /// `/podium/orc ,s`, `/csound/compile ,s`: loopback only unless --allow-remote-code.
    func compile(_ m: OSCMessage, _ source: Endpoint) {
        guard let text = m.arguments.first?.string else { return bad(m, source, "expected orchestra code as a string") }
        guard options.acceptsCode(from: source) else {
            count { $0.refusedCode += 1 }
            notice("code", "orchestra code from \(source.host) refused: accepted from loopback only (--allow-remote-code)")
            return reply(to: source, "/podium/fail", [.string("orchestra code is accepted from loopback only (start podium with --allow-remote-code)")])
        }
        compileText(text, source: "osc:\(source)", replyTo: source)
    }

    /// To the compile queue: `/podium/done` or `/podium/fail` (the reason) to the sender and the
    /// subscribers once it merged or was refused; the sender's next messages wait for it.
    // Thread: NRT (OSC, under the lane)
    func compileText(_ text: String, source name: String, replyTo: Endpoint) {
        lane.compile(text, source: name, key: replyTo.description) { [self] result in
            let targets = sharedLock.withLock { subscribers }.union([replyTo])
            switch result {
            case .success: send("/podium/done", [], to: targets)
            case let .failure(error): send("/podium/fail", [.string("\(error)")], to: targets)
            }
        }
    }

    func send(_ address: String, _ arguments: [OSCValue], to targets: Set<Endpoint>) {
        let bytes = LoParser.serialize(address, arguments)
        bytes.withUnsafeBytes { b in for t in targets { socket.send(b, to: t) } }
    }

    /// The counts are published first: a client that has a reply also sees it counted.
    func reply(to endpoint: Endpoint, _ address: String, _ arguments: [OSCValue]) {
        publish()
        send(address, arguments, to: [endpoint])
    }

    /// `/podium/error ,s` to the sender: the first at once, repeats of it summarized once a second.
    func replyError(_ target: Endpoint, _ address: String, _ text: String) {
        if let now = errors.admit(text, address: address, target: target, now: .now) { reply(to: target, "/podium/error", [.string(now)]) }
    }

    /// Sends the summaries of errors that were counted rather than sent.
    func repeatedErrorsIfDue() {
        guard !errors.entries.isEmpty else { return }
        for (target, text) in errors.due(now: .now) { reply(to: target, "/podium/error", [.string(text)]) }
    }

    /// At most one console line per kind per second; the rest are counted into the next one.
    func notice(_ kind: String, _ text: String) {
        let now = ContinuousClock.now
        if let (last, suppressed) = lastNotice[kind], now - last < .seconds(1) {
            lastNotice[kind] = (last, suppressed + 1)
            return
        }
        let suppressed = lastNotice[kind]?.1 ?? 0
        lastNotice[kind] = (now, 0)
        onNotice?(suppressed > 0 ? "\(text) (and \(suppressed) more like it)" : text)
    }
}
