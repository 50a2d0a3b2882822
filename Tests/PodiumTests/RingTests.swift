import Glibc
import PodiumRealtime
import Testing

/// The rings between the threads are preallocated, and resident before either side uses them.
@Suite("Rings")
struct RingTests {
    @Test("a ring's pages are in memory when it is made, also where the lock is refused (RLIMIT_MEMLOCK): the audio thread never faults on a page of a ring it writes, and a performance's memory does not seem to grow as its rings fill")
    func resident() {
        // Larger together than the 8 MiB most accounts may lock: the later ones are refused the lock.
        let rings = (0..<6).map { _ in Ring<Command>(capacity: 4096) } + [Ring<Command>(capacity: 4096)]
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        for ring in rings {
            let storage = ring.storage
            let start = UInt(bitPattern: storage.baseAddress!) & ~UInt(page - 1)
            let length = Int(UInt(bitPattern: storage.baseAddress!) - start) + storage.count
            let pages = (length + page - 1) / page
            var vector = [UInt8](repeating: 0, count: pages)
            let rc = mincore(UnsafeMutableRawPointer(bitPattern: start), length, &vector)
            #expect(rc == 0)
            let missing = vector.filter { $0 & 1 == 0 }.count
            #expect(missing == 0, "\(missing) of \(pages) pages not in memory")
        }
    }
}
