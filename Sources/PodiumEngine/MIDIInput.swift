import Glibc

/// Host-implemented MIDI input (`-M0` with Csound's external MIDI callbacks): the bytes Csound
/// reads in the coming k-cycle, written by the performing thread before `csoundPerformKsmps`
/// and read by Csound's MIDI callback inside it. Preallocated; plain data.
struct MIDIInputQueue: ~Copyable {
    let bytes: UnsafeMutablePointer<UInt8>
    var count = 0
    var read = 0
    /// A note-on has been added since the engine started (see `RTEngine.untied`).
    var noteOnSeen = false
}

let midiQueueCapacity = 4096
/// The same, as something the audio thread can read without lazy global initialisation.
var midiQueueCapacityRT: Int { @inline(__always) get { 4096 } }

/// What Csound gets as an engine's host data: its console's shared state (the message
/// callback) and its MIDI input and output queues (the MIDI callbacks). Allocated by the engine, freed
/// after Csound is destroyed.
struct EngineHostData {
    let console: UnsafeMutablePointer<ConsoleShared>
    let midi: UnsafeMutablePointer<MIDIInputQueue>
    let midiOut: UnsafeMutablePointer<MIDIOutputQueue>
}

/// An engine's MIDI input queue (NRT owner: allocates and frees it).
public final class MIDIInput: @unchecked Sendable {
    let queue: UnsafeMutablePointer<MIDIInputQueue>

    // Thread: NRT (owner)
    public init() {
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: midiQueueCapacity)
        bytes.initialize(repeating: 0, count: midiQueueCapacity)
        queue = .allocate(capacity: 1)
        queue.initialize(to: MIDIInputQueue(bytes: bytes))
    }

    deinit {
        queue.pointee.bytes.deallocate()
        queue.deinitialize(count: 1)
        queue.deallocate()
    }

    /// A handle the audio thread keeps without reference counting.
    public var realtimeHandle: RealtimeMIDIInput { RealtimeMIDIInput(queue: queue) }
}

/// What the performing thread does with the queue: empty it, and add each k-cycle's messages.
public struct RealtimeMIDIInput: @unchecked Sendable {
    let queue: UnsafeMutablePointer<MIDIInputQueue>

    /// Empties the MIDI queue (before each k-cycle).
    // Thread: RT (the performing thread)
    @_noLocks @_noAllocation
    public func clear() {
        queue.pointee.count = 0
        queue.pointee.read = 0
    }

    /// Adds one MIDI message for the coming k-cycle. False when the queue is full.
    // Thread: RT (the performing thread)
    @_noLocks @_noAllocation
    public func add(_ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
        let at = queue.pointee.count
        guard count > 0, at + count <= midiQueueCapacityRT else { return false }
        let base = queue.pointee.bytes
        for i in 0..<count { base[at + i] = bytes[i] }
        queue.pointee.count = at + count
        if count >= 3, bytes[0] & 0xF0 == 0x90, bytes[2] != 0 { queue.pointee.noteOnSeen = true }
        return true
    }
}

/// Csound opens host MIDI input: its user data is this engine's MIDI queue.
// Thread: NRT (csoundStart)
let midiOpenCallback: @convention(c) (OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, UnsafePointer<CChar>?) -> Int32 = { cs, userData, _ in
    guard let cs, let userData, let host = CsoundAPI.hostData(cs) else { return -1 }
    userData.pointee = UnsafeMutableRawPointer(host.assumingMemoryBound(to: EngineHostData.self).pointee.midi)
    return 0
}

/// Csound reads host MIDI input once per k-cycle, on the performing thread: copy and return.
// Thread: RT (inside csoundPerformKsmps)
@_noLocks @_noAllocation
func midiRead(_ cs: OpaquePointer?, _ userData: UnsafeMutableRawPointer?, _ buf: UnsafeMutablePointer<UInt8>?, _ nBytes: Int32) -> Int32 {
    guard let userData, let buf else { return 0 }
    let q = userData.assumingMemoryBound(to: MIDIInputQueue.self)
    let n = min(Int(nBytes), q.pointee.count - q.pointee.read)
    guard n > 0 else { return 0 }
    let from = q.pointee.bytes + q.pointee.read
    for i in 0..<n { buf[i] = from[i] }
    q.pointee.read += n
    return Int32(n)
}
let midiReadCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = midiRead
