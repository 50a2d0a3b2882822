import Foundation
import PodiumEngine
import PodiumHost
import PodiumSurfaces
import Synchronization

/// The csound `--port` UDP text protocol (Top/server.c), so editor plugins made for
/// `csound --port` work unchanged:
///
///     orchestra code          compile (or `{{` … `}}` across packets)
///     &i1 0 1 …               score line(s)
///     $…                      score (read by Podium, as `&`)
///     d1 $ s "bd*2" (Tidal)   a pattern (`hush`, `setcps …`, `d1 silence` too)
///     @chan value             set a control channel
///     %chan string            set a string channel
///     :@chan host port        reply `chan::value` over UDP (`:%chan` for strings)
///     ##close##               end the performance
///
/// Same rules as OSC: loopback only unless allowed, code from loopback only unless
/// --allow-remote-code. Its own thread; one command producer.
public final class CsoundTextPort: @unchecked Sendable {
    let driver: JackDriver
    let socket: UDPSocket
    /// Each sender's order around its compiles (a compile's answer comes on the compile thread).
    let lane: SurfaceLane
    let producer: CommandProducer
    let score: ScoreInput
    let options: OSCOptions
    private let running = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    private var pendingCode: String?
    private let sharedLock = NSLock()
    private var _counts = (packets: 0, refused: 0, errors: 0)
    /// Live loops and patterns: a packet in Tidal's words (`d1 $ s "bd*2"`, `hush`) plays.
    public var loops: LiveLoops?
    /// `##close##` arrived.
    public var onClose: (@Sendable () -> Void)?
    /// Errors and refusals, for the console.
    public var onNotice: (@Sendable (String) -> Void)?

    public var port: UInt16 { socket.port }
    public var packets: Int { sharedLock.withLock { _counts.packets } }
    public var errors: Int { sharedLock.withLock { _counts.errors } }

    /// `options.port` is the text port here; bind/allow/remote-code rules as for OSC.
    public init(driver: JackDriver, options: OSCOptions) throws {
        self.driver = driver
        self.options = options
        socket = try UDPSocket(bind: options.bind, port: options.port)
        lane = SurfaceLane(driver: driver)
        producer = driver.makeProducer()
        score = ScoreInput(driver: driver, producer: producer)
    }

    public func start() {
        running.store(true, ordering: .releasing)
        let t = Thread { [self] in loop() }
        t.name = "podium-csound-port"
        t.start()
    }

    public func stop() {
        if running.exchange(false, ordering: .acquiringAndReleasing) { done.wait() }
    }

    // Thread: NRT (text port)
    private func loop() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 8)
        defer { buffer.deallocate(); done.signal() }
        while running.load(ordering: .acquiring) {
            guard let got = socket.receive(into: buffer, timeout: 50) else { continue }
            let n = got.count, source = got.source
            sharedLock.withLock { _counts.packets += 1 }
            guard options.allows(source) else {
                sharedLock.withLock { _counts.refused += 1 }
                continue
            }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: buffer[0..<n]), as: UTF8.self)
            handle(text, from: source)
        }
    }

    /// One packet: code across packets is gathered here; what it asks for is carried out in the
    /// sender's order (after its compiles), channel reads at once.
    // Thread: NRT (text port)
    func handle(_ packet: String, from source: Endpoint) {
        let text = packet.trimmingCharacters(in: .whitespacesAndNewlines)
        if let gathered = pendingCode {
            if let end = packet.range(of: "}}") {
                let code = gathered + String(packet[..<end.lowerBound])
                pendingCode = nil
                inOrder(source) { $0.compile(code, source) }
            } else {
                pendingCode = gathered + packet
            }
            return
        }
        if text.hasPrefix("{{") {
            let body = String(packet[packet.range(of: "{{")!.upperBound...])
            if let end = body.range(of: "}}") {
                let code = String(body[..<end.lowerBound])
                inOrder(source) { $0.compile(code, source) }
            } else {
                pendingCode = body
            }
            return
        }
        if text == "##close##" { return inOrder(source) { $0.onClose?() } }
        if ReplInterpreter.isPatternStatement(text), let loops {
            return inOrder(source) { port in
                do { _ = try loops.patterns.run(text, source: "csound-port", producer: port.producer, loops: loops) } catch { port.error("\(error)") }
            }
        }
        switch text.first {
        case "&", "$":
            // Score lines (`&`) and score (`$`): both read by Podium (see ScoreLine).
            inOrder(source) { port in
                do { try port.score.play(text: String(text.dropFirst())) } catch { port.error("\(error)") }
            }
        case "@", "%":
            let parts = text.dropFirst().split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return lane.exclusive { error("expected \(text.first!)CHANNEL VALUE") } }
            inOrder(source) { port in
                do {
                    if text.first == "@" {
                        guard let v = Double(parts[1].trimmingCharacters(in: .whitespaces)) else { return port.error("not a number: \(parts[1])") }
                        try port.producer.set(parts[0], v)
                    } else {
                        try port.producer.setString(parts[0], parts[1])
                    }
                } catch { port.error("\(error)") }
            }
        case ":":
            lane.exclusive { reply(text) }  // a read: answered at once
        default:
            inOrder(source) { $0.compile(packet, source) }
        }
    }

    /// Carries `action` out after what the sender sent before (its compiles' answers first).
    // Thread: NRT (text port)
    private func inOrder(_ source: Endpoint, _ action: @escaping @Sendable (CsoundTextPort) -> Void) {
        if !lane.run(key: source.description, { [self] in action(self) }) {
            lane.exclusive { error("from \(source): \(SurfaceLane.capacity) packets already wait for a compile; dropped") }
        }
    }

    /// `:@CHANNEL HOST PORT` / `:%CHANNEL HOST PORT`: the value, over UDP.
    // Thread: NRT (text port, under the lane)
    private func reply(_ text: String) {
        let parts = text.dropFirst(2).split(separator: " ").map(String.init)
        let kind = text.dropFirst().first
        guard parts.count == 3, let host = Endpoint.parse(parts[1] == "localhost" ? "127.0.0.1" : parts[1]), let port = UInt16(parts[2]),
              kind == "@" || kind == "%" else { return error("expected :@CHANNEL HOST PORT") }
        let value: String
        do {
            value = kind == "@" ? InstrumentTable.format(try driver.engine.control(parts[0])) : try driver.engine.string(parts[0])
        } catch { return self.error("\(error)") }
        Array("\(parts[0])::\(value)".utf8).withUnsafeBytes { socket.send($0, to: Endpoint(address: host, port: port)) }
    }

    /// Orchestra code: to the compile queue; an error comes back as the port's error (console).
    // Thread: NRT (under the lane)
    private func compile(_ code: String, _ source: Endpoint) {
        guard options.acceptsCode(from: source) else {
            sharedLock.withLock { _counts.refused += 1 }
            onNotice?("orchestra code from \(source.host) refused on the csound port: loopback only (--allow-remote-code)")
            return
        }
        lane.compile(code, source: "csound-port", key: source.description) { [self] result in
            if case let .failure(error) = result { self.error("\(error)") }
        }
    }

    private func error(_ text: String) {
        sharedLock.withLock { _counts.errors += 1 }
        onNotice?("csound port: \(text)")
    }
}
