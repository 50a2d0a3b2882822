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
    /// Room for a command's every p-field (8 header bytes, then the numbers), or a line of text.
    public static let slotBytes = 8 + Command.maxPFields * 8
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
            // Control bytes (a torn or corrupted slot) read as '?'; UTF-8 text stays as it is.
            return String(decoding: bytes.map { $0 < 32 || $0 == 127 ? 63 : $0 }, as: UTF8.self)
        }
    }

    /// Writes the inputs kept, oldest first, one a line, to `fd`: for a signal handler
    /// (write(2) only, no allocation, no lock, once `prepare` has made the storage). Every byte
    /// outside printable ASCII is written as '?': a slot torn or overwritten by a corrupted heap
    /// prints as garbage, never as control sequences.
    // Thread: any, including a signal handler
    public static func write(to fd: Int32, prefix: StaticString) {
        let n = written.load(ordering: .relaxed)
        var i = n > slots ? n - slots : 0
        while i < n {
            _ = Glibc.write(fd, prefix.utf8Start, prefix.utf8CodeUnitCount)
            read(storage + (i % slots) * slotBytes) { writePrintable(fd, $0, $1) }
            _ = Glibc.write(fd, newline.utf8Start, 1)
            i += 1
        }
    }

    /// Writes `count` bytes to `fd`, each outside printable ASCII (32...126) as '?', copied
    /// through a fixed buffer on the stack (no allocation).
    // Thread: any, including a signal handler
    static func writePrintable(_ fd: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) {
        var chunk: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &chunk) { b in
            let out = b.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var done = 0
            while done < count {
                let n = min(count - done, b.count)
                var k = 0
                while k < n {
                    let c = bytes[done + k]
                    out[k] = c >= 32 && c <= 126 ? c : 63
                    k += 1
                }
                _ = Glibc.write(fd, out, n)
                done += n
            }
        }
    }
    static var newline: StaticString { "\n" }
}
