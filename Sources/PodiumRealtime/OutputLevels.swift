import CAtomics
import CJack

/// Levels of what Podium sends to each JACK output port, for meters: the peak and the sum of
/// squares since a reader last took them. The callback raises them once a period from the
/// buffers it wrote (relaxed atomics in storage allocated with `RTState`); a reader (the stage
/// page's feedback thread) takes them — reads and zeroes — about 30 times a second.
package struct OutputLevels {
    let peaks: UnsafeMutablePointer<Double>
    let squares: UnsafeMutablePointer<Double>
    let frames: UnsafeMutablePointer<UInt64>

    // Thread: NRT (owner, with RTState)
    init(ports: Int) {
        peaks = .allocate(capacity: ports)
        peaks.initialize(repeating: 0, count: ports)
        squares = .allocate(capacity: ports)
        squares.initialize(repeating: 0, count: ports)
        frames = .allocate(capacity: ports)
        frames.initialize(repeating: 0, count: ports)
    }

    // Thread: NRT (owner, with RTState)
    func deallocate() {
        peaks.deallocate()
        squares.deallocate()
        frames.deallocate()
    }

    /// Adds one period of an output port's buffer.
    // Thread: RT
    @_noLocks @_noAllocation
    func measure(_ buffer: UnsafeMutablePointer<Float>, port: Int, frames n: Int) {
        var peak: Float = 0
        var sum: Float = 0
        for f in 0..<n {
            let x = buffer[f]
            let a = x < 0 ? -x : x
            if a > peak { peak = a }
            sum += x * x
        }
        _unsafePerformance {
            podium_level_raise(peaks + port, Double(peak))
            podium_level_add(squares + port, Double(sum))
            podium_counter_add(frames + port, UInt64(n))
        }
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
