import PodiumEngine
import Synchronization

// The callback's half of the beat clock (`BeatClock`, owned by the callback in `RTState.clock`):
// changes from commands, the journal record of each re-anchoring, and the snapshot other
// threads read (a sequence lock the callback never waits on).

/// Applies a `.clock` command: tempo, quantum, position, running (each when given).
// Thread: RT
@_noLocks @_noAllocation
func applyClockChange(_ s: UnsafeMutablePointer<RTState>, _ command: Command) {
    let tempo = command.pfields[0], quantum = command.pfields[1]
    let beat = command.pfields[2], running = command.pfields[3]
    if tempo > 0 {
        s.pointee.clock.setTempo(tempo)
        s.pointee.linkTempoToCommit = true  // peers follow (LinkSync.swift)
    }
    if quantum > 0 { s.pointee.clock.setQuantum(quantum) }
    if beat >= 0 { s.pointee.clock.locate(beat) }
    // With Link start/stop sync a start or stop goes to the session (LinkStartStop.swift).
    if running >= 0, !linkTakesRunning(s, running > 0) { s.pointee.clock.setRunning(running > 0) }
    reportClock(s, id: command.id)
}

/// Journals the clock's state as of the start of the current k-cycle (a replay sets it there).
// Thread: RT (or NRT while no callback can run)
@_noLocks @_noAllocation
func reportClock(_ s: UnsafeMutablePointer<RTState>, id: UInt64 = 0) {
    var record = Applied(kind: .clock, id: id, cycle: s.pointee.cycle, frame: 0)
    let state = s.pointee.clock.state
    record.command.kind = .clock
    record.command.count = 5
    record.command.pfields[0] = state.tempo
    record.command.pfields[1] = state.quantum
    record.command.pfields[2] = state.beat
    record.command.pfields[3] = state.running ? 1 : 0
    record.command.pfields[4] = state.rate
    report(s, record)
}

/// Publishes the beat at JACK frame `frame` (the first frame after this period) for other threads.
// Thread: RT
@_noLocks @_noAllocation
func publishClock(_ s: UnsafeMutablePointer<RTState>, frame: Int64) {
    let c = s.pointee.clock
    s.pointee.clockPublished.sequence.add(1, ordering: .relaxed)  // odd: being written
    atomicMemoryFence(ordering: .releasing)
    s.pointee.clockPublished.tempo.store(c.tempo.bitPattern, ordering: .relaxed)
    s.pointee.clockPublished.rate.store(c.rate.bitPattern, ordering: .relaxed)
    s.pointee.clockPublished.quantum.store(c.quantum.bitPattern, ordering: .relaxed)
    s.pointee.clockPublished.beat.store(c.beat.bitPattern, ordering: .relaxed)
    s.pointee.clockPublished.frame.store(frame, ordering: .relaxed)
    s.pointee.clockPublished.running.store(c.running, ordering: .relaxed)
    s.pointee.clockPublished.sampleRate.store(c.sampleRate.bitPattern, ordering: .relaxed)
    s.pointee.clockPublished.sequence.add(1, ordering: .releasing)  // even: complete
}

/// The clock as the callback last published it, with the JACK frame it holds at.
public struct ClockSnapshot: Sendable, Equatable {
    public var tempo: Double
    public var quantum: Double
    /// The beat at `frame`.
    public var beat: Double
    public var frame: Int64
    public var running: Bool
    public var sampleRate: Double
    /// The clock's rate trim (Ableton Link; 1 otherwise): beats per frame are tempo × rate / 60 / sr.
    public var rate: Double = 1

    /// The beat at another JACK frame, at this tempo.
    public func beat(atFrame f: Int64) -> Double {
        running ? beat + Double(f - frame) * tempo * rate / (60 * sampleRate) : beat
    }

    /// The JACK frame at which `target` falls, at this tempo.
    public func frame(ofBeat target: Double) -> Double {
        Double(frame) + (target - beat) * 60 * sampleRate / (tempo * rate)
    }
}

/// The published clock: written by the callback once a period, read by anyone.
package struct PublishedClock: ~Copyable {
    let sequence = Atomic<UInt64>(0)
    let tempo = Atomic<UInt64>(BeatClock.defaultTempo.bitPattern)
    let rate = Atomic<UInt64>(1.0.bitPattern)
    let quantum = Atomic<UInt64>(BeatClock.defaultQuantum.bitPattern)
    let beat = Atomic<UInt64>(0)
    let frame = Atomic<Int64>(0)
    let running = Atomic<Bool>(true)
    let sampleRate = Atomic<UInt64>(48000.0.bitPattern)

    /// A consistent copy (retried while the callback writes, which takes microseconds).
    // Thread: NRT (any)
    package borrowing func read() -> ClockSnapshot {
        while true {
            let before = sequence.load(ordering: .acquiring)
            let snapshot = ClockSnapshot(tempo: Double(bitPattern: tempo.load(ordering: .relaxed)),
                                         quantum: Double(bitPattern: quantum.load(ordering: .relaxed)),
                                         beat: Double(bitPattern: beat.load(ordering: .relaxed)),
                                         frame: frame.load(ordering: .relaxed), running: running.load(ordering: .relaxed),
                                         sampleRate: Double(bitPattern: sampleRate.load(ordering: .relaxed)),
                                         rate: Double(bitPattern: rate.load(ordering: .relaxed)))
            atomicMemoryFence(ordering: .acquiring)
            if before & 1 == 0, sequence.load(ordering: .relaxed) == before { return snapshot }
        }
    }
}
