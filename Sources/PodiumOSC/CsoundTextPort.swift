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
    let producer: CommandProducer
    let score: ScoreInput
    let options: OSCOptions
    private let running = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    private var pendingCode: String?
    private let sharedLock = NSLock()
    private var _counts = (packets: 0, refused: 0, errors: 0)
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
            guard let (n, source) = socket.receive(into: buffer, timeout: 50) else { continue }
            sharedLock.withLock { _counts.packets += 1 }
            guard options.allows(source) else {
                sharedLock.withLock { _counts.refused += 1 }
                continue
            }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: buffer[0..<n]), as: UTF8.self)
            handle(text, from: source)
        }
    }

    func handle(_ packet: String, from source: Endpoint) {
        let text = packet.trimmingCharacters(in: .whitespacesAndNewlines)
        if var code = pendingCode {
            if let end = packet.range(of: "}}") {
                code += String(packet[..<end.lowerBound])
                pendingCode = nil
                compile(code, source)
            } else {
                pendingCode = code + packet
            }
            return
        }
        if text.hasPrefix("{{") {
            let body = String(packet[packet.range(of: "{{")!.upperBound...])
            if let end = body.range(of: "}}") { compile(String(body[..<end.lowerBound]), source) } else { pendingCode = body }
            return
        }
        if text == "##close##" { onClose?(); return }
        switch text.first {
        case "&", "$":
            // Score lines (`&`) and score (`$`): both read by Podium (see ScoreLine).
            do { try score.play(text: String(text.dropFirst())) } catch { self.error("\(error)") }
        case "@", "%":
            let parts = text.dropFirst().split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return error("expected \(text.first!)CHANNEL VALUE") }
            do {
                if text.first == "@" {
                    guard let v = Double(parts[1].trimmingCharacters(in: .whitespaces)) else { return error("not a number: \(parts[1])") }
                    try producer.set(parts[0], v)
                } else {
                    try producer.setString(parts[0], parts[1])
                }
            } catch { self.error("\(error)") }
        case ":":
            let parts = text.dropFirst(2).split(separator: " ").map(String.init)
            let kind = text.dropFirst().first
            guard parts.count == 3, let host = Endpoint.parse(parts[1] == "localhost" ? "127.0.0.1" : parts[1]), let port = UInt16(parts[2]),
                  kind == "@" || kind == "%" else { return error("expected :@CHANNEL HOST PORT") }
            let value: String
            do {
                value = kind == "@" ? InstrumentTable.format(try driver.engine.control(parts[0])) : try driver.engine.string(parts[0])
            } catch { return self.error("\(error)") }
            Array("\(parts[0])::\(value)".utf8).withUnsafeBytes { socket.send($0, to: Endpoint(address: host, port: port)) }
        default:
            compile(packet, source)
        }
    }

    private func compile(_ code: String, _ source: Endpoint) {
        guard options.acceptsCode(from: source) else {
            sharedLock.withLock { _counts.refused += 1 }
            onNotice?("orchestra code from \(source.host) refused on the csound port: loopback only (--allow-remote-code)")
            return
        }
        do { _ = try driver.compile(code, source: "csound-port") } catch { self.error("\(error)") }
    }

    private func error(_ text: String) {
        sharedLock.withLock { _counts.errors += 1 }
        onNotice?("csound port: \(text)")
    }
}
