import Glibc
import PodiumRealtime
import Synchronization

/// The last inputs that reached the engine (commands as posted, orchestra code as compiled),
/// kept in memory allocated once so that a fatal-signal handler can print them without
/// allocating or locking: "what input preceded the crash".
///
/// Writers: any NRT thread (producers, compiling threads). A slot being rewritten while the
/// handler reads it can print torn: it is a diagnostic, never data.
public enum RecentInputs {
    static let slots = 16
    static let slotBytes = 200
    /// slots × (2 length bytes + text), allocated on first use (`prepare` makes that early).
    nonisolated(unsafe) static let storage: UnsafeMutablePointer<UInt8> = {
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: slots * slotBytes)
        p.initialize(repeating: 0, count: slots * slotBytes)
        return p
    }()
    static let written = Atomic<Int>(0)

    /// Allocates the storage now (before a signal handler may read it).
    public static func prepare() { _ = storage }

    /// Notes one input (cut to fit a slot).
    // Thread: any NRT
    public static func note(_ text: String) {
        let index = written.add(1, ordering: .relaxed).oldValue % slots
        let slot = storage + index * slotBytes
        let bytes = Array(text.utf8.prefix(slotBytes - 2)).map { $0 == 10 ? 32 : $0 }  // one line each
        bytes.withUnsafeBufferPointer { (slot + 2).update(from: $0.baseAddress!, count: bytes.count) }
        slot[0] = UInt8(bytes.count & 255)
        slot[1] = UInt8(bytes.count >> 8)
    }

    /// A slot that holds a command (its kind and p-fields as numbers), not text: the first byte
    /// after the length, which UTF-8 text never has.
    static let commandMark: UInt8 = 0xFF

    /// Notes a score event or f statement: its kind and p-fields copied into a slot as numbers
    /// (no text is made on the way: a note's way through a surface pays for this after its ring
    /// write, a few times a millisecond in a fader flood); read back as its score line.
    // Thread: any NRT
    public static func note(_ command: Command) {
        let index = written.add(1, ordering: .relaxed).oldValue % slots
        let slot = storage + index * slotBytes
        let count = min(max(Int(command.count), 0), Command.maxPFields)
        slot[2] = commandMark
        slot[3] = command.kind == .event ? UInt8(ascii: "i") : UInt8(ascii: "f")
        slot[4] = UInt8(count)
        for i in 0..<count {
            UnsafeMutableRawPointer(slot + 8 + i * 8).storeBytes(of: command.pfields[i], as: Double.self)
        }
        let length = 6 + count * 8
        slot[0] = UInt8(length & 255)
        slot[1] = UInt8(length >> 8)
    }

    /// The text of slot `slot`, written piece by piece to `put` (no allocation): its text, or a
    /// command's score line (`i 1 0 0.3 550`), cut at `slotBytes - 2` bytes as text is.
    // Thread: any, including a signal handler
    static func read(_ slot: UnsafeMutablePointer<UInt8>, _ put: (UnsafePointer<UInt8>, Int) -> Void) {
        let length = min(Int(slot[0]) | Int(slot[1]) << 8, slotBytes - 2)
        guard length >= 3, slot[2] == commandMark else { return put(slot + 2, length) }
        var left = slotBytes - 2
        var text: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)  // a number's text: at most 24 bytes
        withUnsafeMutableBytes(of: &text) { b in
            let out = b.baseAddress!.assumingMemoryBound(to: UInt8.self)
            func emit(_ n: Int) {
                let n = min(n, left)
                if n > 0 { put(out, n) }
                left -= n
            }
            out[0] = slot[3]
            emit(1)
            for i in 0..<min(Int(slot[4]), Command.maxPFields) {
                out[0] = 32
                emit(1)
                let v = UnsafeRawPointer(slot + 8 + i * 8).loadUnaligned(as: Double.self)
                emit(NumberText.write(v, into: out))
            }
        }
    }

    /// The inputs kept, oldest first (for reports written by ordinary threads).
    public static var lines: [String] {
        let n = written.load(ordering: .relaxed)
        return (max(0, n - slots)..<n).map { i in
            var bytes: [UInt8] = []
            read(storage + (i % slots) * slotBytes) { bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: $1)) }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Writes the inputs kept, oldest first, one a line, to `fd`: for a signal handler
    /// (write(2) only, no allocation, no lock, once `prepare` has made the storage).
    // Thread: any, including a signal handler
    public static func write(to fd: Int32, prefix: StaticString) {
        let n = written.load(ordering: .relaxed)
        var i = n > slots ? n - slots : 0
        while i < n {
            _ = Glibc.write(fd, prefix.utf8Start, prefix.utf8CodeUnitCount)
            read(storage + (i % slots) * slotBytes) { _ = Glibc.write(fd, $0, $1) }
            _ = Glibc.write(fd, newline.utf8Start, 1)
            i += 1
        }
    }
    static var newline: StaticString { "\n" }
}

/// A number's text for a crash report, written where a signal handler may write it (no
/// allocation, no lock): a whole number's digits, else 15 significant digits without trailing
/// zeros, in exponent form (`1e-07`, `1.5e+20`) below 1e-4 or from 2^53: as InputCheck words
/// numbers (Swift's shortest form), except past 15 digits (`0.30000000000000004` reads `0.3`).
public enum NumberText {
    /// Writes `v`'s text to `out` (room for 24 bytes); returns its length.
    // Thread: any, including a signal handler
    public static func write(_ v: Double, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
        func put(_ c: UInt8) { out[n] = c; n += 1 }
        func putDigits(_ x: UInt64, count: Int) {  // exactly `count` digits
            var x = x
            for i in (0..<count).reversed() { out[n + i] = 48 + UInt8(x % 10); x /= 10 }
            n += count
        }
        if v.isNaN { for c in "NaN".utf8 { put(c) }; return n }
        if v < 0 { put(45) }
        let m = v.magnitude
        if m.isInfinite { for c in "inf".utf8 { put(c) }; return n }
        if m == m.rounded(.towardZero), m < 9_007_199_254_740_992 {  // whole, below 2^53
            let x = UInt64(m)
            var digits = 1, t = x
            while t >= 10 { t /= 10; digits += 1 }
            putDigits(x, count: digits)
            if m >= 1e15 { put(46); put(48) }  // "1000000000000000.0", as Swift writes it
            return n
        }
        // 15 significant digits: d = m × 10^(14 − e), with 10^e ≤ m < 10^(e + 1).
        func scaled(_ k: Int) -> Double { k > 300 ? m * 1e300 * Glibc.pow(10, Double(k - 300)) : m * Glibc.pow(10, Double(k)) }
        var e = Int(Glibc.floor(Glibc.log10(m)))
        if m < Glibc.pow(10, Double(e)) { e -= 1 } else if m >= Glibc.pow(10, Double(e + 1)) { e += 1 }
        var d = scaled(14 - e).rounded()
        if d >= 1e15 { d = 1e14; e += 1 }  // 9.99…95 rounded up to the next power of ten
        var digits = UInt64(d), significant = 15
        while significant > 1 && digits % 10 == 0 { digits /= 10; significant -= 1 }
        if e >= -4 && m < 9_007_199_254_740_992 {
            if e < 0 {
                put(48); put(46)
                for _ in 0..<(-e - 1) { put(48) }
                putDigits(digits, count: significant)
            } else {
                // e + 1 digits before the point (all of them when the number is shorter).
                let whole = e + 1
                var scratch = digits, scale: UInt64 = 1
                for _ in 0..<max(0, significant - whole) { scale *= 10 }
                let head = scratch / scale
                scratch %= scale
                var headDigits = whole
                if significant < whole { headDigits = significant }
                putDigits(head, count: headDigits)
                for _ in 0..<max(0, whole - significant) { put(48) }
                if significant > whole { put(46); putDigits(scratch, count: significant - whole) }
            }
        } else {
            var scale: UInt64 = 1
            for _ in 0..<(significant - 1) { scale *= 10 }
            putDigits(digits / scale, count: 1)
            if significant > 1 { put(46); putDigits(digits % scale, count: significant - 1) }
            put(101)
            put(e < 0 ? 45 : 43)
            let x = e.magnitude
            if x < 10 { put(48) }
            var digitsE = 1, t = x
            while t >= 10 { t /= 10; digitsE += 1 }
            putDigits(UInt64(x), count: digitsE)
        }
        return n
    }
}
