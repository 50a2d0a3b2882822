import CJack
import Synchronization

/// A JACK client with one MIDI output port that plays a list of messages at JACK frames
/// (a keyboard, for tests). The list is fixed before `play`; the process callback only reads it.
public final class MidiSender: @unchecked Sendable {
    public let client: OpaquePointer
    let state: UnsafeMutablePointer<MidiSenderState>

    public init(server: String, name: String = "keyboard") throws {
        guard let c = CaptureClient.openClient(name: name, server: server) else { throw TestFailure("MIDI sender could not connect to \(server)") }
        client = c
        state = .allocate(capacity: 1)
        state.initialize(to: MidiSenderState(client: c, port: jack_port_register(c, "midi_out", JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsOutput.rawValue), 0),
                                             frames: .allocate(capacity: 1024), bytes: .allocate(capacity: 1024 * 3),
                                             sizes: .allocate(capacity: 1024)))
        jack_set_process_callback(c, midiSenderProcess, state)
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

    public func connect(to port: String) throws {
        guard jack_connect(client, jack_port_name(state.pointee.port), port) == 0 else { throw TestFailure("cannot connect MIDI to \(port)") }
    }

    // Thread: NRT (the test), before the messages are due
    /// Plays messages of one to three bytes at absolute JACK frames (ascending). Call once.
    public func play(_ messages: [(frame: Int64, bytes: [UInt8])]) {
        for (i, m) in messages.prefix(1024).enumerated() {
            state.pointee.frames[i] = m.frame
            for j in 0..<3 { state.pointee.bytes[i * 3 + j] = j < m.bytes.count ? m.bytes[j] : 0 }
            state.pointee.sizes[i] = max(1, min(3, m.bytes.count))
        }
        state.pointee.count.store(min(messages.count, 1024), ordering: .releasing)
    }

    /// Messages written so far.
    public var sent: Int { state.pointee.next.load(ordering: .acquiring) }

    public var frameTime: Int64 { Int64(jack_frame_time(client)) }
}

struct MidiSenderState: ~Copyable {
    let client: OpaquePointer
    let port: OpaquePointer?
    let frames: UnsafeMutablePointer<Int64>
    let bytes: UnsafeMutablePointer<UInt8>
    let sizes: UnsafeMutablePointer<Int>
    let count = Atomic<Int>(0)
    let next = Atomic<Int>(0)
}

/// Writes the messages due in this period. Plain data only: the compiler checks it.
// Thread: RT (the sender's JACK process thread)
@_noLocks @_noAllocation
private func midiSenderProcess(_ n: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    guard let arg else { return 0 }
    let s = arg.assumingMemoryBound(to: MidiSenderState.self)
    guard let port = s.pointee.port, let buffer = _unsafePerformance({ jack_port_get_buffer(port, n) }) else { return 0 }
    _unsafePerformance { jack_midi_clear_buffer(buffer) }
    let start = _unsafePerformance { Int64(jack_last_frame_time(s.pointee.client)) }
    let count = s.pointee.count.load(ordering: .acquiring)
    var i = s.pointee.next.load(ordering: .relaxed)
    while i < count {
        let f = s.pointee.frames[i]
        if f >= start + Int64(n) { break }
        let offset = UInt32(max(0, f - start))
        _ = _unsafePerformance { jack_midi_event_write(buffer, offset, s.pointee.bytes + i * 3, s.pointee.sizes[i]) }
        i += 1
    }
    s.pointee.next.store(i, ordering: .releasing)
    return 0
}
