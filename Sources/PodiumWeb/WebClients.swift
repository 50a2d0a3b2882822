import Foundation
import HummingbirdWebSocket
import PodiumEngine
import PodiumHost
import PodiumOSC
import PodiumSamples
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
    /// Requests answered 403 (WebTrust): a foreign Host, a foreign or missing Origin, an address
    /// outside loopback and --web-allow, a wrong or missing token.
    public var forbiddenHost = 0, forbiddenOrigin = 0, forbiddenAddress = 0, forbiddenToken = 0

    public var summary: String {
        "pages \(pages), messages \(messages), malformed \(malformed), refused \(refused), applied \(applied), updates dropped for slow pages \(dropped); "
            + "requests refused: foreign Host \(forbiddenHost), foreign Origin \(forbiddenOrigin), address \(forbiddenAddress), token \(forbiddenToken)"
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
    let producer: Mutex<CommandProducer>
    let score: ScoreInput
    let lock = NSLock()
    var queues: [Int: AsyncStream<String>.Continuation] = [:]
    private var nextID = 0
    var layout: WebLayout
    /// The performance's live loops (a hush ends them).
    var loops: LiveLoops?
    /// What `set` checks, computed with the layout: the page's channels and their ranges.
    var settable: Set<String> = []
    var ranges: [String: ChannelInfo.Range] = [:]
    /// Push buttons and pies by their map address (what a page names).
    var pushes: [String: OSCMap.Control] = [:]
    var pies: [String: OSCMap.Control] = [:]
    /// The push buttons each page holds down now (released if the page goes away).
    var held: [Int: Set<String>] = [:]
    /// The last levels sent were all silence (then silence is not sent again).
    private var silent = false
    private var values: [String: Double] = [:]
    private var console: [String] = []
    private var counters = WebStats()
    private let running = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    var onNotice: (@Sendable (String) -> Void)? {
        didSet { rooms.onNotice = onNotice }
    }
    /// The editor's buffers (name → file) and the relay that lets pages edit them together.
    let rooms: CollabRooms
    /// Feedback ticks, for the roll's pace (podium-web only).
    var rollTicks = 0
    /// The last step lit for each slot: its spans and when (ns), so that a burst of notes on one
    /// step (`ply 200`) lights it once, not once a note.
    var lastLit: [String: (spans: [[Int]], at: UInt64)] = [:]
    /// Pages opened with the audience's token: they see, they do not act.
    var readOnlyPages: Set<Int> = []
    /// The lane the editor's orchestra evaluations go through (the compile queue, one at a time a page).
    let lane: SurfaceLane

    // Thread: NRT (owner)
    init(driver: JackDriver, orchestra: String, map: OSCMap?, files: [String: String] = [:]) {
        rooms = CollabRooms(files: files)
        lane = SurfaceLane(driver: driver)
        self.driver = driver
        self.orchestra = orchestra
        self.map = map
        let p = driver.makeProducer()
        producer = Mutex(p)
        score = ScoreInput(driver: driver, producer: p)
        let channels = driver.engine.channels()
        layout = WebLayout(orchestra: orchestra, channels: channels, map: map)
        settable = layout.inputChannels
        let controls = map?.controls ?? [:]
        pushes = layout.controls("push").keys.reduce(into: [:]) { $0[$1] = controls[$1] }
        pies = layout.controls("pie").keys.reduce(into: [:]) { $0[$1] = controls[$1] }
        ranges = Dictionary(channels.compactMap { c in c.range.map { (c.name, $0) } }, uniquingKeysWith: { a, _ in a })
    }

    var stats: WebStats { lock.withLock { var s = counters; s.pages = queues.count; return s } }

    // MARK: a page's connection — Thread: Hummingbird's event loops

    func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, readOnly: Bool = false) async throws {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(256))
        // The layout and every value first, then what changes: registered and greeted under one
        // lock, so that no broadcast reaches this page before its hello.
        let greeting = hello()
        let id = lock.withLock { () -> Int in
            nextID += 1
            queues[nextID] = continuation
            if readOnly { readOnlyPages.insert(nextID) }
            continuation.yield(greeting)
            return nextID
        }
        defer {
            lock.withLock { queues[id] = nil; readOnlyPages.remove(id) }
            releaseHeld(page: id)
        }
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
                    if let reply = handle(text, page: id) { continuation.yield(reply) }
                }
                continuation.finish()
            }
            try await group.next()
            group.cancelAll()
        }
    }

    func count(_ change: (inout WebStats) -> Void) { lock.withLock { change(&counters) } }

    /// A message to one page (an answer that comes later: a compile's).
    // Thread: any
    func send(to page: Int, _ text: String) { _ = lock.withLock { queues[page]?.yield(text) } }

    /// A request answered 403: counted by kind, said on the console at most once a second.
    // Thread: Hummingbird's event loop
    func refused(_ kind: WebRefusal, _ why: String) {
        let say: Bool = lock.withLock {
            switch kind {
            case .host: counters.forbiddenHost += 1
            case .origin: counters.forbiddenOrigin += 1
            case .address: counters.forbiddenAddress += 1
            case .token: counters.forbiddenToken += 1
            }
            let now = ContinuousClock.now
            guard now - lastRefusalNotice >= .seconds(1) else { return false }
            lastRefusalNotice = now
            return true
        }
        if say { onNotice?("stage page: a request refused (403): \(why)") }
    }
    private var lastRefusalNotice = ContinuousClock.now - .seconds(10)

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
        // Every output port's peak and RMS since the last tick (taken from what the callback stored).
        let levels = driver.takeOutputLevels()
        let quiet = levels.allSatisfy { $0.peak == 0 }
        if !(quiet && silent) {
            broadcast(WebClients.json(["type": "levels", "levels": levels.map { ["port": $0.port, "peak": $0.peak, "rms": $0.rms] as [String: Any] }]))
        }
        silent = quiet
        if status { broadcast(statusMessage()) }
        if status || tickRoll() { sendRoll() }
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
                                "bar": bar, "cycle": bar - 1, "beatInBar": inBar, "quantum": c.quantum, "pages": lock.withLock { queues.count }])
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
        // The sample banks' names (`s "bd:3"` in a pattern), bank by bank.
        let banks: [[String: Any]] = (loops?.patterns.samples?.library.banks ?? []).map { b in
            ["bank": b.name, "names": b.sounds.keys.sorted().map { n in
                let short = b.aliases.filter { $0.value == n }.keys.sorted()
                return (short.isEmpty ? n : short.joined(separator: " ") + " = " + n) + (b.sounds[n]!.count > 1 ? ":\(b.sounds[n]!.count)" : "")
            }]
        }
        return WebClients.json(["type": "hello", "layout": layoutObject, "values": values, "console": recent, "samples": banks])
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
