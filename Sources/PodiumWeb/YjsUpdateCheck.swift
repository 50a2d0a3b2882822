import Foundation

/// A Yjs 13 update (encoding v1, as y-protocols' sync messages carry it), read the way Yjs reads
/// one (`readClientsStructRefs`, the content readers, `readDeleteSet`, lib0's `readAny`) without
/// applying it: the relay (`CollabRooms`) stores and forwards only updates a page can decode.
/// Strings must be UTF-8 (lib0 reads them with a fatal TextDecoder). Stricter than Yjs where
/// Yjs is lenient by accident: a read past the end (lib0's `readUint8`
/// returns `undefined` there), bytes left over after the delete set, a JSON content that does
/// not parse. Values are bounded as lib0 bounds them (integers ≤ 2^53); nested `any` values at
/// most 100 deep (no page writes deeper; a crafted one would otherwise recurse without end).
enum YjsUpdateCheck {
    struct Invalid: Error, CustomStringConvertible {
        let reason: String
        let offset: Int
        var description: String { "\(reason) at byte \(offset)" }
    }

    /// Throws unless `update` decodes as a whole.
    // Thread: Hummingbird's event loops (under the rooms' lock)
    static func check(_ update: [UInt8]) throws(Invalid) {
        var d = Decoder(bytes: update)
        let clients = try d.count("clients")
        var previous: UInt64? = nil
        for _ in 0..<clients {
            let structs = try d.count("structs")
            // Yjs writes each client once, the highest first (its encoder sorts them; so does
            // mergeUpdates); the relay's merge rests on that order.
            let client = try d.uint()
            if let previous, client >= previous { throw d.invalid("client \(client) after client \(previous): not the order Yjs writes") }
            previous = client
            var clock = try d.uint()
            for _ in 0..<structs {
                let info = try d.byte()
                switch info & 0x1f {
                case 0, 10:  // a GC, a Skip: a length
                    clock += try d.uint()
                case let ref:
                    let hasOrigin = info & 0x80 != 0, hasRightOrigin = info & 0x40 != 0
                    if hasOrigin { _ = try d.uint(); _ = try d.uint() }
                    if hasRightOrigin { _ = try d.uint(); _ = try d.uint() }
                    if !hasOrigin && !hasRightOrigin {
                        if try d.uint() == 1 { try d.skipString() } else { _ = try d.uint(); _ = try d.uint() }  // a root type's name, or a parent ID
                        if info & 0x20 != 0 { try d.skipString() }  // the key in a map
                    }
                    clock += try content(ref, &d)
                }
                guard clock <= Decoder.maxSafe else { throw d.invalid("a clock past 2^53") }
            }
        }
        // The delete set: per client, (clock, length) ranges.
        let deleting = try d.count("delete-set clients")
        for _ in 0..<deleting {
            _ = try d.uint()
            let ranges = try d.count("deleted ranges")
            for _ in 0..<ranges { _ = try d.uint(); _ = try d.uint() }
        }
        guard d.at == update.count else { throw d.invalid("\(update.count - d.at) bytes after the delete set") }
    }

    /// An item's content (`contentRefs` in Yjs's Item.js); returns its length in clock units.
    static func content(_ ref: UInt8, _ d: inout Decoder) throws(Invalid) -> UInt64 {
        switch ref {
        case 1: return try d.uint()  // deleted: a length
        case 2:  // JSON: strings, each JSON or "undefined"
            let n = try d.count("JSON values")
            for _ in 0..<n {
                let text = try d.string()
                if !text.elementsEqual("undefined".utf8) { try d.json(text) }
            }
            return n
        case 3: _ = try d.buffer(); return 1  // binary
        case 4:  // a string: its length in UTF-16 units, as JavaScript counts it
            let text = try d.string()
            return UInt64(String(decoding: text, as: UTF8.self).utf16.count)
        case 5: try d.json(try d.string()); return 1  // an embed
        case 6: try d.skipString(); try d.json(try d.string()); return 1  // a format: key, JSON value
        case 7:  // a type: its reference, and an XML element's or hook's name
            let type = try d.uint()
            guard type <= 6 else { throw d.invalid("type reference \(type)") }
            if type == 3 || type == 5 { try d.skipString() }
            return 1
        case 8:  // any values
            let n = try d.count("values")
            for _ in 0..<n { try d.any(depth: 0) }
            return n
        case 9: try d.skipString(); try d.any(depth: 0); return 1  // a subdocument: guid, options
        default: throw d.invalid("content reference \(ref)")
        }
    }

    /// lib0's decoding, throwing where lib0 throws and where it reads past the end.
    struct Decoder {
        static let maxSafe: UInt64 = 1 << 53
        let bytes: [UInt8]
        var at = 0

        func invalid(_ reason: String) -> Invalid { Invalid(reason: reason, offset: at) }

        mutating func byte() throws(Invalid) -> UInt8 {
            guard at < bytes.count else { throw invalid("the update ends early") }
            defer { at += 1 }
            return bytes[at]
        }

        /// readVarUint: 7 bits a byte, low first, at most 2^53.
        mutating func uint() throws(Invalid) -> UInt64 {
            var value: UInt64 = 0, shift: UInt64 = 0
            while true {
                let b = try byte()
                if shift < 56 { value |= UInt64(b & 0x7f) << shift }
                if b & 0x80 == 0 { break }
                shift += 7
                guard value <= Decoder.maxSafe, shift <= 56 else { throw invalid("an integer out of range") }
            }
            guard value <= Decoder.maxSafe else { throw invalid("an integer out of range") }
            return value
        }

        /// readVarInt: a sign and 6 bits, then 7 bits a byte.
        mutating func int() throws(Invalid) {
            var b = try byte()
            var value = UInt64(b & 0x3f), shift: UInt64 = 6
            while b & 0x80 != 0 {
                b = try byte()
                if shift < 57 { value |= UInt64(b & 0x7f) << shift }
                shift += 7
                guard value <= Decoder.maxSafe, shift <= 62 else { throw invalid("an integer out of range") }
            }
        }

        /// A count of things that each take at least one byte: more than the bytes left is a lie.
        mutating func count(_ what: String) throws(Invalid) -> UInt64 {
            let n = try uint()
            guard n <= UInt64(bytes.count - at) else { throw invalid("\(n) \(what) in \(bytes.count - at) bytes") }
            return n
        }

        /// readVarUint8Array: a length, then bytes.
        mutating func buffer() throws(Invalid) -> ArraySlice<UInt8> {
            let n = try uint()
            guard n <= UInt64(bytes.count - at) else { throw invalid("\(n) bytes in \(bytes.count - at)") }
            defer { at += Int(n) }
            return bytes[at..<(at + Int(n))]
        }

        /// readVarString: bytes that are UTF-8 (lib0 decodes them with a fatal TextDecoder).
        mutating func string() throws(Invalid) -> ArraySlice<UInt8> {
            let start = at
            let text = try buffer()
            guard String(validating: text, as: UTF8.self) != nil else { at = start; throw invalid("a string that is not UTF-8") }
            return text
        }

        mutating func skipString() throws(Invalid) { _ = try string() }

        func json(_ text: ArraySlice<UInt8>) throws(Invalid) {
            guard (try? JSONSerialization.jsonObject(with: Data(text), options: .fragmentsAllowed)) != nil else {
                throw invalid("content that is not JSON")
            }
        }

        /// lib0's readAny: a type byte from 127 down to 116, then the value.
        mutating func any(depth: Int) throws(Invalid) {
            guard depth < 100 else { throw invalid("values nested more than 100 deep") }
            switch try byte() {
            case 127, 126, 121, 120: return  // undefined, null, false, true
            case 125: try int()
            case 124: try skip(4)  // float32
            case 123, 122: try skip(8)  // float64, bigint64
            case 119: try skipString()
            case 116: _ = try buffer()
            case 118:  // an object: key, value pairs
                let n = try count("object entries")
                for _ in 0..<n { try skipString(); try any(depth: depth + 1) }
            case 117:
                let n = try count("array values")
                for _ in 0..<n { try any(depth: depth + 1) }
            case let t: throw invalid("value type \(t)")
            }
        }

        mutating func skip(_ n: Int) throws(Invalid) {
            guard bytes.count - at >= n else { throw invalid("the update ends early") }
            at += n
        }
    }
}
