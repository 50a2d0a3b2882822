/// Yjs 13's `mergeUpdates` (encoding v1; `updates.js`'s `mergeUpdatesV2` with the v1 coders),
/// so the relay compacts a room's log itself: many updates become one that any page applies to
/// the same document, without a document here (the structs are copied as read; an item that
/// overlaps one already written is sliced as Yjs slices it). It gives the bytes Yjs's own
/// `mergeUpdates` gives for the updates pages write (text, deletions, maps of `any` values),
/// checked against Debian's node-yjs in the relay's tests.
///
/// As in Yjs: the merged structs are written per client, highest client first; an item never
/// merges with its neighbour (a lazily read item has no `right`), garbage and skips do; the
/// delete sets are joined per client in the order they were first met, sorted and merged.
/// One difference in bytes, not in the document: where an item and garbage have the same id in
/// two updates, Yjs's comparator (which calls each less than the other) lets V8's sort pick one,
/// and here the first update's is kept.
enum YjsUpdateMerge {
    struct ID: Equatable {
        var client: UInt64, clock: UInt64
    }

    enum Kind { case gc, skip, item }

    /// A struct as the lazy reader holds it: an item's parent and content kept as the bytes read.
    struct Struct {
        var kind: Kind
        var id: ID
        var length: UInt64
        var origin: ID? = nil
        var rightOrigin: ID? = nil
        /// The parent (a root type's name or an ID) and the key in a map, as read: written only
        /// when the item has neither origin.
        var parent: ArraySlice<UInt8> = []
        var hasParentSub = false
        var contentRef: UInt8 = 0
        var content: ArraySlice<UInt8> = []
        var end: UInt64 { id.clock + length }
    }

    /// One update's structs (skips dropped, as the merge reads them) and its delete set.
    struct Parsed {
        var structs: [Struct] = []
        /// Clients in the order read, each with its (clock, length) ranges.
        var deletes: [(client: UInt64, ranges: [(UInt64, UInt64)])] = []
        /// Where each client is in `deletes`.
        var deleting: [UInt64: Int] = [:]
    }

    /// Many updates as one. Each must have passed `YjsUpdateCheck`.
    // Thread: Hummingbird's event loops (under the rooms' lock)
    static func merge(_ updates: [[UInt8]]) throws(YjsUpdateCheck.Invalid) -> [UInt8] {
        if updates.count == 1 { return updates[0] }
        var parsed: [Parsed] = []
        for u in updates { parsed.append(try parse(u)) }
        var writer = Writer()
        try mergeStructs(parsed.map(\.structs), into: &writer)
        var out = writer.finish()
        writeDeletes(parsed, &out)
        return out
    }

    // Thread: as `merge`
    static func parse(_ update: [UInt8]) throws(YjsUpdateCheck.Invalid) -> Parsed {
        var d = YjsUpdateCheck.Decoder(bytes: update)
        var p = Parsed()
        let clients = try d.count("clients")
        var previous: UInt64? = nil
        for _ in 0..<clients {
            let n = try d.count("structs")
            let client = try d.uint()
            // Yjs writes each client once, highest first; the merge's order rests on it (an update
            // written otherwise is not merged: the relay keeps its log as it is).
            if let previous, client >= previous { throw d.invalid("client \(client) after client \(previous): not Yjs's order") }
            previous = client
            var clock = try d.uint()
            for _ in 0..<n {
                let info = try d.byte()
                let id = ID(client: client, clock: clock)
                switch info & 0x1f {
                case 10:  // a Skip: left out of the merge
                    clock += try d.uint()
                case 0:
                    let length = try d.uint()
                    p.structs.append(Struct(kind: .gc, id: id, length: length))
                    clock += length
                case let ref:
                    var s = Struct(kind: .item, id: id, length: 0, contentRef: ref)
                    if info & 0x80 != 0 { s.origin = ID(client: try d.uint(), clock: try d.uint()) }
                    if info & 0x40 != 0 { s.rightOrigin = ID(client: try d.uint(), clock: try d.uint()) }
                    if s.origin == nil && s.rightOrigin == nil {
                        let start = d.at
                        if try d.uint() == 1 { try d.skipString() } else { _ = try d.uint(); _ = try d.uint() }
                        if info & 0x20 != 0 { try d.skipString(); s.hasParentSub = true }
                        s.parent = update[start..<d.at]
                    }
                    let start = d.at
                    s.length = try YjsUpdateCheck.content(ref, &d)
                    s.content = update[start..<d.at]
                    p.structs.append(s)
                    clock += s.length
                }
            }
        }
        let deleting = try d.count("delete-set clients")
        for _ in 0..<deleting {
            let client = try d.uint()
            let n = try d.count("deleted ranges")
            guard n > 0 else { continue }
            var ranges: [(UInt64, UInt64)] = []
            for _ in 0..<n { ranges.append((try d.uint(), try d.uint())) }
            if let i = p.deleting[client] { p.deletes[i].ranges += ranges } else {
                p.deleting[client] = p.deletes.count
                p.deletes.append((client, ranges))
            }
        }
        return p
    }

    /// An update's structs, read one at a time; `tie` orders readers whose next structs have
    /// the same id (Yjs's sort is stable and only the first reader moves, so the reader that
    /// just moved goes before the others).
    struct Reader {
        var list: [Struct]
        var at = 0
        var tie: Int
        var current: Struct? { at < list.count ? list[at] : nil }

        // Thread: as `merge`
        static func precedes(_ a: Reader, _ b: Reader) -> Bool {
            let x = a.list[a.at].id, y = b.list[b.at].id
            if x.client != y.client { return x.client > y.client }
            if x.clock != y.clock { return x.clock < y.clock }
            return a.tie < b.tie
        }
    }

    /// `mergeUpdatesV2`'s loop over the updates' structs, as Yjs runs it: each time, the reader
    /// whose next struct has the highest client and then the lowest clock (Yjs sorts its readers
    /// every time; a heap gives the same order).
    // Thread: as `merge`
    static func mergeStructs(_ lists: [[Struct]], into writer: inout Writer) throws(YjsUpdateCheck.Invalid) {
        var heap = ReaderHeap()
        for (i, list) in lists.enumerated() where !list.isEmpty { heap.push(Reader(list: list, tie: i)) }
        var nextTie = -1
        var currWrite: Struct? = nil
        while var reader = heap.pop() {
            defer {
                if reader.current != nil {
                    reader.tie = nextTie
                    nextTie -= 1
                    heap.push(reader)
                }
            }
            let firstClient = reader.current!.id.client
            if var written = currWrite {
                var curr = reader.current
                var iterated = false
                while let c = curr, c.end <= written.end, c.id.client >= written.id.client {
                    reader.at += 1
                    curr = reader.current
                    iterated = true
                }
                guard var c = curr, c.id.client == firstClient, !(iterated && c.id.clock > written.end) else { continue }
                if firstClient != written.id.client {
                    writer.write(written)
                    currWrite = c
                    reader.at += 1
                } else if written.end < c.id.clock {
                    if written.kind == .skip {
                        written.length = c.end - written.id.clock
                        currWrite = written
                    } else {
                        writer.write(written)
                        currWrite = Struct(kind: .skip, id: ID(client: firstClient, clock: written.end), length: c.id.clock - written.end)
                    }
                } else {
                    let diff = written.end - c.id.clock
                    if diff > 0 {
                        // A struct that ends by `written`'s end was passed over above, so `diff` is
                        // less than `c`'s length; a skip starts where the last written struct
                        // ended, so no struct of its client starts before it. Checked, not trusted.
                        guard diff < c.length, written.kind != .skip || diff <= written.length else {
                            throw YjsUpdateCheck.Invalid(reason: "structs of client \(c.id.client) overlap out of order at clock \(c.id.clock)", offset: 0)
                        }
                        if written.kind == .skip { written.length -= diff } else { c = slice(c, diff) }
                    }
                    // Garbage merges with garbage and a skip with a skip; an item never merges here.
                    if written.kind != .item, written.kind == c.kind {
                        written.length += c.length
                        currWrite = written
                    } else {
                        writer.write(written)
                        currWrite = c
                        reader.at += 1
                    }
                }
            } else {
                currWrite = reader.current
                reader.at += 1
            }
            while let next = reader.current, let w = currWrite, next.id.client == firstClient, next.id.clock == w.end, next.kind != .skip {
                writer.write(w)
                currWrite = next
                reader.at += 1
            }
        }
        if let w = currWrite { writer.write(w) }
    }

    /// A binary heap of readers, the one that `Reader.precedes` the others on top.
    struct ReaderHeap {
        var items: [Reader] = []

        // Thread: as `merge` (all of this type)
        mutating func push(_ r: Reader) {
            items.append(r)
            var i = items.count - 1
            while i > 0 {
                let parent = (i - 1) / 2
                guard Reader.precedes(items[i], items[parent]) else { break }
                items.swapAt(i, parent)
                i = parent
            }
        }

        mutating func pop() -> Reader? {
            guard !items.isEmpty else { return nil }
            items.swapAt(0, items.count - 1)
            let top = items.removeLast()
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < items.count, Reader.precedes(items[l], items[m]) { m = l }
                if r < items.count, Reader.precedes(items[r], items[m]) { m = r }
                guard m != i else { break }
                items.swapAt(i, m)
                i = m
            }
            return top
        }
    }

    /// The part of `s` from `diff` on (Yjs's `sliceStruct`): an item's origin becomes its own
    /// previous character, and its content is cut where Yjs cuts it.
    // Thread: as `merge`
    static func slice(_ s: Struct, _ diff: UInt64) -> Struct {
        var r = s
        r.id.clock += diff
        r.length -= diff
        guard s.kind == .item else { return r }
        r.origin = ID(client: s.id.client, clock: s.id.clock + diff - 1)
        var d = YjsUpdateCheck.Decoder(bytes: Array(s.content))
        var out: [UInt8] = []
        switch s.contentRef {
        case 1:  // deleted: a length
            Writer.uint(r.length, &out)
        case 4:  // a string, cut in UTF-16 units; a split surrogate pair becomes two U+FFFD, as in Yjs
            guard let text = try? d.string() else { return r }
            let units = Array(String(decoding: text, as: UTF8.self).utf16)
            let right = String(decoding: units[min(Int(diff), units.count)...], as: UTF16.self)
            Writer.string(Array(right.utf8), &out)
        case 2, 8:  // JSON strings or any values: the ones from `diff` on, as read
            guard let n = try? d.uint() else { return r }
            for _ in 0..<diff {
                if s.contentRef == 2 { try? d.skipString() } else { try? d.any(depth: 0) }
            }
            Writer.uint(n - diff, &out)
            out += d.bytes[d.at...]
        default:
            return r  // one clock long: never sliced
        }
        r.content = out[...]
        return r
    }

    /// Yjs's `mergeDeleteSets` and `writeDeleteSet`: each client's ranges from every update, in
    /// the order clients were first met, sorted by clock and overlapping ranges joined.
    // Thread: as `merge`
    static func writeDeletes(_ parsed: [Parsed], _ out: inout [UInt8]) {
        // Yjs takes a client's ranges from the first update that has it, then from each later
        // one in turn: the updates' ranges in update order, clients in the order first met.
        var order: [UInt64] = []
        var ranges: [UInt64: [(UInt64, UInt64)]] = [:]
        for p in parsed {
            for (client, own) in p.deletes {
                if ranges[client] == nil { order.append(client) }
                ranges[client, default: []] += own
            }
        }
        Writer.uint(UInt64(order.count), &out)
        for client in order {
            let sorted = ranges[client]!.enumerated().sorted { $0.element.0 != $1.element.0 ? $0.element.0 < $1.element.0 : $0.offset < $1.offset }.map(\.element)
            var merged: [(UInt64, UInt64)] = []
            for r in sorted {
                if let last = merged.last, last.0 + last.1 >= r.0 {
                    merged[merged.count - 1].1 = max(last.1, r.0 + r.1 - last.0)
                } else {
                    merged.append(r)
                }
            }
            Writer.uint(client, &out)
            Writer.uint(UInt64(merged.count), &out)
            for (clock, length) in merged { Writer.uint(clock, &out); Writer.uint(length, &out) }
        }
    }

    /// Yjs's `LazyStructWriter`: structs in runs of one client, each run its count, client and
    /// first clock, then the structs.
    struct Writer {
        var runs: [(count: Int, bytes: [UInt8])] = []
        var run: [UInt8] = []
        var client: UInt64 = 0
        var count = 0

        // Thread: as `merge` (all of this type)
        mutating func write(_ s: Struct) {
            if count > 0 && client != s.id.client { flush() }
            if count == 0 {
                client = s.id.client
                Writer.uint(s.id.client, &run)
                Writer.uint(s.id.clock, &run)
            }
            switch s.kind {
            case .gc: run.append(0); Writer.uint(s.length, &run)
            case .skip: run.append(10); Writer.uint(s.length, &run)
            case .item:
                run.append((s.contentRef & 0x1f) | (s.origin == nil ? 0 : 0x80) | (s.rightOrigin == nil ? 0 : 0x40) | (s.hasParentSub ? 0x20 : 0))
                if let o = s.origin { Writer.uint(o.client, &run); Writer.uint(o.clock, &run) }
                if let o = s.rightOrigin { Writer.uint(o.client, &run); Writer.uint(o.clock, &run) }
                if s.origin == nil && s.rightOrigin == nil { run += s.parent }
                run += s.content
            }
            count += 1
        }

        mutating func flush() {
            guard count > 0 else { return }
            runs.append((count, run))
            run = []
            count = 0
        }

        mutating func finish() -> [UInt8] {
            flush()
            var out: [UInt8] = []
            Writer.uint(UInt64(runs.count), &out)
            for r in runs { Writer.uint(UInt64(r.count), &out); out += r.bytes }
            return out
        }

        /// lib0's varuint: the relay's own writer.
        static func uint(_ v: UInt64, _ out: inout [UInt8]) { CollabRooms.writeVarUInt(v, &out) }

        static func string(_ bytes: [UInt8], _ out: inout [UInt8]) {
            uint(UInt64(bytes.count), &out)
            out += bytes
        }
    }
}
