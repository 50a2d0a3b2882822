import CAtomics
import CJack

/// Levels of what Podium sends to each JACK output port, for meters: the peak and the sum of
/// squares since a reader last took them. The callback raises them once a period from the
/// buffers it wrote (relaxed atomics in storage allocated with `RTState`); a reader (the stage
/// page's feedback thread) takes them — reads and zeroes — about 30 times a second.
///
/// The same loop keeps each port's last `scopeFrames` samples in a ring (the editor's scope):
/// one store a sample, then the count written with release ordering. A reader copies the
/// newest frames and checks the count again: a copy the callback overtook is thrown away.
package struct OutputLevels {
    let peaks: UnsafeMutablePointer<Double>
    let squares: UnsafeMutablePointer<Double>
    let frames: UnsafeMutablePointer<UInt64>
    let scope: UnsafeMutablePointer<Float>
    let written: UnsafeMutablePointer<UInt64>
    /// Samples a port's scope ring holds (a power of two).
    package static let scopeFrames = 4096

    // Thread: NRT (owner, with RTState)
    init(ports: Int) {
        peaks = .allocate(capacity: ports)
        peaks.initialize(repeating: 0, count: ports)
        squares = .allocate(capacity: ports)
        squares.initialize(repeating: 0, count: ports)
        frames = .allocate(capacity: ports)
        frames.initialize(repeating: 0, count: ports)
        scope = .allocate(capacity: ports * OutputLevels.scopeFrames)
        scope.initialize(repeating: 0, count: ports * OutputLevels.scopeFrames)
        written = .allocate(capacity: ports)
        written.initialize(repeating: 0, count: ports)
    }

    // Thread: NRT (owner, with RTState)
    func deallocate() {
        peaks.deallocate()
        squares.deallocate()
        frames.deallocate()
        scope.deallocate()
        written.deallocate()
    }

    /// Adds one period of an output port's buffer.
    // Thread: RT
    @_noLocks @_noAllocation
    func measure(_ buffer: UnsafeMutablePointer<Float>, port: Int, frames n: Int) {
        var peak: Float = 0
        var sum: Float = 0
        let ring = scope + port * OutputLevels.scopeFrames
        let mask = OutputLevels.scopeFrames - 1
        let at = Int(truncatingIfNeeded: _unsafePerformance { podium_counter_load(written + port) })
        for f in 0..<n {
            let x = buffer[f]
            let a = x < 0 ? -x : x
            if a > peak { peak = a }
            sum += x * x
            ring[(at &+ f) & mask] = x
        }
        _unsafePerformance {
            podium_level_raise(peaks + port, Double(peak))
            podium_level_add(squares + port, Double(sum))
            podium_counter_add(frames + port, UInt64(n))
            podium_counter_add_release(written + port, UInt64(n))
        }
    }

    /// A port's newest `count` samples (at most half the ring), oldest first; nil when the
    /// port wrote fewer yet, or when the callback overwrote them while they were copied.
    // Thread: NRT (any reader)
    package func newest(port: Int, count: Int) -> [Float]? {
        let count = min(max(count, 1), OutputLevels.scopeFrames / 2)
        let end = podium_counter_load_acquire(written + port)
        guard end >= UInt64(count) else { return nil }
        let ring = scope + port * OutputLevels.scopeFrames
        let mask = OutputLevels.scopeFrames - 1
        let first = Int(truncatingIfNeeded: end) &- count
        let copy = (0..<count).map { ring[(first &+ $0) & mask] }
        let after = podium_counter_load_acquire(written + port)
        return after - end <= UInt64(OutputLevels.scopeFrames - count) ? copy : nil
    }

    /// Peak and RMS (0…1 is full scale) of a port since the last take; zero when no period came.
    // Thread: the one reader (NRT)
    package func take(port: Int) -> (peak: Double, rms: Double) {
        let peak = podium_level_take(peaks + port)
        let sum = podium_level_take(squares + port)
        let n = podium_counter_take(frames + port)
        return (peak, n > 0 ? (sum / Double(n)).squareRoot() : 0)
    }
}
