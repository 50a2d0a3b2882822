import Foundation
import HummingbirdWebSocket
import NIOCore

/// Several pages editing one buffer (the orchestra, the patterns file, the loops file): a relay
/// for Yjs's sync and awareness messages that knows no Yjs (Podium cannot run it): it keeps
/// every update a page sent, replays them to a newcomer and passes each new one to the others,
/// byte for byte. Yjs updates are idempotent and commute, so every page ends with the same text
/// holding every page's edits. The protocol, message by message, is `Page/PROTOCOL.md`.
///
/// A room's steps run one at a time under `lock`; each connection has one ordered queue (the
/// compaction argument needs that order). Read-only pages (the audience token) receive, and
/// what they send is dropped. Rooms live as long as the performance.
final class CollabRooms: @unchecked Sendable {
    enum Frame: Sendable { case binary([UInt8]), text(String) }

    /// Its mutable state is touched under `CollabRooms.lock` only.
    final class Connection: @unchecked Sendable {
        let id: Int
        let name: String
        let readOnly: Bool
        let queue: AsyncStream<Frame>.Continuation
        var lastAwareness: [UInt8]?
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
        var compacting: (connection: Int, mark: Int)?
        init(path: String) { self.path = path }
    }

    /// Buffer name → the file it edits.
    let files: [String: String]
    /// Compaction is asked for when a room's log holds this many frames.
    var compactAt = 500
    private let lock = NSLock()
    private var rooms: [String: Room] = [:]
    private var nextID = 0
    /// Pages connected, frames relayed, saves, frames dropped (read-only or malformed).
    private(set) var counts = (pages: 0, relayed: 0, saves: 0, dropped: 0)
    var onNotice: (@Sendable (String) -> Void)?
    /// A buffer saved: its name, the file, who saved it.
    var onSaved: (@Sendable (String, String, String) -> Void)?

    init(files: [String: String]) { self.files = files }

    var stats: (pages: Int, relayed: Int, saves: Int, dropped: Int) { lock.withLock { counts } }

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
        defer { close(connection, buffer: room) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await frame in stream {
                    switch frame {
                    case let .binary(b): try await outbound.write(.binary(ByteBuffer(bytes: b)))
                    case let .text(t): try await outbound.write(.text(t))
                    }
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
            for frame in r.log { c.queue.yield(.binary(frame)) }
            c.queue.yield(.binary([0, 0, 1, 0]))
            for other in r.connections.values { if let a = other.lastAwareness { c.queue.yield(.binary(a)) } }
            r.connections[c.id] = c
            if !r.seeded, r.seeder == nil, !c.readOnly { seed(r, c) }
        }
    }

    private func seed(_ r: Room, _ c: Connection) {
        r.seeder = c.id
        let text = (try? String(contentsOfFile: r.path, encoding: .utf8)) ?? ""
        c.queue.yield(.text(CollabRooms.json(["type": "seed", "text": text])))
    }

    private func close(_ c: Connection, buffer: String) {
        lock.withLock {
            guard let r = rooms[buffer] else { return }
            r.connections[c.id] = nil
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
                for other in r.connections.values { other.queue.yield(.binary(frame)) }
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
        lock.withLock {
            guard let r = rooms[buffer], !frame.isEmpty else { return }
            var reader = Reader(bytes: frame)
            switch frame[0] {
            case 0:
                _ = reader.varUInt()
                guard let kind = reader.varUInt() else { counts.dropped += 1; return }
                if kind == 0 {
                    for f in r.log { c.queue.yield(.binary(f)) }
                    return
                }
                guard kind == 1 || kind == 2, let update = reader.varBytes(), !c.readOnly else { counts.dropped += 1; return }
                if update == [0, 0] { return }  // an empty update
                r.log.append(frame)
                r.bytes += frame.count
                counts.relayed += 1
                for other in r.connections.values where other.id != c.id { other.queue.yield(.binary(frame)) }
                // The seed (or a page's own state after the server restarted) fills the room.
                r.seeded = true
                if r.seeder == c.id { r.seeder = nil }
                if compactAt > 0, r.log.count > compactAt, r.compacting == nil {
                    r.compacting = (c.id, r.log.count)
                    c.queue.yield(.text(#"{"type":"compact"}"#))
                }
            case 1:
                // Read-only pages announce themselves too (the audience in the peer list).
                _ = reader.varUInt()
                guard let body = reader.varBytes(), let entries = CollabRooms.awarenessEntries(body) else { counts.dropped += 1; return }
                c.lastAwareness = frame
                for (id, clock) in entries { c.clients[id] = clock }
                counts.relayed += 1
                for other in r.connections.values where other.id != c.id { other.queue.yield(.binary(frame)) }
            case 100:
                guard let compacting = r.compacting, compacting.connection == c.id else { return }
                let rest = Array(frame.dropFirst())
                if rest.count > 2, rest[0] == 0, rest[1] == 1 {
                    r.log = [rest] + r.log[compacting.mark...]
                    r.bytes = r.log.reduce(0) { $0 + $1.count }
                }
                r.compacting = nil
            default:
                counts.dropped += 1
            }
        }
    }

    /// `{"type":"save","text":…}`: the file written (atomically), `saved` to every page of the room.
    // Thread: Hummingbird's event loops
    func receive(text: String, from c: Connection, buffer: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], object["type"] as? String == "save",
              let body = object["text"] as? String else {
            c.queue.yield(.text(CollabRooms.json(["type": "error", "message": "expected {\"type\":\"save\",\"text\":…}"])))
            return
        }
        guard !c.readOnly else {
            c.queue.yield(.text(CollabRooms.json(["type": "error", "message": "read-only: this page cannot save"])))
            return
        }
        guard let path = files[buffer] else { return }
        do {
            try body.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            c.queue.yield(.text(CollabRooms.json(["type": "error", "message": "could not write \(path): \(error.localizedDescription)"])))
            return
        }
        let saved = CollabRooms.json(["type": "saved", "name": c.name, "bytes": body.utf8.count])
        lock.withLock {
            counts.saves += 1
            for other in rooms[buffer]?.connections.values ?? [:].values { other.queue.yield(.text(saved)) }
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
