// The `samples` section: a 1000-file bank indexed; a file from first use to a table the
// sampler plays; memory per minute of audio loaded; and the callback while 500 files load
// during a pattern, against an idle control and against Csound's own GEN01 in live code (how
// an orchestra author loads a sound file by hand).
import Foundation
import PodiumAudioFile
import PodiumEngine
import PodiumHost
import PodiumProbe
import PodiumSamples
import PodiumSurfaces

/// A Dirt-Samples style bank: `names` folders of `files` files, `seconds` of a level at 44.1 kHz.
// Thread: bench main
func makeBank(_ dir: String, names: Int, files: Int, seconds: Double) throws {
    for n in 0..<names {
        let folder = dir + "/s\(n)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for f in 0..<files {
            let w = try SoundFileWriter(path: folder + "/\(f).wav", sampleRate: 44100, channels: 1, format: .pcm16)
            let values = (0..<Int(seconds * 44100)).map { sin(Double($0) * 0.05 * Double(f + 1)) * 0.3 }
            try values.withUnsafeBufferPointer { try w.write($0.baseAddress!, frames: $0.count) }
            w.close()
        }
    }
}

/// Resident memory of this process, bytes (/proc/self/statm).
// Thread: any
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

struct LoadRow { var name = "", seconds = 0.0, xruns: UInt64 = 0, p99 = 0.0, maxCPU = 0.0, period = 0.0 }

let sampleOrchestra = """
nchnls = 2
0dbfs = 1
instr quiet
endin
"""

/// A started driver with the sampler at 240 BPM (a cycle a second), ksmps 64.
// Thread: bench main
func samplerDriver(_ server: TestJackServer) throws -> JackDriver {
    var jack = JackOptions(serverName: server.name, connect: false, ksmps: 64)
    jack.tempo = 240
    var options = EngineOptions(seed: 1)
    options.sampler = true
    let driver = JackDriver(source: .text(orchestra: sampleOrchestra, score: nil, name: "samples.orc"), options: options, jack: jack)
    try driver.start()
    return driver
}

/// A pattern of 8 samples a cycle at 1 cps, and `load` run beside it on a fresh driver (its
/// callback maxima are its own).
// Thread: bench main
func loadRow(_ name: String, server: TestJackServer, bank: String, _ load: (JackDriver, SampleStore) throws -> Void) throws -> LoadRow {
    let driver = try samplerDriver(server)
    defer { driver.stop() }
    let store = SampleStore(library: SampleLibrary.load([bank]), driver: driver)
    store.start()
    defer { store.stop() }
    let loops = LiveLoops(driver: driver)
    loops.patterns.samples = store
    loops.start()
    defer { loops.stopScheduler() }
    _ = try loops.patterns.run("d1 $ s \"bd*4 [~ sn] hh*2\" # gain 0.8", producer: driver.makeProducer(), loops: loops)
    _ = store.waitIdle(timeout: 20)
    Thread.sleep(forTimeInterval: 1)
    let before = driver.stats
    let began = ContinuousClock.now
    try load(driver, store)
    let took = began.duration(to: .now)
    let s = driver.stats
    return LoadRow(name: name, seconds: Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18,
                   xruns: s.xruns - before.xruns, p99: s.p99, maxCPU: s.maxCallbackCPUMicroseconds, period: s.periodMicroseconds)
}

// Thread: bench main
func samplesSection() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("podium-bench-samples-\(getpid())").path
    defer { try? FileManager.default.removeItem(atPath: root) }

    // 1. Indexing a 1000-file bank: Podium against `find | sort` (the listing every indexer does).
    try makeBank(root + "/big", names: 100, files: 10, seconds: 0.1)
    var ours: [Double] = [], finds: [Double] = []
    for _ in 0..<5 {
        var t = ContinuousClock.now
        let library = SampleLibrary.load([root + "/big"], defaults: false)
        precondition(library.allFiles.count == 1000)
        ours.append(Double(t.duration(to: .now).components.attoseconds) / 1e15)
        t = ContinuousClock.now
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "find '\(root)/big' -type f | sort > /dev/null"]
        try p.run()
        p.waitUntilExit()
        finds.append(Double(t.duration(to: .now).components.attoseconds) / 1e15)
    }
    print("### Samples: indexing a 1000-file bank (100 names × 10 WAVs), median of 5\n")
    print("| indexer | ms |")
    print("|---|---:|")
    print(String(format: "| Podium (SampleLibrary: names, sorted files, each checked inside the bank) | %.1f |", percentile(ours, 0.5)))
    print(String(format: "| `find | sort` (the listing alone) | %.1f |\n", percentile(finds, 0.5)))

    // 2. From first use to a table the sampler plays, and memory per minute of audio.
    let server = try TestJackServer(period: 256, tag: "bench-samples")
    defer { server.stop() }
    try makeBank(root + "/minutes", names: 10, files: 10, seconds: 6)  // 10 minutes of audio
    let driver = try samplerDriver(server)
    let kits = SampleLibrary.load([], defaults: true)
    let store = SampleStore(library: SampleLibrary.load([root + "/minutes"], defaults: true), driver: driver)
    store.start()
    var firstUse: [Double] = []
    for file in kits.allFiles.prefix(40) {
        let choice = try require(store.library.banks.first { $0.sounds.values.contains { $0.contains(file) } }, "\(file) in no bank")
        let name = choice.sounds.first { $0.value.contains(file) }!
        let index = name.value.firstIndex(of: file)!
        let t = ContinuousClock.now
        _ = store.lookup(name.key, index: index, bank: choice.name)
        while true {
            if case .ready = store.lookup(name.key, index: index, bank: choice.name).0 { break }
            Thread.sleep(forTimeInterval: 0.0002)
        }
        firstUse.append(Double(t.duration(to: .now).components.attoseconds) / 1e15)
    }
    let lookahead = LiveLoops.lookahead * 1000
    print("### Samples: first use → table ready (40 files of Debian's GMRockKit, 44.1 → 48 kHz, JACK period 256)\n")
    print("| p50 ms | p90 ms | max ms | within the patterns' lookahead (\(Int(lookahead)) ms) |")
    print("|---:|---:|---:|---:|")
    print(String(format: "| %.1f | %.1f | %.1f | %d of %d |\n", percentile(firstUse, 0.5), percentile(firstUse, 0.9), firstUse.max() ?? 0,
                 firstUse.filter { $0 < lookahead }.count, firstUse.count))
    let rss0 = residentBytes(), used0 = store.memoryUsed
    let minuteFiles = store.library.banks[0].sounds.values.flatMap { $0 }
    for f in minuteFiles {
        let bank = store.library.banks[0]
        let name = bank.sounds.first { $0.value.contains(f) }!
        _ = store.lookup(name.key, index: name.value.firstIndex(of: f)!, bank: bank.name)
    }
    _ = store.waitIdle(timeout: 120)
    Thread.sleep(forTimeInterval: 0.5)
    let rss1 = residentBytes(), used1 = store.memoryUsed
    let minutes = Double(minuteFiles.count) * 6 / 60
    let decodedPerMinute = Double(used1 - used0) / minutes / 1_048_576
    let rssPerMinute = Double(rss1 - rss0) / minutes / 1_048_576
    print("### Samples: memory per minute of audio (\(minuteFiles.count) files, \(String(format: "%.0f", minutes)) minutes, mono, decoded at 48 kHz)\n")
    print("| decoded tables MB / min | process RSS growth MB / min | overhead |")
    print("|---:|---:|---:|")
    print(String(format: "| %.2f | %.2f | %+.1f %% |\n", decodedPerMinute, rssPerMinute, (rssPerMinute / decodedPerMinute - 1) * 100))
    store.stop()
    driver.stop()

    // 3. 500 files loading while a pattern plays: Podium's loader, nothing (control), and
    // Csound's GEN01 in live code (the file read and its table built on the audio thread).
    try makeBank(root + "/load", names: 50, files: 10, seconds: 0.5)
    let loadFiles = SampleLibrary.load([root + "/load"], defaults: false).allFiles
    var rows: [LoadRow] = []
    rows.append(try loadRow("control: the pattern alone, 8 s", server: server, bank: root + "/load") { _, _ in Thread.sleep(forTimeInterval: 8) })
    rows.append(try loadRow("Podium: 500 files (--preload), decoded and copied in by slices", server: server, bank: root + "/load") { _, store in
        _ = store.preload()
        _ = store.waitIdle(timeout: 120)
    })
    // Live code is checked by the podium executable before it compiles: the checkout's.
    if getenv("PODIUM_EXECUTABLE") == nil {
        for p in [".build/release/podium", ".build/debug/podium"] where FileManager.default.isExecutableFile(atPath: p) {
            setenv("PODIUM_EXECUTABLE", FileManager.default.currentDirectoryPath + "/" + p, 1)
            break
        }
    }
    rows.append(try loadRow("Csound GEN01 in live code: the same 500 files, 50 a compile", server: server, bank: root + "/load") { driver, _ in
        for chunk in stride(from: 0, to: loadFiles.count, by: 50) {
            let text = loadFiles[chunk..<min(chunk + 50, loadFiles.count)].enumerated()
                .map { "giBench\(chunk + $0.offset) ftgen 0, 0, 0, 1, \"\($0.element)\", 0, 0, 0" }.joined(separator: "\n")
            _ = try driver.compileAndWait(text, source: "gen01")
        }
    })
    print("### Samples: the callback while 500 files (0.5 s each) load during a pattern (period 256 = 5333 µs, ksmps 64)\n")
    print("| run | seconds | xruns | callback p99 | longest callback CPU µs |")
    print("|---|---:|---:|---:|---:|")
    for r in rows {
        print(String(format: "| %@ | %.1f | %llu | %.1f %% | %.0f |", r.name, r.seconds, r.xruns, r.p99 * 100, r.maxCPU))
    }
    print("")
}

struct BenchError: Error, CustomStringConvertible { var description: String }

/// The value, or an error saying what was missing.
func require<T>(_ value: T?, _ message: @autoclosure () -> String = "") throws -> T {
    guard let value else { throw BenchError(description: message()) }
    return value
}
