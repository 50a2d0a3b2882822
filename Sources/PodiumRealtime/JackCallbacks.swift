import CJack
import PodiumEngine

// The JACK callbacks other than the process callback, their registration, and the port
// buffers the process callback fetches.

/// Each port's buffer for this callback, fetched once (nil where JACK returns none: counted,
/// and that port's copy is skipped).
// Thread: RT
@_noLocks @_noAllocation
func fetchBuffers(_ s: UnsafeMutablePointer<RTState>, _ ports: UnsafeMutablePointer<OpaquePointer?>,
                  into buffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>, count: Int, frames n: Int) {
    for c in 0..<count {
        buffers[c] = ports[c].flatMap { port in
            _unsafePerformance { jack_port_get_buffer(port, jack_nframes_t(n)) }?.assumingMemoryBound(to: Float.self)
        }
        if buffers[c] == nil && ports[c] != nil { counterAdd(s, .missingBuffers, 1) }
    }
}

/// Silence on every output (no engine, paused, or a misaligned period).
// Thread: RT
@_noLocks @_noAllocation
func silence(_ s: UnsafeMutablePointer<RTState>, frames n: Int) {
    for c in 0..<s.pointee.outCount { s.pointee.outBuffers[c]?.update(repeating: 0, count: n) }
}

// MARK: other JACK callbacks (they only set flags and counters)

/// JACK's xrun callback.
// Thread: JACK notification thread (NRT), but kept lock-free all the same
@_noLocks @_noAllocation
package func podiumXrun(_ arg: UnsafeMutableRawPointer?) -> Int32 {
    guard let arg else { return 0 }
    counterAdd(arg.assumingMemoryBound(to: RTState.self), .xruns, 1)
    return 0
}

/// JACK is going away: only set a flag; the driver closes the client from its own thread.
/// Registered both as the info shutdown callback (jackd2 calls only that one when both are set)
/// and as the plain one (`podiumPlainShutdown`): pipewire-jack 0.3.65 calls only the plain one.
// Thread: JACK's thread
@_noLocks @_noAllocation
package func podiumShutdown(_ code: jack_status_t, _ reason: UnsafePointer<CChar>?, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    arg.assumingMemoryBound(to: RTState.self).pointee.serverGone.store(true, ordering: .releasing)
}

/// `jack_on_shutdown`'s form of `podiumShutdown` (PipeWire's JACK calls only this one).
// Thread: JACK's thread
@_noLocks @_noAllocation
package func podiumPlainShutdown(_ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    arg.assumingMemoryBound(to: RTState.self).pointee.serverGone.store(true, ordering: .releasing)
}
