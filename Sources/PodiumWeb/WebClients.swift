import Foundation
import HummingbirdWebSocket
import PodiumEngine
import PodiumOSC
import PodiumRealtime
import PodiumSurfaces
import Synchronization

/// What the pages did, for `:status` and tests.
public struct WebStats: Sendable, Equatable {
    public var pages = 0
    public var messages = 0
    public var malformed = 0
    public var refused = 0
    public var applied = 0
    public var dropped = 0

    public var summary: String {
        "pages \(pages), messages \(messages), malformed \(malformed), refused \(refused), applied \(applied), updates dropped for slow pages \(dropped)"
    }
}

/// The pages connected now: what they send becomes commands (one producer, shared under a
/// lock), and what changed — channel values from any surface, the console, the clock and the
/// engine's status — goes to every page about 30 times a second from one thread
/// (`podium-web`), never from the audio thread. A page that does not read loses the oldest
/// updates (its queue holds 256), never the server's time.
final class WebClients: @unchecked Sendable {
    let driver: JackDriver
    let orchestra: String
    let map: OSCMap?
    private let producer: Mutex<CommandProducer>
    private let score: ScoreInput
    private let lock = NSLock()
    private var queues: [Int: AsyncStream<String>.Continuation] = [:]
    private var nextID = 0
    private var layout: WebLayout
    /// What `set` checks, computed with the layout: the page's channels and their ranges.
    private var settable: Set<String> = []
    private var ranges: [String: ChannelInfo.Range] = [:]
    private var values: [String: Double] = [:]
    private var console: [String] = []
    private var counters = WebStats()
    private let running = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    var onNotice: (@Sendable (String) -> Void)?

    // Thread: NRT (owner)
    init(driver: JackDriver, orchestra: String, map: OSCMap?) {
        self.driver = driver
        self.orchestra = orchestra
        self.map = map
        let p = driver.makeProducer()
        producer = Mutex(p)
        score = ScoreInput(driver: driver, producer: p)
        let channels = driver.engine.channels()
        layout = WebLayout(orchestra: orchestra, channels: channels, map: map)
        settable = layout.inputChannels
        ranges = Dictionary(channels.compactMap { c in c.range.map { (c.name, $0) } }, uniquingKeysWith: { a, _ in a })
    }

    var stats: WebStats { lock.withLock { var s = counters; s.pages = queues.count; return s } }

    // MARK: a page's connection — Thread: Hummingbird's event loops

    func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(256))
        // The layout and every value first, then what changes: registered and greeted under one
        // lock, so that no broadcast reaches this page before its hello.
        let greeting = hello()
        let id = lock.withLock { () -> Int in
            nextID += 1
            queues[nextID] = continuation
            continuation.yield(greeting)
            return nextID
        }
        defer { lock.withLock { queues[id] = nil } }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await text in stream { try await outbound.write(.text(text)) }
            }
            group.addTask { [self] in
                for try await message in inbound.messages(maxSize: 64 * 1024) {
                    guard case let .text(text) = message else {
                        count { $0.messages += 1; $0.malformed += 1 }
                        continuation.yield(WebClients.json(["type": "error", "message": "binary messages are not understood: send JSON text"]))
                        continue
                    }
                    if let reply = handle(text) { continuation.yield(reply) }
                }
                continuation.finish()
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// One message from a page; an error reply for that page when it is refused.
    func handle(_ text: String) -> String? {
        count { $0.messages += 1 }
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], let type = object["type"] as? String else {
            count { $0.malformed += 1 }
            return WebClients.json(["type": "error", "message": "not a JSON object with a \"type\""])
        }
        do {
            switch type {
            case "set":
                guard let name = object["channel"] as? String, let value = (object["value"] as? NSNumber)?.doubleValue else {
                    throw InputError("set needs \"channel\" (a name) and \"value\" (a number)")
                }
                try set(name, value, momentary: false)
            case "momentary":
                guard let name = object["channel"] as? String else { throw InputError("momentary needs \"channel\"") }
                try set(name, 1, momentary: true)
            case "motion":
                guard let v = object["values"] as? [String: Any] else { throw InputError("motion needs \"values\"") }
                let wanted = lock.withLock { layout.motion }
                // Sensors overshoot: their values are held to the channel's range, not refused.
                for (name, number) in v {
                    guard wanted.contains(name), let x = (number as? NSNumber)?.doubleValue, x.isFinite else { continue }
                    let r = lock.withLock { ranges[name] }
                    try set(name, r.map { min(max(x, $0.minimum), $0.maximum) } ?? x, momentary: false)
                }
            case "score":
                guard let line = object["text"] as? String, line.utf8.count <= 4096 else { throw InputError("score needs \"text\" (at most 4096 bytes)") }
                let q = driver.quantization.withLock { $0 }
                do { try producer.withLock { _ in try score.play(prefixed: line, otherwise: q) } } catch { throw InputError("\(error)") }
                count { $0.applied += 1 }
            case "tempo":
                guard let bpm = (object["value"] as? NSNumber)?.doubleValue else { throw InputError("tempo needs \"value\" (BPM)") }
                guard try producer.withLock({ try $0.clock(tempo: bpm) }) != nil else { throw InputError("command ring full: not applied") }
                count { $0.applied += 1 }
            default:
                throw InputError("unknown message type \"\(type.prefix(40))\" (set, momentary, motion, score, tempo)")
            }
            return nil
        } catch {
            count { $0.refused += 1 }
            return WebClients.json(["type": "error", "message": "\(error)"])
        }
    }

    /// A channel value from a page: a channel the page shows, within its declared range.
    func set(_ name: String, _ value: Double, momentary: Bool) throws {
        let (known, range) = lock.withLock { (settable.contains(name), ranges[name]) }
        guard known else { throw InputError("unknown channel \(name.prefix(64)): not a control of this page") }
        if let r = range, r.maximum > r.minimum, !(r.minimum...r.maximum).contains(value) {
            throw InputError("\(name) runs from \(InputCheck.describe(r.minimum)) to \(InputCheck.describe(r.maximum)): \(InputCheck.describe(value)) is out of range")
        }
        guard try producer.withLock({ try $0.set(name, value, momentary: momentary) }) != nil else { throw InputError("command ring full: \(name) not set") }
        count { $0.applied += 1 }
    }

    private func count(_ change: (inout WebStats) -> Void) { lock.withLock { change(&counters) } }

    // MARK: feedback — Thread: podium-web

    func start() {
        running.store(true, ordering: .releasing)
        let thread = Thread { [self] in
            var tick = 0
            while running.load(ordering: .acquiring) {
                Thread.sleep(forTimeInterval: 1.0 / 30)
                tick += 1
                feedback(status: tick % 10 == 0)
            }
            done.signal()
        }
        thread.name = "podium-web"
        thread.start()
    }

    func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        done.wait()
        lock.withLock { queues.values.forEach { $0.finish() } }
    }

    /// Sends every page the values that changed since the last tick (and the status now and then).
    func feedback(status: Bool) {
        guard lock.withLock({ !queues.isEmpty }) else { return }
        let now = current()
        let changed = lock.withLock { () -> [String: Double] in
            let c = now.filter { values[$0.key] != $0.value }
            values.merge(c) { $1 }
            return c
        }
        if !changed.isEmpty { broadcast(WebClients.json(["type": "values", "values": changed])) }
        if status { broadcast(statusMessage()) }
    }

    /// Input and output channel values now (inputs as the engine holds them: set by any surface).
    func current() -> [String: Double] {
        let e = driver.engine
        let (inputs, meters) = lock.withLock { (settable, layout.meters.flatMap(\.channels)) }
        var v: [String: Double] = [:]
        for name in inputs { if let x = try? e.control(name), x.isFinite { v[name] = x } }
        for name in meters { if let x = driver.outputValue(name) ?? (try? e.control(name)), x.isFinite { v[name] = x } }
        return v
    }

    func statusMessage() -> String {
        let s = driver.stats
        let c = driver.clock
        let beat = driver.beatNow
        let (bar, inBar) = ReplSession.barAndBeat(beat, quantum: c.quantum)
        return WebClients.json(["type": "status", "dsp": s.dspLoad, "xruns": Int(s.xruns), "tempo": c.tempo, "beat": beat,
                                "bar": bar, "beatInBar": inBar, "pages": lock.withLock { queues.count }])
    }

    /// Console lines for every page (the last 200 are kept for pages that connect later).
    // Thread: the console router's
    func console(_ lines: [String]) {
        lock.withLock {
            console.append(contentsOf: lines)
            if console.count > 200 { console.removeFirst(console.count - 200) }
        }
        broadcast(WebClients.json(["type": "console", "lines": lines]))
    }

    /// What a page gets first: the layout, every value, the recent console.
    func hello() -> String {
        let values = current()
        let (layoutData, recent) = lock.withLock { ((try? JSONEncoder().encode(layout)) ?? Data(), console) }
        let layoutObject = (try? JSONSerialization.jsonObject(with: layoutData)) ?? [:]
        return WebClients.json(["type": "hello", "layout": layoutObject, "values": values, "console": recent])
    }

    func broadcast(_ text: String) {
        let targets = lock.withLock { Array(queues.values) }
        for q in targets {
            if case .dropped = q.yield(text) { count { $0.dropped += 1 } }
        }
    }

    static func json(_ object: [String: Any]) -> String {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
