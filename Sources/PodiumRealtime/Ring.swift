import CAtomics
import CJack

/// A preallocated single-producer/single-consumer ring of fixed-size plain records,
/// on jack_ringbuffer (lock-free; one writer thread, one reader thread).
/// Overflow is counted, never waited on.
public final class Ring<Element: BitwiseCopyable>: @unchecked Sendable {
    let buffer: UnsafeMutablePointer<jack_ringbuffer_t>
    /// Records the producer could not write (ring full).
    let overflowCount: UnsafeMutablePointer<UInt64>
    public let capacity: Int

    // Thread: NRT (owner), before either side uses it
    public init(capacity: Int) {
        let bytes = capacity * MemoryLayout<Element>.stride + 1
        guard let rb = jack_ringbuffer_create(bytes) else { fatalError("jack_ringbuffer_create(\(bytes)) failed: out of memory") }
        Ring.makeResident(rb)
        buffer = rb
        self.capacity = capacity
        overflowCount = .allocate(capacity: 1)
        overflowCount.initialize(to: 0)
    }

    deinit {
        jack_ringbuffer_free(buffer)
        overflowCount.deallocate()
    }

    public var overflows: UInt64 { podium_counter_load(overflowCount) }

    /// Locks a ring's pages in memory, and writes every one of them: where the lock is refused
    /// (RLIMIT_MEMLOCK: 8 MiB here; `podium doctor` says how to raise it) the pages are still
    /// made now, not on first use. A ring's pages were otherwise first touched as it filled: in
    /// the callback for the rings it writes (a page fault there), and a performance's memory
    /// seemed to grow by 1–2 MiB a minute until each ring had wrapped once.
    // Thread: NRT (owner)
    static func makeResident(_ rb: UnsafeMutablePointer<jack_ringbuffer_t>) {
        _ = jack_ringbuffer_mlock(rb)
        if let data = rb.pointee.buf { UnsafeMutableRawPointer(data).initializeMemory(as: UInt8.self, repeating: 0, count: rb.pointee.size) }
    }

    /// The ring's bytes, for a test to ask which of its pages are in memory.
    public var storage: UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(start: buffer.pointee.buf, count: buffer.pointee.size)
    }

    /// A view the audio thread can hold without reference counting.
    public var raw: RawRing { RawRing(buffer: buffer, overflows: overflowCount, stride: MemoryLayout<Element>.stride) }

    /// Producer side (NRT). False when full (counted).
    // Thread: the one producer
    @discardableResult
    public func push(_ element: Element) -> Bool {
        var e = element
        return withUnsafeBytes(of: &e) { raw.write($0.baseAddress!) }
    }

    /// Producer side (NRT): every element or none, in one write, so the consumer sees them
    /// together (one drain takes them all). False when they do not all fit (counted once).
    // Thread: the one producer
    @discardableResult
    public func push(all elements: [Element]) -> Bool {
        guard !elements.isEmpty else { return true }
        return elements.withUnsafeBytes { raw.write($0.baseAddress!, count: elements.count) }
    }

    /// Consumer side (NRT).
    // Thread: the one consumer
    public func pop() -> Element? {
        var e: Element? = nil
        withUnsafeTemporaryAllocation(of: Element.self, capacity: 1) { p in
            if raw.read(into: UnsafeMutableRawPointer(p.baseAddress!)) { e = p[0] }
        }
        return e
    }
}

/// The ring as plain pointers, for the audio thread.
public struct RawRing: @unchecked Sendable {
    let buffer: UnsafeMutablePointer<jack_ringbuffer_t>
    let overflows: UnsafeMutablePointer<UInt64>
    let stride: Int

    /// Writes one record of `stride` bytes. False (and counted) when full.
    // Thread: the one producer (RT or NRT)
    @_noLocks @_noAllocation
    public func write(_ record: UnsafeRawPointer) -> Bool {
        _unsafePerformance {
            if jack_ringbuffer_write_space(buffer) < stride {
                podium_counter_add(overflows, 1)
                return false
            }
            return jack_ringbuffer_write(buffer, record.assumingMemoryBound(to: CChar.self), stride) == stride
        }
    }

    /// Writes `count` records at once (all or none). False (and counted) when they do not fit.
    // Thread: the one producer (NRT)
    public func write(_ records: UnsafeRawPointer, count: Int) -> Bool {
        let bytes = stride * count
        if jack_ringbuffer_write_space(buffer) < bytes {
            podium_counter_add(overflows, 1)
            return false
        }
        return jack_ringbuffer_write(buffer, records.assumingMemoryBound(to: CChar.self), bytes) == bytes
    }

    /// True when at least one record waits.
    // Thread: the one consumer (RT or NRT)
    public var hasRecord: Bool {
        @_noLocks @_noAllocation get { _unsafePerformance { jack_ringbuffer_read_space(buffer) >= stride } }
    }

    /// Reads one record of `stride` bytes. False when empty.
    // Thread: the one consumer (RT or NRT)
    @_noLocks @_noAllocation
    public func read(into record: UnsafeMutableRawPointer) -> Bool {
        _unsafePerformance {
            if jack_ringbuffer_read_space(buffer) < stride { return false }
            return jack_ringbuffer_read(buffer, record.assumingMemoryBound(to: CChar.self), stride) == stride
        }
    }
}
