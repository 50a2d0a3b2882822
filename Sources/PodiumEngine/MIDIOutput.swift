import Glibc

/// Host-implemented MIDI output (`-Q0` with Csound's external MIDI write callback): what the
/// orchestra's MIDI opcodes (`noteon`, `noteondur`, `midion`, `outkc`, `midiout`, …) sent during
/// one k-cycle, written by Csound's write callback inside `csoundPerformKsmps` and taken by the
/// performing thread right after it (the JACK callback writes it to `podium:midi_out` at the
/// k-cycle's frame; the replayer to a Standard MIDI File). Preallocated; plain data.
///
/// Csound 6.18 hands the host whole messages (its `send_midi_message`: one status byte and its
/// data bytes, never running status) and sends no SysEx (a status of 0xF0–0xF7 has no length in
/// its table and is dropped before the host sees it). Anything that is not a complete channel
/// message or a one-byte real-time message is refused here and counted.
struct MIDIOutputQueue: ~Copyable {
    let bytes: UnsafeMutablePointer<UInt8>
    /// Bytes held (messages back to back; each one's length follows from its status byte).
    var count = 0
    /// Messages that did not fit in this k-cycle, and messages refused (not channel or real-time).
    var overflowed: UInt64 = 0
    var refused: UInt64 = 0
}

/// Bytes a k-cycle's MIDI output may take: 1365 three-byte messages.
var midiOutputCapacityRT: Int { @inline(__always) get { 4096 } }

/// An engine's MIDI output queue (NRT owner: allocates and frees it).
public final class MIDIOutput: @unchecked Sendable {
    let queue: UnsafeMutablePointer<MIDIOutputQueue>

    // Thread: NRT (owner)
    public init() {
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: midiOutputCapacityRT)
        bytes.initialize(repeating: 0, count: midiOutputCapacityRT)
        queue = .allocate(capacity: 1)
        queue.initialize(to: MIDIOutputQueue(bytes: bytes))
    }

    deinit {
        queue.pointee.bytes.deallocate()
        queue.deinitialize(count: 1)
        queue.deallocate()
    }

    public var realtimeHandle: RealtimeMIDIOutput { RealtimeMIDIOutput(queue: queue) }
}

/// What the performing thread does with the queue: read the k-cycle's messages, then empty it.
public struct RealtimeMIDIOutput: @unchecked Sendable {
    let queue: UnsafeMutablePointer<MIDIOutputQueue>

    /// The bytes the last k-cycle sent (whole messages back to back) and how many.
    public var bytes: UnsafePointer<UInt8> { @_noLocks @_noAllocation get { UnsafePointer(queue.pointee.bytes) } }
    public var count: Int { @_noLocks @_noAllocation get { queue.pointee.count } }
    /// Counts since the engine started (the callback reports them).
    public var overflowed: UInt64 { @_noLocks @_noAllocation get { queue.pointee.overflowed } }
    public var refused: UInt64 { @_noLocks @_noAllocation get { queue.pointee.refused } }

    /// Empties the queue (after each k-cycle's messages were taken).
    // Thread: RT (the performing thread)
    @_noLocks @_noAllocation
    public func clear() { queue.pointee.count = 0 }

    /// The length of the message starting with `status` (0: not one Podium sends).
    // Thread: any
    @_noLocks @_noAllocation
    public static func length(status: UInt8) -> Int {
        switch status {
        case 0x80...0xBF, 0xE0...0xEF: return 3
        case 0xC0...0xDF: return 2
        case 0xF8...0xFF where status != 0xF9 && status != 0xFD: return 1  // real time: clock, start, continue, stop, sensing, reset
        default: return 0
        }
    }
}

/// Csound opens host MIDI output: its user data is this engine's output queue.
// Thread: NRT (csoundStart)
let midiOutOpenCallback: @convention(c) (OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, UnsafePointer<CChar>?) -> Int32 = { cs, userData, _ in
    guard let cs, let userData, let host = CsoundAPI.hostData(cs) else { return -1 }
    userData.pointee = UnsafeMutableRawPointer(host.assumingMemoryBound(to: EngineHostData.self).pointee.midiOut)
    return 0
}

/// Csound writes one MIDI message (inside `csoundPerformKsmps`, on the performing thread): copied
/// into the k-cycle's queue when whole and of a kind Podium sends; returns the bytes taken.
// Thread: RT (inside csoundPerformKsmps)
@_noLocks @_noAllocation
func midiWrite(_ cs: OpaquePointer?, _ userData: UnsafeMutableRawPointer?, _ buf: UnsafePointer<UInt8>?, _ nBytes: Int32) -> Int32 {
    guard let userData, let buf, nBytes > 0 else { return 0 }
    let q = userData.assumingMemoryBound(to: MIDIOutputQueue.self)
    let n = Int(nBytes)
    let length = RealtimeMIDIOutput.length(status: buf[0])
    var dataOK = true
    for i in 1..<max(1, n) where buf[i] >= 0x80 { dataOK = false }
    guard length == n, dataOK else {
        q.pointee.refused &+= 1
        return nBytes
    }
    guard q.pointee.count + n <= midiOutputCapacityRT else {
        q.pointee.overflowed &+= 1
        return nBytes
    }
    for i in 0..<n { q.pointee.bytes[q.pointee.count + i] = buf[i] }
    q.pointee.count += n
    return nBytes
}
let midiWriteCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int32) -> Int32 = midiWrite

/// Csound closes host MIDI output: nothing to free (the engine owns the queue).
let midiOutCloseCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = { _, _ in 0 }
