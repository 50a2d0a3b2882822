// The `beat` section: musical time measured from captured audio (dummy JACK, a frame-stamped
// capture client in the same process). Every number comes from the capture, the published
// clock and the applied-command stream of this run.
import Foundation
import PodiumEngine
import PodiumProbe
import PodiumHost
import PodiumRealtime
import PodiumSurfaces

/// instr 2: a step of p4 on output 1 (an exact onset, and a level that says which note it is).
/// instr 5: on output 2, how far `podium.beat` moved in this k-cycle beyond the step the previous
/// k-cycle's `podium.tempo` predicts (0 when the beat is continuous across tempo changes).
let beatOrchestra = """
nchnls = 2
0dbfs = 1
instr 2
  a1 linseg p4, p3, p4
  outs a1, a(0)
endin
instr 5
  kb chnget "podium.beat"
  kt chnget "podium.tempo"
  kprevb init -1
  kprevt init 0
  kerr = 0
  if kprevb >= 0 then
    kerr = kb - kprevb - kprevt * ksmps / (60 * sr)
  endif
  kprevb = kb
  kprevt = kt
  aerr = kerr
  outs a(0), aerr
endin
"""

/// Applied notes: the frame each started on (`Command.frame` as the callback applied it).
final class AppliedStarts: @unchecked Sendable {
    private let lock = NSLock()
    private var frames: [UInt64: Int64] = [:]
    private var clockChanges = 0
    // Thread: supervisor
    func add(_ a: Applied) {
        lock.withLock {
            if a.kind == .command { frames[a.id] = a.command.frame }
            if a.kind == .clock { clockChanges += 1 }
        }
    }
    func frame(of id: UInt64) -> Int64? { lock.withLock { frames[id] } }
    var clocks: Int { lock.withLock { clockChanges } }
}

// Thread: bench main
func beatDriver(_ server: TestJackServer, tempo: Double, log: AppliedStarts) throws -> JackDriver {
    var options = JackOptions(clientName: "podium", serverName: server.name, connect: false, ksmps: 64)
    options.tempo = tempo
    let driver = JackDriver(source: .text(orchestra: beatOrchestra, score: nil, name: "beat.orc"), jack: options)
    driver.onApplied = { log.add($0) }
    try driver.start()
    return driver
}

/// The first JACK frame at or after `beat`, from the clock Podium published (its tempo held
/// since the snapshot's anchor).
func idealFrame(_ c: ClockSnapshot, _ beat: Double) -> Int64 { Int64((c.frame(ofBeat: beat) - 1e-6).rounded(.up)) }

func seconds(beats: Double, _ c: ClockSnapshot) -> Double { beats * 60 / c.tempo }

// MARK: 1. quantized events

struct QuantizedRow {
    var period = 0, tempo = 0.0, events = 0, heard = 0, exact = 0
    var maxOff: Int64 = 0, meanOff = 0.0, path: Int64 = 0, xruns: UInt64 = 0, late: UInt64 = 0
}

/// `events` notes on beats 1/8 apart (off-grid fractions included), posted at once as `@beat`
/// commands; each onset against the first frame at or after its beat, less the capture path's
/// own latency (onset − the frame the callback applied the note on, measured here).
func quantizedRow(_ server: TestJackServer, _ driver: JackDriver, log: AppliedStarts, tempo: Double, events: Int) throws -> QuantizedRow {
    let producer = driver.makeProducer()
    try producer.clock(tempo: tempo)
    Thread.sleep(forTimeInterval: 0.1)
    let spacing = 0.125
    let span = seconds(beats: Double(events) * spacing + 2, driver.clock) + 0.5
    let capture = try CaptureClient(server: server.name, channels: 1, seconds: span + 1, name: "beat-capture")
    defer { capture.close() }
    try capture.connect(from: "podium:out_1", channel: 0)
    Thread.sleep(forTimeInterval: 0.1)
    let stats0 = driver.stats
    capture.start()
    let first = (driver.beatNow + 1).rounded(.up)
    var beats: [UInt64: Double] = [:]
    for i in 0..<events {
        let b = first + Double(i) * spacing
        if let id = try producer.event([2, 0, 0.05, 0.5], quantize: .beat(b)) { beats[id] = b }
    }
    let last = first + Double(events) * spacing
    // The clock counts performed k-cycles: after an xrun it holds its beat while JACK's frames
    // moved on, so each beat's frame comes from the snapshot in force before it (every 5 ms).
    var snapshots = [driver.clock]
    while driver.beatNow < last + 0.5 {
        Thread.sleep(forTimeInterval: 0.005)
        snapshots.append(driver.clock)
    }
    capture.stopRecording()
    let c = driver.clock
    let onsets = capture.onsets(0)
    var row = QuantizedRow(period: server.period, tempo: tempo, events: events)
    var offs: [Int64] = [], paths: [Int64] = []
    let window = Int64(spacing / 2 * 60 * c.sampleRate / c.tempo)
    var matched: [(Int64, Int64, UInt64)] = []
    for (id, b) in beats {
        let ideal = idealFrame(snapshots.last { $0.beat <= b } ?? c, b)
        guard let onset = onsets.min(by: { abs($0 - ideal) < abs($1 - ideal) }), abs(onset - ideal) < window else { continue }
        matched.append((onset, ideal, id))
        if let applied = log.frame(of: id) { paths.append(onset - applied) }
    }
    let path = paths.sorted().dropFirst(paths.count / 2).first ?? 0
    for (onset, ideal, _) in matched { offs.append(onset - path - ideal) }
    row.heard = matched.count
    row.exact = offs.filter { $0 == 0 }.count
    row.maxOff = offs.map { abs($0) }.max() ?? 0
    row.meanOff = offs.isEmpty ? .nan : Double(offs.map { abs($0) }.reduce(0, +)) / Double(offs.count)
    row.path = path
    row.xruns = driver.stats.xruns - stats0.xruns
    row.late = driver.stats.lateCommands - stats0.lateCommands
    return row
}

// MARK: 2. loop swaps

struct SwapRow { var redefinitions = 0, iterations = 0, gaps = 0, doubles = 0, offBeat = 0, swapsHeard = 0, xruns: UInt64 = 0 }

/// A loop of one beat with one note, redefined `count` times at random moments while it plays,
/// alternating its level (0.5, 0.3): each iteration of the captured audio must hold exactly one
/// onset, on its beat's frame, at one definition's level.
func swapRow(_ server: TestJackServer, _ driver: JackDriver, count: Int, tempo: Double) throws -> SwapRow {
    let producer = driver.makeProducer()
    try producer.clock(tempo: tempo)
    Thread.sleep(forTimeInterval: 0.1)
    let loops = LiveLoops(driver: driver)
    loops.start()
    defer { loops.stopScheduler() }
    let capture = try CaptureClient(server: server.name, channels: 1, seconds: Double(count) * 0.15 + 4, name: "beat-loops")
    defer { capture.close() }
    try capture.connect(from: "podium:out_1", channel: 0)
    Thread.sleep(forTimeInterval: 0.1)
    let stats0 = driver.stats
    capture.start()
    let levels = [0.5, 0.3]
    let started = try loops.define(name: "click", beats: 1, body: "i 2 0 0.5 \(levels[0])")
    let firstBeat = Double(started.split(separator: " ").last ?? "") ?? 0
    var row = SwapRow()
    for i in 1...count {
        Thread.sleep(forTimeInterval: Double.random(in: 0.02...0.2))
        _ = try loops.define(name: "click", beats: 1, body: "i 2 0 0.5 \(levels[i % 2])")
        row.redefinitions += 1
    }
    let lastBeat = driver.beatNow.rounded(.down) + 1   // the iteration the last redefinition may land in
    while driver.beatNow < lastBeat + 1.2 { Thread.sleep(forTimeInterval: 0.02) }
    _ = try? loops.stop("click")
    capture.stopRecording()
    let c = driver.clock
    let samples = capture.samples(0)
    let onsets = capture.onsets(0)
    let half = Int64(0.5 * 60 * c.sampleRate / c.tempo)
    var previous: Double?
    var k = firstBeat
    while k <= lastBeat {
        let ideal = idealFrame(c, k)
        let here = onsets.filter { $0 >= ideal - half && $0 < ideal + half }
        row.iterations += 1
        if here.isEmpty { row.gaps += 1 }
        if here.count > 1 { row.doubles += 1 }
        if let onset = here.first {
            if onset != ideal { row.offBeat += 1 }
            let level = capture.sampleIndex(ofFrame: onset + 16).map { Double(samples[$0]) } ?? -1
            if !levels.contains(where: { abs($0 - level) < 1e-6 }) { row.doubles += 1 }  // two notes overlapping
            if let p = previous, p != level { row.swapsHeard += 1 }
            previous = level
        }
        k += 1
    }
    row.xruns = driver.stats.xruns - stats0.xruns
    return row
}

// MARK: 3. tempo ramp

struct RampRow { var changes = 0, applied = 0, cycles = 0; var maxErrorBeats = 0.0, maxErrorFrames = 0.0, minTempo = 0.0, maxTempo = 0.0 }

/// 100 tempo changes (60–240 BPM) 20–40 ms apart while instr 5 reports, every k-cycle, how far
/// `podium.beat` moved beyond the step the previous k-cycle's tempo predicts.
func rampRow(_ server: TestJackServer, _ driver: JackDriver, log: AppliedStarts, changes: Int) throws -> RampRow {
    let producer = driver.makeProducer()
    let capture = try CaptureClient(server: server.name, channels: 1, seconds: Double(changes) * 0.04 + 2, name: "beat-ramp")
    defer { capture.close() }
    try capture.connect(from: "podium:out_2", channel: 0)
    _ = try producer.event([5, 0, 3600])
    Thread.sleep(forTimeInterval: 0.2)
    let clocks0 = log.clocks
    capture.start()
    var row = RampRow(changes: changes, minTempo: 999, maxTempo: 0)
    for _ in 0..<changes {
        let t = Double.random(in: 60...240).rounded() + Double(Int.random(in: 0...9)) / 10
        try producer.clock(tempo: t)
        row.minTempo = min(row.minTempo, t)
        row.maxTempo = max(row.maxTempo, t)
        Thread.sleep(forTimeInterval: Double.random(in: 0.02...0.04))
    }
    Thread.sleep(forTimeInterval: 0.2)
    capture.stopRecording()
    let errors = capture.samples(0)
    row.cycles = errors.count / 64
    row.applied = log.clocks - clocks0
    row.maxErrorBeats = Double(errors.map { abs($0) }.max() ?? .nan)
    row.maxErrorFrames = row.maxErrorBeats * 60 * 48000 / row.minTempo
    return row
}

// MARK: 4. cost

/// Callback statistics over `seconds` (after a reset).
func window(_ driver: JackDriver, seconds: Double) -> (DriverStats, DriverStats) {
    let before = driver.stats
    driver.resetCallbackTimes()
    Thread.sleep(forTimeInterval: seconds)
    return (before, driver.stats)
}

func costRows(_ driver: JackDriver, seconds: Double) throws -> [String] {
    func row(_ label: String, _ w: (DriverStats, DriverStats)) -> String {
        let (a, b) = w
        return String(format: "| %@ | %llu | %.1f | %.1f | %.1f | %.1f %% | %.1f %% | %llu | %llu |", label, b.commands - a.commands,
                      b.meanCallbackMicroseconds, b.p99 * b.periodMicroseconds, b.maxCallbackMicroseconds, b.p99 * 100, b.dspLoad,
                      b.lateCommands - a.lateCommands, b.xruns - a.xruns)
    }
    try driver.makeProducer().clock(tempo: 120)
    let loops = LiveLoops(driver: driver)
    loops.start()
    defer { loops.stopScheduler() }
    Thread.sleep(forTimeInterval: 0.2)
    var rows = [row("no loops", window(driver, seconds: seconds))]
    for i in 0..<16 {
        // Four short, quiet notes a beat each (instr 2), a different subdivision per loop.
        let body = (0..<4).map { "i 2 \(Double($0) * 0.25 + Double(i) / 64) 0.1 0.001" }.joined(separator: "\n")
        _ = try loops.define(name: "l\(i)", beats: 1, body: body)
    }
    Thread.sleep(forTimeInterval: 1.5)
    rows.append(row("16 loops (64 notes a beat)", window(driver, seconds: seconds)))
    _ = loops.stopAll()
    return rows
}

// MARK: the section

func beatSection(periods: [Int], tempos: [Double], events: Int, swaps: Int, changes: Int, seconds: Double) throws {
    print("### Quantized events: onset against the beat's ideal frame (dummy JACK \(realtimeServer ? "-R" : "-r"), 48 kHz, ksmps 64; \(events) `@beat` notes 1/8 beat apart per row)\n")
    print("Ideal frame: the first frame at or after the beat, from the clock Podium publishes (beat, frame, tempo), read every 5 ms: the last reading before the beat (the clock counts performed k-cycles, so an xrun shifts JACK frames against beats). Capture path: onset − the frame the callback applied the note on (median), taken off every onset.\n")
    print("| period | tempo | notes | heard | on the ideal frame | max frames off | mean frames off | capture path (frames) | late | xruns |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for p in periods {
        let server = try TestJackServer(period: p, realtime: realtimeServer, tag: "bench-beat")
        defer { server.stop() }
        let log = AppliedStarts()
        let driver = try beatDriver(server, tempo: 120, log: log)
        defer { driver.stop() }
        try driver.makeProducer().event([2, 0, 0.01, 0.001])   // warm-up: instr 2's first instance
        Thread.sleep(forTimeInterval: 0.2)
        for t in tempos {
            let r = try quantizedRow(server, driver, log: log, tempo: t, events: events)
            print(String(format: "| %d | %.0f | %d | %d | %d | %lld | %.2f | %lld | %llu | %llu |", r.period, r.tempo, r.events, r.heard, r.exact,
                         r.maxOff, r.meanOff, r.path, r.late, r.xruns))
        }
    }
    let server = try TestJackServer(period: 256, realtime: realtimeServer, tag: "bench-beat")
    defer { server.stop() }
    let log = AppliedStarts()
    let driver = try beatDriver(server, tempo: 120, log: log)
    defer { driver.stop() }
    try driver.makeProducer().event([2, 0, 0.01, 0.001])
    Thread.sleep(forTimeInterval: 0.2)

    let s = try swapRow(server, driver, count: swaps, tempo: 300)
    print("\n### Loop swaps: a one-beat loop (one note) redefined \(s.redefinitions) times at random moments (20–200 ms apart) while it plays, 300 BPM, period 256\n")
    print("| redefinitions | iterations checked | gaps | doubled notes | onsets off their beat's frame | swaps heard | xruns |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    print("| \(s.redefinitions) | \(s.iterations) | \(s.gaps) | \(s.doubles) | \(s.offBeat) | \(s.swapsHeard) | \(s.xruns) |")

    let r = try rampRow(server, driver, log: log, changes: changes)
    print("\n### Tempo ramp: \(r.changes) tempo changes (\(Int(r.minTempo))–\(Int(r.maxTempo)) BPM) 20–40 ms apart; the orchestra checks `podium.beat` every k-cycle (ksmps 64)\n")
    print("| changes posted | clock re-anchorings journaled | k-cycles checked | largest jump beyond the k-cycle's step (beats) | (frames, at the slowest tempo) |")
    print("|---:|---:|---:|---:|---:|")
    print(String(format: "| %d | %d | %d | %.3g | %.3g |", r.changes, r.applied, r.cycles, r.maxErrorBeats, r.maxErrorFrames))

    print("\n### Cost: callback time with 16 live loops against none (same orchestra and driver, 120 BPM, period 256, ksmps 64, \(Int(seconds)) s windows)\n")
    print("| | notes started | mean callback µs | p99 µs | max µs | p99 of the period | DSP load | late | xruns |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row in try costRows(driver, seconds: seconds) { print(row) }
    print("")
}
