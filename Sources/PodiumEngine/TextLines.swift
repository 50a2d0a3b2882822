import Glibc

/// Lines of text found by their bytes: the scans of orchestra text (declared instruments, an
/// opcode's mention) read only the lines that hold the word they look for, and pass over the
/// rest without making a Character or a String of them.
enum TextLines {
    /// The lines of `text` (split where Swift's `Character.isNewline` splits: LF, VT, FF, CR,
    /// NEL, LS, PS) that contain `needle`, in order, each as a Substring of the text.
    // Thread: any
    static func containing(_ needle: String, in text: String) -> [Substring] {
        guard !needle.isEmpty else { return text.split(whereSeparator: \.isNewline) }
        var ranges: [Range<Int>] = []
        let utf8 = text.utf8
        let found: Bool? = utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            let n = bytes.count
            let needleBytes = Array(needle.utf8)
            var start = 0
            while start < n {
                // The next occurrence from `start`; none: done.
                guard let at = find(needleBytes, in: bytes, from: start) else { break }
                // Its line: back and forward to a newline's bytes.
                var lo = at
                while lo > 0 && !newlineEnds(bytes, before: lo) { lo -= 1 }
                var hi = at
                while hi < n, newlineLength(bytes, at: hi) == 0 { hi += 1 }
                ranges.append(lo..<hi)
                start = hi
            }
            return true
        }
        guard found != nil else { return text.split(whereSeparator: \.isNewline).filter { $0.contains(needle) } }
        // Byte offsets back to the text's indices (each is on a scalar boundary: after a newline's
        // bytes, or at one).
        return ranges.map { r in
            let lo = utf8.index(utf8.startIndex, offsetBy: r.lowerBound), hi = utf8.index(utf8.startIndex, offsetBy: r.upperBound)
            return text[lo..<hi]
        }
    }

    /// The first index at or after `from` where `needle` starts in `bytes`.
    // Thread: any
    static func find(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        let n = bytes.count, m = needle.count, first = needle[0]
        var i = from
        while i + m <= n {
            // memchr finds the first byte at C's speed.
            guard let p = memchr(bytes.baseAddress! + i, Int32(first), n - m + 1 - i) else { return nil }
            let at = bytes.baseAddress!.distance(to: p.assumingMemoryBound(to: UInt8.self))
            var k = 1
            while k < m && bytes[at + k] == needle[k] { k += 1 }
            if k == m { return at }
            i = at + 1
        }
        return nil
    }

    /// The length of a newline's bytes at `i` (0: none there).
    // Thread: any
    @inline(__always)
    static func newlineLength(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        let c = b[i]
        if c >= 0x0A && c <= 0x0D { return 1 }
        if c == 0xC2, i + 1 < b.count, b[i + 1] == 0x85 { return 2 }
        if c == 0xE2, i + 2 < b.count, b[i + 1] == 0x80, b[i + 2] == 0xA8 || b[i + 2] == 0xA9 { return 3 }
        return 0
    }

    /// Whether a newline's bytes end just before `i`.
    // Thread: any
    @inline(__always)
    static func newlineEnds(_ b: UnsafeBufferPointer<UInt8>, before i: Int) -> Bool {
        if i >= 1, newlineLength(b, at: i - 1) == 1 { return true }
        if i >= 2, newlineLength(b, at: i - 2) == 2 { return true }
        if i >= 3, newlineLength(b, at: i - 3) == 3 { return true }
        return false
    }
}
