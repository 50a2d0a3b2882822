import CAtomics
import CJack

// Recording, the audio thread's half (JACK's capture_client.c pattern): after each k-cycle
// the callback copies what it played (and what it heard) into a preallocated ring; a disk
// thread drains it. Nothing here blocks: a block that does not fit is counted and dropped,
// and the disk thread sees the gap by the block's k-cycle and fills it with silence.

/// The header before each k-cycle's samples in the ring.
public struct TapBlockHeader: BitwiseCopyable, Sendable {
    /// The engine's absolute k-cycle these samples came from.
    public var cycle: Int64
    public var frames: Int32
    /// The engine generation (a rebuild restarts cycles at 0 with the next generation).
    public var generation: UInt32
}

/// The plain pointers the audio thread holds while a recording runs.
package struct RecordTapRT: @unchecked Sendable {
    let ring: UnsafeMutablePointer<jack_ringbuffer_t>
    /// One k-cycle, interleaved: outputs then inputs in each frame.
    let scratch: UnsafeMutablePointer<Float>
    let scratchFrames: Int
    let outputs: Int
    let inputs: Int
    /// K-cycles that did not fit in the ring (disk too slow).
    let overruns: UnsafeMutablePointer<UInt64>
    /// outputs + inputs.
    let channels: Int
}

/// A recording's ring, owned by the non-real-time side (created and freed there).
/// One producer (the audio thread), one consumer (the disk thread).
public final class RecordTap: @unchecked Sendable {
    package let rt: RecordTapRT
    public let outputs: Int
    public let inputs: Int
    public let sampleRate: Int
    private var readScratch: [UInt8]

    /// A ring holding `seconds` of audio (capture_client.c uses a few seconds too).
    // Thread: NRT
    public init(outputs: Int, inputs: Int, sampleRate: Int, seconds: Double = 4, maxKsmps: Int = 8192) {
        self.outputs = outputs
        self.inputs = inputs
        self.sampleRate = sampleRate
        let channels = outputs + inputs
        let bytes = Int(seconds * Double(sampleRate)) * channels * MemoryLayout<Float>.size + 64 * 1024
        guard let ring = jack_ringbuffer_create(bytes) else { fatalError("jack_ringbuffer_create(\(bytes)) failed: out of memory") }
        Ring<UInt8>.makeResident(ring)
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: maxKsmps * max(channels, 1))
        scratch.initialize(repeating: 0, count: maxKsmps * max(channels, 1))
        let overruns = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        overruns.initialize(to: 0)
        rt = RecordTapRT(ring: ring, scratch: scratch, scratchFrames: maxKsmps, outputs: outputs, inputs: inputs, overruns: overruns, channels: channels)
        readScratch = []
    }

    deinit {
        jack_ringbuffer_free(rt.ring)
        rt.scratch.deallocate()
        rt.overruns.deallocate()
    }

    /// K-cycles the audio thread could not hand over (the disk thread fell behind).
    public var overruns: UInt64 { podium_counter_load(rt.overruns) }

    /// The next k-cycle block, if one is complete: its header, and the interleaved samples
    /// (outputs then inputs per frame) appended to `samples` after clearing it.
    // Thread: the disk thread (the one consumer)
    public func nextBlock(into samples: inout [Float]) -> TapBlockHeader? {
        let headerSize = MemoryLayout<TapBlockHeader>.stride
        guard jack_ringbuffer_read_space(rt.ring) >= headerSize else { return nil }
        var header = TapBlockHeader(cycle: 0, frames: 0, generation: 0)
        _ = withUnsafeMutableBytes(of: &header) { jack_ringbuffer_peek(rt.ring, $0.baseAddress!.assumingMemoryBound(to: CChar.self), headerSize) }
        let count = Int(header.frames) * rt.channels
        let bytes = count * MemoryLayout<Float>.size
        // The producer writes header and samples in one call, but be strict anyway.
        guard jack_ringbuffer_read_space(rt.ring) >= headerSize + bytes else { return nil }
        jack_ringbuffer_read_advance(rt.ring, headerSize)
        samples.removeAll(keepingCapacity: true)
        samples.append(contentsOf: repeatElement(0, count: count))
        _ = samples.withUnsafeMutableBytes { jack_ringbuffer_read(rt.ring, $0.baseAddress!.assumingMemoryBound(to: CChar.self), bytes) }
        return header
    }
}

/// Hands one k-cycle to the disk thread: header and samples in one ring write, or nothing.
// Thread: RT
@_noLocks @_noAllocation
func writeTap(_ tap: RecordTapRT, cycle: Int64, frames: Int, generation: UInt32) {
    let headerSize = MemoryLayout<TapBlockHeader>.stride
    let bytes = frames * tap.channels * MemoryLayout<Float>.size
    _unsafePerformance {
        if jack_ringbuffer_write_space(tap.ring) < headerSize + bytes {
            podium_counter_add(tap.overruns, 1)
            return
        }
        var header = TapBlockHeader(cycle: cycle, frames: Int32(frames), generation: generation)
        withUnsafeBytes(of: &header) { _ = jack_ringbuffer_write(tap.ring, $0.baseAddress!.assumingMemoryBound(to: CChar.self), headerSize) }
        _ = jack_ringbuffer_write(tap.ring, UnsafeRawPointer(tap.scratch).assumingMemoryBound(to: CChar.self), bytes)
    }
}
