/// A note over OSC — `/podium/event` or `/csound/event` whose arguments are all numbers (type
/// tags i, h, f, d) in a plain message — read where it lies in the receive buffer: no liblo
/// message, no Swift string or array before its p-fields. Anything else (a bundle, another
/// address, a string, a boolean, a blob, a malformed datagram, a count of numbers that is not a
/// note's) is nil and goes to liblo, the parser of record, whose path words its errors. A note read
/// here is played by the same `OSCSurface.post` as liblo's path, with the same errors.
///
/// liblo has no reading that allocates nothing (`lo_message_deserialise` mallocs the message, a
/// copy of its data and its argument vector; its validation functions are not public). The rules
/// here are liblo 0.31's (`lo_message_deserialise`, `lo_validate_string`, `lo_validate_arg`): a
/// string ends with a NUL inside the datagram and is zero-padded to a multiple of 4; the type tags
/// start with a comma; i and f take 4 bytes, h and d 8, big-endian; the arguments fill the
/// datagram exactly. The tests hold it to liblo's own reading of mutated datagrams.
// Thread: NRT (the OSC thread)
enum NumericMessage {
    /// The addresses read here (the same route as liblo's path: `OSCSurface.event`).
    static let addresses = ["/podium/event", "/csound/event"]

    /// Reads `datagram` into `values`; the index of its address in `addresses` and the count of
    /// values, or nil when it is not such a note or has more than `values` holds.
    static func read(_ datagram: UnsafeRawBufferPointer, into values: UnsafeMutableBufferPointer<Double>) -> (address: Int, count: Int)? {
        guard let (path, pathEnd) = paddedString(datagram, at: 0), let address = addresses.firstIndex(where: { equal(datagram, path, $0) }),
              let (tags, tagsEnd) = paddedString(datagram, at: pathEnd) else { return nil }
        guard tags.count >= 1, datagram[tags.lowerBound] == UInt8(ascii: ","), tags.count - 1 <= values.count else { return nil }
        var at = tagsEnd
        var count = 0
        for t in (tags.lowerBound + 1)..<tags.upperBound {
            // The tag first: any other than i, f, h, d is not a note's (before its size is asked).
            let tag = datagram[t]
            let size: Int
            switch tag {
            case UInt8(ascii: "i"), UInt8(ascii: "f"): size = 4
            case UInt8(ascii: "h"), UInt8(ascii: "d"): size = 8
            default: return nil
            }
            guard at + size <= datagram.count else { return nil }
            var bits: UInt64 = 0
            for b in at..<(at + size) { bits = bits << 8 | UInt64(datagram[b]) }
            switch tag {
            case UInt8(ascii: "i"): values[count] = Double(Int32(bitPattern: UInt32(bits)))
            case UInt8(ascii: "f"): values[count] = Double(Float(bitPattern: UInt32(bits)))
            case UInt8(ascii: "h"): values[count] = Double(Int64(bitPattern: bits))
            default: values[count] = Double(bitPattern: bits)  // d
            }
            count += 1
            at += size
        }
        return at == datagram.count ? (address, count) : nil
    }

    /// The bytes of the string at `start` before its NUL, and the end of its field, when the NUL
    /// lies inside the datagram and the padding after it to a multiple of 4 is zeros and inside
    /// it too.
    static func paddedString(_ d: UnsafeRawBufferPointer, at start: Int) -> (Range<Int>, end: Int)? {
        var end = start
        while end < d.count, d[end] != 0 { end += 1 }
        guard end < d.count else { return nil }
        let padded = start + (end - start) / 4 * 4 + 4
        guard padded <= d.count else { return nil }
        for i in end..<padded where d[i] != 0 { return nil }
        return (start..<end, padded)
    }

    static func equal(_ d: UnsafeRawBufferPointer, _ range: Range<Int>, _ s: String) -> Bool {
        var s = s
        return s.withUTF8 { u in u.count == range.count && zip(u, d[range]).allSatisfy { $0 == $1 } }
    }
}
