import Synchronization

/// The audio thread's console ring: fixed slots that the producer overwrites when the consumer
/// falls behind, so an overflow loses the *oldest* messages, never blocks, and never fails the
/// printing thread. Each slot has a sequence number (a seqlock): odd while being written, then
/// `2 × index + 2`; the consumer copies a slot and keeps it only if the number was the expected
/// one before and after the copy, and counts what it missed.
///
/// One producer (the audio thread), one consumer (the console drainer).
struct ConsoleRing: ~Copyable {
    static var slotBytes: Int { 256 }
    /// Text per slot: the slot less attr (4) and length (2) and padding (2).
    static var textBytes: Int { slotBytes - 8 }

    let slots: Int
    let data: UnsafeMutableRawPointer
    let seqs: UnsafeMutablePointer<Atomic<UInt64>>
    /// Messages written so far (producer publishes after each).
    let published = Atomic<UInt64>(0)
    /// Producer-only: the next index to write.
    var head: UInt64 = 0
    /// Consumer-only: the next index to read; and messages it found overwritten.
    var tail: UInt64 = 0

    init(slots: Int) {
        self.slots = slots
        data = .allocate(byteCount: slots * ConsoleRing.slotBytes, alignment: 16)
        data.initializeMemory(as: UInt8.self, repeating: 0, count: slots * ConsoleRing.slotBytes)
        seqs = .allocate(capacity: slots)
        for i in 0..<slots { (seqs + i).initialize(to: Atomic(0)) }
    }

    deinit {
        data.deallocate()
        seqs.deinitialize(count: slots)
        seqs.deallocate()
    }

    /// Writes one message (split across slots when long). Never blocks.
    // Thread: RT (the one producer)
    @_noLocks @_noAllocation
    mutating func write(attr: Int32, text: UnsafePointer<CChar>, length: Int) {
        var offset = 0
        repeat {
            let n = min(length - offset, ConsoleRing.textBytes)
            let index = head
            let slot = Int(index % UInt64(slots))
            (seqs + slot).pointee.store(2 &* index &+ 1, ordering: .relaxed)
            atomicMemoryFence(ordering: .acquiringAndReleasing)
            let base = data + slot * ConsoleRing.slotBytes
            base.storeBytes(of: attr, toByteOffset: 0, as: Int32.self)
            base.storeBytes(of: UInt16(n), toByteOffset: 4, as: UInt16.self)
            (base + 8).copyMemory(from: text + offset, byteCount: n)
            (seqs + slot).pointee.store(2 &* index &+ 2, ordering: .releasing)
            head = index &+ 1
            published.store(head, ordering: .releasing)
            offset += n
        } while offset < length
    }

    /// Reads every message still in the ring, in order; returns how many were lost.
    // Thread: the one consumer (NRT)
    mutating func read(_ body: (Int32, UnsafeRawBufferPointer) -> Void) -> UInt64 {
        var lost: UInt64 = 0
        let end = published.load(ordering: .acquiring)
        if end &- tail > UInt64(slots) {
            lost += end &- UInt64(slots) &- tail
            tail = end &- UInt64(slots)
        }
        var scratch = [UInt8](repeating: 0, count: ConsoleRing.slotBytes)
        while tail < end {
            let slot = Int(tail % UInt64(slots))
            let expected = 2 &* tail &+ 2
            let before = (seqs + slot).pointee.load(ordering: .acquiring)
            let base = data + slot * ConsoleRing.slotBytes
            scratch.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: base, byteCount: ConsoleRing.slotBytes) }
            atomicMemoryFence(ordering: .acquiring)
            let after = (seqs + slot).pointee.load(ordering: .relaxed)
            tail &+= 1
            guard before == expected, after == expected else { lost += 1; continue }
            scratch.withUnsafeBytes { b in
                let attr = b.loadUnaligned(fromByteOffset: 0, as: Int32.self)
                let n = Int(b.loadUnaligned(fromByteOffset: 4, as: UInt16.self))
                body(attr, UnsafeRawBufferPointer(rebasing: b[8..<(8 + min(n, ConsoleRing.textBytes))]))
            }
        }
        return lost
    }
}
