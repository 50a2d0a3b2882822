// The `patterns` section: the pattern engine's cost against Tidal's own (Debian's Tidal 1.7.10
// in ghci, its library compiled) on the same 16 patterns, and patterns played through JACK:
// every onset against its beat's frame, the scheduler thread's CPU, xruns.
import Foundation
import PodiumEngine
import PodiumHost
import PodiumPatterns
import PodiumProbe
import PodiumRealtime
import PodiumSurfaces

/// 16 patterns of 64 events a cycle, as a Tidal user writes them (the same text goes to ghci).
let benchPatterns: [String] = {
    let shapes = [
        "s \"lvl*64\" # gain 0.2",
        "s \"[lvl lvl lvl lvl]*16\" # gain \"0.1 0.2\" # n \"<0 3 5>\"",
        "every 2 (fast 2) $ s \"lvl*32\" # gain (range 0.1 0.3 sine)",
        "sometimes (# speed 2) $ s \"lvl*64\"",
        "jux rev $ s \"lvl*32\" # n \"0 .. 7\"",
        "off 0.125 (# gain 0.3) $ s \"lvl*32\"",
        "s \"lvl*16 [lvl lvl]*16 lvl*8 lvl*8\" # n (irand 12)",
        "whenmod 4 2 (# speed 2) $ s \"<[lvl*64] [lvl*32 lvl*32]>\" # pan saw",
    ]
    return shapes + shapes.map { "(# cutoff 300) $ " + $0 }
}()

/// 16 patterns of a set that uses the functions Tidal users reach for past the basics (`chop`,
/// `striate`, `scale`, `arp`, `stut`, `slice`, `loopAt`, `shuffle`, transitions), as a Tidal
/// user writes them: Podium's text and Tidal's (the same but for the two transitions, which are
/// Tidal's pure `xfadeIn t now [new, old]` and `clutchIn`, and the player's `Transition` here).
let benchSetPatterns: [String] = [
    "chop 4 $ s \"lvl*16 lvl*8\" # legato 1",
    "striate 4 $ s \"lvl*8 [lvl lvl]*4\"",
    "n (scale \"<major minor dorian>\" \"0 .. 63\") # s \"lvl\"",
    "arp \"<up downup converge>\" $ n \"<c'maj7'ii e'min9 a'min7'o>*16\" # s \"lvl\"",
    "stut 4 0.5 0.125 $ s \"lvl*16\"",
    "off 0.25 (|+ n 12) $ n (scale \"minPent\" \"0 .. 31\") # s \"lvl\"",
    "fast 8 $ slice 8 \"<0 .. 7> 3 [2 1]\" $ s \"lvl\"",
    "splice 4 \"0 1 <2 3>*2\" $ s \"lvl*16\"",
    "loopAt 2 $ chop 64 $ s \"lvl\"",
    "jux (hurry 2) $ striateBy 8 (1/16) $ s \"lvl*4\"",
    "every 3 arpeggiate $ n \"c'maj'8 e'min'6*4\" # s \"lvl\"",
    "shuffle 8 $ n \"0 .. 31\" # s \"lvl\"",
    "scramble 16 $ s \"lvl*32\"",
    "stutWith 3 (1/8) (|* speed 2) $ s \"lvl*16\"",
]
/// The two transitions: the new pattern over the old one, from cycle 0, over 4 cycles.
let benchTransitionPatterns = (new: "n \"0 .. 31\" # s \"lvl\" # gain 0.8", old: "sometimesBy 0.3 (jux rev) $ chop 2 $ s \"lvl*32\" # n (irand 8)")

struct PatternCostRow { var engine = "", queries = 0, events = 0, cpuMs = 0.0 }

/// Ours: every pattern queried in frames of 1/20 cycle (Tidal's `cFrameTimespan`), as the
/// scheduler does, onsets counted; this thread's CPU time.
// Thread: bench main
func podiumPatternCost(_ patterns: [Pattern<ControlMap>], cycles: Int) -> PatternCostRow {
    var row = PatternCostRow(engine: "Podium (Swift, release)")
    var controls = 0
    let start = threadCPUSeconds()
    for i in 0..<(cycles * 20) {
        let a = Time(Int64(i), 20), b = Time(Int64(i + 1), 20)
        for p in patterns {
            for e in p.queryArc(a, b) where e.hasOnset { row.events += 1; controls += e.value.count }
            row.queries += 1
        }
    }
    row.cpuMs = (threadCPUSeconds() - start) * 1000
    precondition(controls >= row.events, "every onset has its controls")
    return row
}

/// The first set (`benchPatterns`) in Podium's language.
// Thread: bench main
func benchPatternsParsed() throws -> [Pattern<ControlMap>] {
    let language = PatternLanguage(extraControls: ["cutoff"])
    return try benchPatterns.map { try language.pattern($0) }
}

/// The second set (`benchSetPatterns` and the two transitions) in Podium's language and player.
// Thread: bench main
func benchSetPatternsParsed() throws -> [Pattern<ControlMap>] {
    let language = PatternLanguage()
    let new = try language.pattern(benchTransitionPatterns.new), old = try language.pattern(benchTransitionPatterns.old)
    return try benchSetPatterns.map { try language.pattern($0) }
        + [Transition.xfadeIn(Time(4)).apply(now: .zero, new: new, old: old), Transition.clutchIn(Time(4)).apply(now: .zero, new: new, old: old)]
}

/// The second set in Tidal's words.
let benchSetTidalTexts = benchSetPatterns + ["xfadeIn 4 0 [\(benchTransitionPatterns.new), \(benchTransitionPatterns.old)]",
                                             "clutchIn 4 0 [\(benchTransitionPatterns.new), \(benchTransitionPatterns.old)]"]

/// Tidal's: the same texts and frames in ghci, each event's controls forced; CPU from
/// `getCPUTime` around the loop.
// Thread: bench main
func tidalPatternCost(_ texts: [String], cycles: Int) throws -> PatternCostRow? {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ghci") else { return nil }
    let list = texts.map { "(\($0))" }.joined(separator: ", ")  // one line: ghci reads a line a statement
    let script = """
    :set -XOverloadedStrings
    import Sound.Tidal.Context
    import qualified Data.Map.Strict as Map
    import System.CPUTime
    let cutoff = pF "cutoff"
    let ps = [\(list)] :: [ControlPattern]
    let frames = [Arc (i/20) ((i+1)/20) | i <- [0 .. \(cycles * 20 - 1)]]
    t0 <- getCPUTime
    let counts = [ (length es, sum (map (Map.size . value) es)) | p <- ps, a <- frames, let es = filter eventHasOnset (queryArc p a) ]
    let n = sum (map fst counts) + 0 * sum (map snd counts)
    n `seq` return ()
    t1 <- getCPUTime
    putStrLn ("TIDAL " ++ show n ++ " " ++ show (fromIntegral (t1 - t0) / 1e9 :: Double))
    """
    let text = try ghci(script)
    guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("TIDAL ") }) else { return nil }
    let words = line.split(separator: " ")
    return PatternCostRow(engine: "Tidal 1.7.10 (ghci, library compiled)", queries: texts.count * cycles * 20,
                          events: Int(words[1]) ?? 0, cpuMs: Double(words[2]) ?? 0)
}

/// Tidal's own scheduler playing the same 16 patterns at 1 cps for `seconds`, sending to a
/// loopback port this bench reads (its OSC is built and sent as to SuperDirt): ghci's CPU in
/// ms a second, less the same ghci's idle CPU with Tidal started and nothing playing.
// Thread: bench main
func tidalLiveCPU(seconds: Double) throws -> (idle: Double, playing: Double, datagrams: Int)? {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ghci") else { return nil }
    // What Tidal sends is counted (a datagram an event) by a socket read on this side.
    let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(57199).bigEndian
    address.sin_addr.s_addr = UInt32(0x7f000001).bigEndian
    _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    final class Count: @unchecked Sendable { var n = 0; var done = false; let lock = NSLock() }
    let count = Count()
    let reader = Thread {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !count.lock.withLock({ count.done }) {
            if recv(fd, &buffer, buffer.count, 0) > 0 { count.lock.withLock { count.n += 1 } }
        }
    }
    reader.start()
    defer { count.lock.withLock { count.done = true }; Thread.sleep(forTimeInterval: 0.3); close(fd) }
    let list = benchPatterns.map { "(\($0))" }.joined(separator: ", ")
    let us = Int(seconds * 1_000_000)
    let script = """
    :set -XOverloadedStrings
    import Sound.Tidal.Context
    import System.CPUTime
    import Control.Concurrent
    import Sound.Tidal.ID
    let cutoff = pF "cutoff"
    let ps = [\(list)] :: [ControlPattern]
    tidal <- startTidal (superdirtTarget {oPort = 57199, oHandshake = False}) (defaultConfig {cVerbose = False, cCtrlListen = False, cTempoPort = 59160})
    streamOnce tidal (cps 1)
    threadDelay 1000000
    a0 <- getCPUTime
    threadDelay 3000000
    a1 <- getCPUTime
    mapM_ (\\(i, x) -> streamReplace tidal (ID (show i)) x) (zip [1 :: Int ..] ps)
    threadDelay 500000
    b0 <- getCPUTime
    threadDelay \(us)
    b1 <- getCPUTime
    putStrLn ("TIDALLIVE " ++ show (fromIntegral (a1 - a0) / 3e9 :: Double) ++ " " ++ show (fromIntegral (b1 - b0) / 1e9 / \(seconds) :: Double))
    """
    let text = try ghci(script)
    guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("TIDALLIVE ") }) else { return nil }
    let words = line.split(separator: " ")
    return (Double(words[1]) ?? 0, Double(words[2]) ?? 0, count.lock.withLock { count.n })
}

/// What ghci prints for a script read on its stdin.
// Thread: bench main
func ghci(_ script: String) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/ghci")
    p.arguments = ["-v0", "-ignore-dot-ghci"]
    let input = Pipe(), output = Pipe()
    p.standardInput = input
    p.standardOutput = output
    p.standardError = FileHandle.nullDevice
    try p.run()
    input.fileHandleForWriting.write(Data(script.utf8))
    try input.fileHandleForWriting.close()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    return text
}

// Thread: any
func threadCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

let patternOrchestra = """
nchnls = 2
0dbfs = 1
instr lvl ; podium: gain
  a1 linseg p4, p3, p4
  outs a1, a(0)
endin
instr quiet
endin
"""

struct PatternPlayRow { var seconds = 0.0, posted = 0, heard = 0, exact = 0, maxOff: Int64 = 0, schedulerMs = 0.0, xruns: UInt64 = 0, late: UInt64 = 0 }

/// 16 patterns at 1 cps (tempo 240, 4 beats a bar): 15 on a silent instrument, one on `lvl`
/// whose onsets the capture client hears; each onset against its beat's first frame.
// Thread: bench main
func patternPlayRow(seconds: Double) throws -> PatternPlayRow {
    let server = try TestJackServer(period: 256, tag: "bench-patterns")
    defer { server.stop() }
    var options = JackOptions(clientName: "podium", serverName: server.name, connect: false, ksmps: 64)
    options.tempo = 240
    let driver = JackDriver(source: .text(orchestra: patternOrchestra, score: nil, name: "patterns.orc"), jack: options)
    try driver.start()
    defer { driver.stop() }
    let loops = LiveLoops(driver: driver)
    loops.start()
    defer { loops.stopScheduler() }
    let capture = try CaptureClient(server: server.name, channels: 1, seconds: seconds + 2)
    try capture.connect(from: "podium:out_1", channel: 0)
    Thread.sleep(forTimeInterval: 0.3)
    capture.start()
    let producer = driver.makeProducer()
    let before = (driver.stats.xruns, driver.stats.lateCommands)
    let cpu0 = loops.patterns.schedulerCPUSeconds
    for (i, text) in benchPatterns.dropFirst().enumerated() {
        _ = try loops.patterns.run("d\(i + 2) $ " + text.replacingOccurrences(of: "lvl", with: "quiet"), producer: producer, loops: loops)
    }
    _ = try loops.patterns.run("d1 $ s \"lvl*8 [lvl ~ lvl lvl]*2 lvl(3,8)\" # gain 0.3 # legato 0.5", producer: producer, loops: loops)
    Thread.sleep(forTimeInterval: seconds)
    let cpu1 = loops.patterns.schedulerCPUSeconds
    var row = PatternPlayRow(seconds: seconds)
    row.posted = loops.patterns.list().reduce(0) { $0 + (Int($1.split(separator: " ")[1]) ?? 0) }
    _ = loops.patterns.hushAll()
    Thread.sleep(forTimeInterval: 0.3)
    capture.stopRecording()
    row.xruns = driver.stats.xruns - before.0
    row.late = driver.stats.lateCommands - before.1
    row.schedulerMs = (cpu1 - cpu0) * 1000
    // The onsets the pattern should give, as beats in a bar.
    let pattern = try PatternLanguage().pattern("s \"lvl*8 [lvl ~ lvl lvl]*2 lvl(3,8)\"")
    let beatsInBar = Set(EventLines.onsets(pattern, cycles: 1).map { $0.wholeStart.double * 4 })
    let clock = driver.clock
    for onset in capture.onsets(0) {
        let beat = clock.beat(atFrame: onset)
        let bar = (beat / 4).rounded(.down)
        let nearest = beatsInBar.map { idealFrame(clock, bar * 4 + $0) } + beatsInBar.map { idealFrame(clock, (bar + 1) * 4 + $0) }
        let off = nearest.map { onset - $0 }.min { abs($0) < abs($1) } ?? 0
        row.heard += 1
        if off == 0 { row.exact += 1 }
        row.maxOff = max(row.maxOff, abs(off))
    }
    return row
}

// Thread: bench main
func patternsSection(cycles: Int, seconds: Double) throws {
    let sets: [(String, [Pattern<ControlMap>], [String])] = [
        ("16 patterns of 64 events a cycle", try benchPatternsParsed(), benchPatterns),
        ("16 patterns of a set: chop, striate, scale, arp, stut, slice, splice, loopAt, shuffle, scramble, stutWith, xfadeIn, clutchIn",
         try benchSetPatternsParsed(), benchSetTidalTexts),
    ]
    for (title, patterns, texts) in sets {
        print("### Patterns: \(title), queried in frames of 1/20 cycle over \(cycles) cycles\n")
        print("| engine | queries | onsets | CPU ms | µs per onset |")
        print("|---|---:|---:|---:|---:|")
        var rows = [podiumPatternCost(patterns, cycles: cycles)]
        if let tidal = try tidalPatternCost(texts, cycles: cycles) { rows.append(tidal) }
        for r in rows {
            print(String(format: "| %@ | %d | %d | %.1f | %.2f |", r.engine, r.queries, r.events, r.cpuMs, r.cpuMs * 1000 / Double(max(r.events, 1))))
        }
        if rows.count == 2 { print(String(format: "\nPodium's CPU / Tidal's: %.2f\n", rows[0].cpuMs / max(rows[1].cpuMs, 1e-9))) }
    }
    print("### Patterns on JACK: the same 16 at 1 cps (period 256, 48 kHz); onsets of one against its beats' frames\n")
    print("| seconds | events posted | onsets heard | on their frame | max error (frames) | scheduler CPU ms / s | xruns | late |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    let r = try patternPlayRow(seconds: seconds)
    print(String(format: "| %.0f | %d | %d | %d | %lld | %.1f | %llu | %llu |", r.seconds, r.posted, r.heard, r.exact, r.maxOff, r.schedulerMs / r.seconds, r.xruns, r.late))
    print("")
    if let tidal = try tidalLiveCPU(seconds: seconds) {
        print("| live at 1 cps, 16 patterns | events sent | CPU ms a second |")
        print("|---|---:|---:|")
        print(String(format: "| Podium: the pattern scheduler (its thread's CPU in the ticks: queries, notes, ring) | %d | %.1f |", r.posted, r.schedulerMs / r.seconds))
        print(String(format: "| Tidal 1.7.10 in ghci, to a loopback port (its process CPU above its idle %.1f) | %d | %.1f |", tidal.idle, tidal.datagrams, tidal.playing - tidal.idle))
        print("")
    }
}
