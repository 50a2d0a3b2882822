import Foundation
import HummingbirdWebSocket
import NIOCore

/// Frames relayed and what was refused, for the stop line.
public struct CollabStats: Sendable {
    public var pages = 0, relayed = 0, saves = 0
    /// Read-only pages' updates, unknown messages.
    public var dropped = 0
    /// Updates that do not decode as Yjs decodes them.
    public var malformed = 0
    /// Pages disconnected: too many updates a second; frames they did not read.
    public var tooFast = 0, notReading = 0
    /// Logs compacted by pages (their whole state), and merged by the relay itself.
    public var compactedByPages = 0, merged = 0
    public var summary: String {
        "pages \(pages), edits relayed \(relayed), saves \(saves), logs compacted by a page \(compactedByPages) or merged by Podium \(merged), malformed updates refused \(malformed), "
            + "pages disconnected for their rate \(tooFast) or for not reading \(notReading), dropped \(dropped) (read-only pages' or unknown)"
    }
}

/// Several pages editing one buffer (the orchestra, the patterns file, the loops file): a relay
/// for Yjs's sync and awareness messages that applies no update (it reads each as Yjs would,
/// to refuse what no page could apply): it keeps every update a page sent, replays them to a
/// newcomer and passes each new one to the others, byte for byte. Yjs updates are idempotent and commute, so every page ends with the same text
/// holding every page's edits. The protocol, message by message, is `Page/PROTOCOL.md`.
///
/// A room's steps run one at a time under `lock`; each connection has one ordered queue (the
/// compaction argument needs that order). Read-only pages (the audience token) receive, and
/// what they send is dropped. Rooms live as long as the performance.
///
/// What a page sends is trusted no further than it must be (`Limits`): an update is stored and
/// relayed only if it decodes as Yjs decodes it (`YjsUpdateCheck`; a compaction's too), else
/// it is refused, counted and the page told; a page over the update rate, or one whose queue
/// of frames not yet written passes its bound (a page that does not read), is disconnected and
/// counted. Both lose nothing: a page that reconnects sends its whole state again (the relay's
/// step 1 is an empty state vector). A room's log is compacted by a writing page asked in turn
/// (its whole state: deleted text collected): one that does not answer within `compactWait` is
/// passed over for the next. A log twice that long (no page compacted it) is merged by Podium
/// itself (`YjsUpdateMerge`, Yjs's mergeUpdates), so a newcomer's sync never replays a long
/// history, whoever answers.
final class CollabRooms: @unchecked Sendable {
    enum Frame: Sendable {
        case binary([UInt8]), text(String)
        var size: Int {
            switch self {
            case let .binary(b): b.count
            case let .text(t): t.utf8.count
            }
        }
    }

    /// Its mutable state is touched under `CollabRooms.lock` only.
    final class Connection: @unchecked Sendable {
        let id: Int
        let name: String
        let readOnly: Bool
        let queue: AsyncStream<Frame>.Continuation
        /// Bytes yielded to `queue` and not yet written to the socket.
        var queued = 0
        var closed = false
        /// Updates in the current second, and when it began (the rate cap).
        var window = (start: ContinuousClock.now, updates: 0)
        var lastAwareness: [UInt8]?
        weak var room: Room?
        /// Awareness client ids this page announced, with their last clocks.
        var clients: [UInt64: UInt64] = [:]
        init(id: Int, name: String, readOnly: Bool, queue: AsyncStream<Frame>.Continuation) {
            self.id = id; self.name = name; self.readOnly = readOnly; self.queue = queue
        }
    }

    final class Room: @unchecked Sendable {
        let path: String
        var log: [[UInt8]] = []
        var bytes = 0
        var connections: [Int: Connection] = [:]
        var seeded = false
        var seeder: Int?
        var compacting: (connection: Int, mark: Int, since: ContinuousClock.Instant)?
        /// Pages asked to compact that did not answer in time: asked last.
        var silent: Set<Int> = []
        /// The log's length past which Podium merges it (raised when a merge fails).
        var mergeAt = 0
        init(path: String) { self.path = path }
    }

    /// Buffer name → the file it edits.
    let files: [String: String]
    /// What one page may cost the performance.
    struct Limits: Sendable {
        /// Compaction is asked for when a room's log holds this many frames.
        var compactAt = 500
        /// A page asked to compact that has not answered by then is passed over.
        var compactWait: Duration = .seconds(5)
        /// Frames queued for one page and not yet written: past this the page is disconnected.
        var queuedBytes = 16 << 20
        /// Updates one page may send in a second (typing sends tens; a paste, one).
        var updatesPerSecond = 500
    }
    var limits = Limits()
    private let lock = NSLock()
    private var rooms: [String: Room] = [:]
    private var nextID = 0
    private(set) var counts = CollabStats()
    var onNotice: (@Sendable (String) -> Void)?
    /// A buffer saved: its name, the file, who saved it.
    var onSaved: (@Sendable (String, String, String) -> Void)?

    init(files: [String: String]) { self.files = files }

    var stats: CollabStats { lock.withLock { counts } }

    // MARK: a page's connection — Thread: Hummingbird's event loops

    func serve(buffer: String, name: String, readOnly: Bool, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        guard let path = files[buffer] else {
            try await outbound.write(.text(#"{"type":"error","message":"no such buffer"}"#))
            return
        }
        let (stream, queue) = AsyncStream<Frame>.makeStream()
        let connection = lock.withLock { () -> Connection in
            nextID += 1
            counts.pages += 1
            return Connection(id: nextID, name: String(name.prefix(32)), readOnly: readOnly, queue: queue)
        }
        let room = buffer
        open(connection, buffer: room, path: path)
        defer { close(connection, buffer: room); flushNotices() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await frame in stream {
                    switch frame {
                    case let .binary(b): try await outbound.write(.binary(ByteBuffer(bytes: b)))
                    case let .text(t): try await outbound.write(.text(t))
                    }
                    self.lock.withLock { connection.queued -= frame.size }
                }
            }
            group.addTask { [self] in
                for try await message in inbound.messages(maxSize: 4 << 20) {
                    switch message {
                    case let .binary(data): receive(Array(data.readableBytesView), from: connection, buffer: room)
                    case let .text(text): receive(text: text, from: connection, buffer: room)
                    }
                }
                queue.finish()
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// Queues a frame for a page; one whose unwritten frames pass `limits.queuedBytes` is
    /// disconnected (its queue finished: its connection ends), counted. Under `lock`.
    private func send(_ c: Connection, _ frame: Frame) {
        guard !c.closed else { return }
        c.queued += frame.size
        // A newcomer is sent the log (twice: on opening and for its step 1) before it reads.
        if c.queued > limits.queuedBytes + 2 * (c.room?.bytes ?? 0) {
            c.closed = true
            counts.notReading += 1
            c.queue.finish()
            let name = c.name
            notice("editor: page \(name.isEmpty ? "#\(c.id)" : name) disconnected: it did not read \(c.queued >> 20) MiB sent to it")
            return
        }
        c.queue.yield(frame)
    }

    /// Said after the lock is released (the notice's owner may take locks of its own).
    private var pendingNotices: [String] = []
    private func notice(_ text: String) { pendingNotices.append(text) }
    private func flushNotices() {
        let texts: [String] = lock.withLock { defer { pendingNotices = [] }; return pendingNotices }
        for t in texts { onNotice?(t) }
    }

    private func room(_ buffer: String, path: String) -> Room {
        if let r = rooms[buffer] { return r }
        let r = Room(path: path)
        rooms[buffer] = r
        return r
    }

    /// Open: the log, the relay's step 1 (an empty state vector), the others' awareness; then
    /// a seed if the room is empty and nobody seeds it yet.
    private func open(_ c: Connection, buffer: String, path: String) {
        lock.withLock {
            let r = room(buffer, path: path)
            c.room = r
            for frame in r.log { send(c, .binary(frame)) }
            send(c, .binary([0, 0, 1, 0]))
            for other in r.connections.values { if let a = other.lastAwareness { send(c, .binary(a)) } }
            r.connections[c.id] = c
            if !r.seeded, r.seeder == nil, !c.readOnly { seed(r, c) }
        }
    }

    private func seed(_ r: Room, _ c: Connection) {
        r.seeder = c.id
        let text = (try? String(contentsOfFile: r.path, encoding: .utf8)) ?? ""
        send(c, .text(CollabRooms.json(["type": "seed", "text": text])))
    }

    private func close(_ c: Connection, buffer: String) {
        lock.withLock {
            guard let r = rooms[buffer] else { return }
            r.connections[c.id] = nil
            r.silent.remove(c.id)
            c.closed = true
            c.queue.finish()
            if !c.clients.isEmpty {
                // Its awareness entries removed, at their last clocks (a null state).
                var body: [UInt8] = []
                CollabRooms.writeVarUInt(UInt64(c.clients.count), &body)
                for (id, clock) in c.clients.sorted(by: { $0.key < $1.key }) {
                    CollabRooms.writeVarUInt(id, &body)
                    CollabRooms.writeVarUInt(clock, &body)
                    body += [4] + Array("null".utf8)
                }
                var frame: [UInt8] = [1]
                CollabRooms.writeVarUInt(UInt64(body.count), &frame)
                frame += body
                for other in r.connections.values { send(other, .binary(frame)) }
            }
            if r.compacting?.connection == c.id { r.compacting = nil }
            if r.seeder == c.id {
                r.seeder = nil
                if !r.seeded, let next = r.connections.values.sorted(by: { $0.id < $1.id }).first(where: { !$0.readOnly }) { seed(r, next) }
            }
        }
    }

    // Thread: Hummingbird's event loops
    func receive(_ frame: [UInt8], from c: Connection, buffer: String) {
        lock.withLock { step(frame, from: c, buffer: buffer) }
        flushNotices()
    }

    /// One message of a page, under `lock`.
    private func step(_ frame: [UInt8], from c: Connection, buffer: String) {
        guard let r = rooms[buffer], !frame.isEmpty, !c.closed else { return }
        if frame[0] == 0 || frame[0] == 1, !withinRate(c) { return }
        var reader = Reader(bytes: frame)
        switch frame[0] {
        case 0:
            _ = reader.varUInt()
            guard let kind = reader.varUInt() else { counts.dropped += 1; return }
            if kind == 0 {
                for f in r.log { send(c, .binary(f)) }
                return
            }
            guard kind == 1 || kind == 2, let update = reader.varBytes(), !c.readOnly else { counts.dropped += 1; return }
            if update == [0, 0] { return }  // an empty update
            guard valid(update, from: c, what: "update") else { return }
            r.log.append(frame)
            r.bytes += frame.count
            counts.relayed += 1
            for other in r.connections.values where other.id != c.id { send(other, .binary(frame)) }
            // The seed (or a page's own state after the server restarted) fills the room.
            r.seeded = true
            if r.seeder == c.id { r.seeder = nil }
            // A log no page compacted is merged here; otherwise a page is asked for its state.
            if !mergeIfLong(r) { askToCompact(r, preferring: c) }
        case 1:
            // Read-only pages announce themselves too (the audience in the peer list).
            _ = reader.varUInt()
            guard let body = reader.varBytes(), let entries = CollabRooms.awarenessEntries(body) else { counts.dropped += 1; return }
            c.lastAwareness = frame
            for (id, clock) in entries { c.clients[id] = clock }
            counts.relayed += 1
            for other in r.connections.values where other.id != c.id { send(other, .binary(frame)) }
        case 100:
            // The compaction asked for: the page's whole state, replacing the log up to the mark.
            guard let compacting = r.compacting, compacting.connection == c.id else { return }
            r.compacting = nil
            var rest = Reader(bytes: Array(frame.dropFirst()))
            guard rest.varUInt() == 0, rest.varUInt() == 1, let update = rest.varBytes(), rest.at == rest.bytes.count else {
                counts.malformed += 1
                r.silent.insert(c.id)
                return
            }
            guard valid(update, from: c, what: "compaction") else { r.silent.insert(c.id); return }
            r.log = [rest.bytes] + r.log[min(compacting.mark, r.log.count)...]
            r.bytes = r.log.reduce(0) { $0 + $1.count }
            r.silent.remove(c.id)
            counts.compactedByPages += 1
        default:
            counts.dropped += 1
        }
    }

    /// Whether an update decodes as Yjs decodes it; if not it is refused, counted and the page told.
    private func valid(_ update: [UInt8], from c: Connection, what: String) -> Bool {
        do throws(YjsUpdateCheck.Invalid) {
            try YjsUpdateCheck.check(update)
            return true
        } catch {
            counts.malformed += 1
            send(c, .text(CollabRooms.json(["type": "error", "message": "the relay refused this page's \(what) (not a Yjs update: \(error))"])))
            if counts.malformed == 1 || counts.malformed.isMultiple(of: 1000) {
                notice("editor: refused a malformed \(what) from page \(c.name.isEmpty ? "#\(c.id)" : c.name): \(error) (\(counts.malformed) so far)")
            }
            return false
        }
    }

    /// Counts a page's update or awareness frame in its second; a page past the rate is
    /// disconnected (it reconnects and sends its state whole: nothing is lost). Under `lock`.
    private func withinRate(_ c: Connection) -> Bool {
        let now = ContinuousClock.now
        if now - c.window.start >= .seconds(1) { c.window = (now, 0) }
        c.window.updates += 1
        guard c.window.updates > limits.updatesPerSecond else { return true }
        c.closed = true
        counts.tooFast += 1
        c.queue.finish()
        notice("editor: page \(c.name.isEmpty ? "#\(c.id)" : c.name) disconnected: more than \(limits.updatesPerSecond) updates in a second")
        return false
    }

    /// Asks a writing page for its whole state when the log is long: the page that sent the
    /// last update, unless it was asked before and did not answer; one asked that does not
    /// answer within `compactWait` is passed over. Under `lock`.
    private func askToCompact(_ r: Room, preferring c: Connection) {
        guard limits.compactAt > 0, r.log.count > limits.compactAt else { return }
        if let asked = r.compacting {
            guard ContinuousClock.now - asked.since >= limits.compactWait else { return }
            r.silent.insert(asked.connection)
            r.compacting = nil
        }
        let writers = r.connections.values.filter { !$0.readOnly && !$0.closed }.sorted { $0.id < $1.id }
        guard let page = (!r.silent.contains(c.id) && !c.readOnly ? c : nil) ?? writers.first(where: { !r.silent.contains($0.id) }) ?? writers.first
        else { return }
        r.compacting = (page.id, r.log.count, .now)
        send(page, .text(#"{"type":"compact"}"#))
    }

    /// A log twice as long as `compactAt` (no page compacted it in time, or none can): merged
    /// into one update by Podium (Yjs's mergeUpdates: what every page would apply, in one
    /// frame), and any compaction asked for is dropped (its mark no longer points into the log).
    /// Under `lock`.
    private func mergeIfLong(_ r: Room) -> Bool {
        guard limits.compactAt > 0, r.log.count > max(2 * limits.compactAt, r.mergeAt) else { return false }
        var updates: [[UInt8]] = []
        for frame in r.log {
            var reader = Reader(bytes: frame)
            guard reader.varUInt() == 0, let kind = reader.varUInt(), kind == 1 || kind == 2, let update = reader.varBytes() else {
                r.mergeAt = 2 * r.log.count
                return false
            }
            updates.append(update)
        }
        do throws(YjsUpdateCheck.Invalid) {
            let merged = try YjsUpdateMerge.merge(updates)
            try YjsUpdateCheck.check(merged)
            var frame: [UInt8] = [0, 1]
            CollabRooms.writeVarUInt(UInt64(merged.count), &frame)
            r.log = [frame + merged]
            r.bytes = r.log[0].count
            r.compacting = nil
            r.mergeAt = 0
            counts.merged += 1
            return true
        } catch {
            r.mergeAt = 2 * r.log.count
            notice("editor: could not merge a room's log (\(error)); it is kept as it is")
            return false
        }
    }

    /// `{"type":"save","text":…}`: the file written (atomically), `saved` to every page of the room.
    // Thread: Hummingbird's event loops
    func receive(text: String, from c: Connection, buffer: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], object["type"] as? String == "save",
              let body = object["text"] as? String else {
            lock.withLock { send(c, .text(CollabRooms.json(["type": "error", "message": "expected {\"type\":\"save\",\"text\":…}"]))) }
            return
        }
        guard !c.readOnly else {
            lock.withLock { send(c, .text(CollabRooms.json(["type": "error", "message": "read-only: this page cannot save"]))) }
            return
        }
        guard let path = files[buffer] else { return }
        do {
            try body.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            lock.withLock { send(c, .text(CollabRooms.json(["type": "error", "message": "could not write \(path): \(error.localizedDescription)"]))) }
            return
        }
        let saved = CollabRooms.json(["type": "saved", "name": c.name, "bytes": body.utf8.count])
        lock.withLock {
            counts.saves += 1
            for other in rooms[buffer]?.connections.values ?? [:].values { send(other, .text(saved)) }
        }
        onSaved?(buffer, path, c.name)
    }

    // MARK: lib0's encoding (varuint: 7 bits a byte, low first; varbytes: a length, then bytes)

    struct Reader {
        let bytes: [UInt8]
        var at = 0
        mutating func varUInt() -> UInt64? {
            var value: UInt64 = 0, shift: UInt64 = 0
            while at < bytes.count, shift < 64 {
                let b = bytes[at]
                at += 1
                value |= UInt64(b & 0x7f) << shift
                if b & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }
        mutating func varBytes() -> [UInt8]? {
            guard let n = varUInt(), n <= UInt64(bytes.count - at) else { return nil }
            defer { at += Int(n) }
            return Array(bytes[at..<(at + Int(n))])
        }
    }

    static func writeVarUInt(_ v: UInt64, _ out: inout [UInt8]) {
        var v = v
        while v >= 0x80 {
            out.append(UInt8(v & 0x7f) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    /// An awareness update's (client id, clock) pairs; nil when it does not parse.
    static func awarenessEntries(_ body: [UInt8]) -> [(UInt64, UInt64)]? {
        var r = Reader(bytes: body)
        guard let n = r.varUInt(), n < 10_000 else { return nil }
        var entries: [(UInt64, UInt64)] = []
        for _ in 0..<n {
            guard let id = r.varUInt(), let clock = r.varUInt(), r.varBytes() != nil else { return nil }
            entries.append((id, clock))
        }
        return entries
    }

    static func json(_ object: [String: Any]) -> String {
        (try? JSONSerialization.data(withJSONObject: object)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
