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

    /// Notes a score event or f statement as its line ("i 2 0 0.01 0.5"), written straight into
    /// a slot: no line is joined or copied for it (a note's way through a surface pays for this after its
    /// ring write, a few times a millisecond in a fader flood).
    // Thread: any NRT
    public static func note(_ command: Command) {
        let index = written.add(1, ordering: .relaxed).oldValue % slots
        let slot = storage + index * slotBytes
        var at = 2
        func put(_ byte: UInt8) {
            guard at < slotBytes else { return }
            slot[at] = byte
            at += 1
        }
        put(command.kind == .event ? UInt8(ascii: "i") : UInt8(ascii: "f"))
        for i in 0..<min(Int(command.count), Command.maxPFields) {
            put(32)
            // InputCheck's words for a number (integers without ".0"): a short string is kept
            // inline, so this builds nothing on the heap.
            var text = InputCheck.describe(command.pfields[i])
            text.withUTF8 { for b in $0 { put(b) } }
        }
        let count = at - 2
        slot[0] = UInt8(count & 255)
        slot[1] = UInt8(count >> 8)
    }

    /// The inputs kept, oldest first (for reports written by ordinary threads).
    public static var lines: [String] {
        let n = written.load(ordering: .relaxed)
        return (max(0, n - slots)..<n).map { i in
            let slot = storage + (i % slots) * slotBytes
            let count = min(Int(slot[0]) | Int(slot[1]) << 8, slotBytes - 2)
            return String(decoding: UnsafeBufferPointer(start: slot + 2, count: count), as: UTF8.self)
        }
    }

    /// Writes the inputs kept, oldest first, one a line, to `fd`: for a signal handler
    /// (write(2) only, no allocation, no lock, once `prepare` has made the storage).
    // Thread: any, including a signal handler
    public static func write(to fd: Int32, prefix: StaticString) {
        let n = written.load(ordering: .relaxed)
        var i = n > slots ? n - slots : 0
        while i < n {
            let slot = storage + (i % slots) * slotBytes
            let count = min(Int(slot[0]) | Int(slot[1]) << 8, slotBytes - 2)
            _ = Glibc.write(fd, prefix.utf8Start, prefix.utf8CodeUnitCount)
            _ = Glibc.write(fd, slot + 2, count)
            _ = Glibc.write(fd, newline.utf8Start, 1)
            i += 1
        }
    }
    static var newline: StaticString { "\n" }
}
