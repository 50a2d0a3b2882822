import CJack
import Synchronization

/// A JACK client with one MIDI input port that records every message with its absolute JACK
/// frame (the cycle's first frame plus the event's offset), for benchmarks: MIDI clock ticks
/// against their ideal frames, notes against their k-cycles. Preallocated; the callback only writes.
public final class MidiCapture: @unchecked Sendable {
    public let client: OpaquePointer
    let state: UnsafeMutablePointer<MidiCaptureState>
    public static let capacity = 65536

    public init(server: String, name: String = "midi-capture") throws {
        guard let c = CaptureClient.openClient(name: name, server: server) else { throw TestFailure("MIDI capture could not connect to \(server)") }
        client = c
        state = .allocate(capacity: 1)
        state.initialize(to: MidiCaptureState(client: c, port: jack_port_register(c, "midi_in", JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsInput.rawValue), 0),
                                              frames: .allocate(capacity: MidiCapture.capacity), bytes: .allocate(capacity: MidiCapture.capacity * 3),
                                              sizes: .allocate(capacity: MidiCapture.capacity)))
        jack_set_process_callback(c, midiCaptureProcess, state)
        jack_activate(c)
    }

    deinit {
        jack_deactivate(client)
        jack_client_close(client)
        state.pointee.frames.deallocate()
        state.pointee.bytes.deallocate()
        state.pointee.sizes.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The port's full name, to connect a source to.
    public var portName: String { String(cString: jack_port_name(state.pointee.port)) }

    /// Connects `source` (an output port's full name) to this capture.
    public func connect(from source: String) throws {
        guard jack_connect(client, source, jack_port_name(state.pointee.port)) == 0 else { throw TestFailure("cannot connect \(source) to \(portName)") }
    }

    /// The messages recorded so far: absolute JACK frame and bytes (up to three).
    public var messages: [(frame: Int64, bytes: [UInt8])] {
        let n = state.pointee.count.load(ordering: .acquiring)
        return (0..<n).map { i in (state.pointee.frames[i], Array(UnsafeBufferPointer(start: state.pointee.bytes + i * 3, count: state.pointee.sizes[i]))) }
    }

}

struct MidiCaptureState: ~Copyable {
    let client: OpaquePointer
    let port: OpaquePointer?
    let frames: UnsafeMutablePointer<Int64>
    let bytes: UnsafeMutablePointer<UInt8>
    let sizes: UnsafeMutablePointer<Int>
    let count = Atomic<Int>(0)
}

// Thread: RT (the capture client's JACK thread)
@_noLocks @_noAllocation
func midiCaptureProcess(_ nframes: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    guard let arg else { return 0 }
    let s = arg.assumingMemoryBound(to: MidiCaptureState.self)
    guard let port = s.pointee.port, let buffer = _unsafePerformance({ jack_port_get_buffer(port, nframes) }) else { return 0 }
    let start = _unsafePerformance { Int64(jack_last_frame_time(s.pointee.client)) }
    let events = Int(_unsafePerformance { jack_midi_get_event_count(buffer) })
    var event = jack_midi_event_t()
    var n = s.pointee.count.load(ordering: .relaxed)
    for i in 0..<events where n < 65536 {
        guard _unsafePerformance({ jack_midi_event_get(&event, buffer, UInt32(i)) }) == 0, let bytes = event.buffer else { continue }
        s.pointee.frames[n] = start + Int64(event.time)
        let size = min(3, Int(event.size))
        for j in 0..<size { s.pointee.bytes[n * 3 + j] = bytes[j] }
        s.pointee.sizes[n] = size
        n += 1
    }
    s.pointee.count.store(n, ordering: .releasing)
    return 0
}
