import Foundation
import PodiumEngine
import PodiumHost
import PodiumProbe
import PodiumSession
import Synchronization
import Testing

extension JackSuites {
/// A take whose disk fills up: on a small tmpfs of its own (mounting needs root, as CI has).
@Suite("A take on a full disk", .serialized, .enabled(if: getuid() == 0, "mounts a tmpfs of its own (needs root)"))
final class DiskFullTests {
    let server: TestJackServer
    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    /// A tone whose pitch each note sets: what was played after the cut is audible in the replay.
    static let orchestra = """
    nchnls = 2
    0dbfs = 1
    instr 1
      a1 oscili 0.2, p4
      outs a1, a1
    endin
    """

    @Test("another program fills the disk during a take: the audio stops short of the session's reserve, the performance and the journal go on, and replay renders the whole take from the journal, saying which part was not recorded")
    func takeCutByTheDisk() throws {
        let mount = Paths.temporaryDirectory()
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        let mounted = try run("/bin/mount", ["-t", "tmpfs", "-o", "size=64m", "tmpfs", mount.path])
        try #require(mounted.status == 0, "mount: \(mounted.stderr)")
        defer {
            _ = try? run("/bin/umount", ["-l", mount.path])
            try? FileManager.default.removeItem(at: mount)
        }
        let driver = JackDriver(source: .text(orchestra: DiskFullTests.orchestra, score: nil, name: "full.orc"),
                                options: EngineOptions(seed: 5), jack: JackOptions(serverName: server.name, connect: false))
        try driver.start()
        defer { driver.stop() }
        let recording = Recording(driver: driver, sessions: mount, podiumVersion: "test")
        let problems = Mutex<[String]>([])
        recording.onProblem = { p in problems.withLock { $0.append(p) } }
        _ = try recording.startSession()
        let dir = URL(fileURLWithPath: try recording.startRecording())
        let producer = driver.makeProducer()
        try producer.event([1, 0, 0.4, 330])
        // Something else fills the disk: 2 MiB above the reserve are left (about 2.7 s of this take, inputs included).
        var fs = statvfs()
        #expect(statvfs(mount.path, &fs) == 0)
        let free = Int64(fs.f_bavail) * Int64(fs.f_frsize)
        let filler = mount.appendingPathComponent("filler")
        FileManager.default.createFile(atPath: filler.path, contents: Data(count: Int(free - (16 << 20) - (2 << 20))))
        // The performance goes on past the cut: notes every half second, each a new pitch.
        for i in 1...11 {
            Thread.sleep(forTimeInterval: 0.5)
            try producer.event([1, 0, 0.4, 330 + 55 * Double(i)])
        }
        Thread.sleep(forTimeInterval: 0.5)
        #expect(problems.withLock { $0 }.contains { $0.contains("MiB left on the session's disk: the audio stops here") }, "\(problems.withLock { $0 })")
        let summary = try #require(recording.stopRecording())
        _ = recording.finish()

        let info = try SessionInfo.read(dir)
        let take = try #require(info.takes?.first)
        let written = try #require(take.frames), performed = try #require(take.performedFrames)
        print("disk full: \(summary); audio \(Double(written) / 48000) s of \(Double(performed) / 48000) s")
        #expect(written > 48000 && written < 48000 * 5, "the audio stopped after about 2.7 s: \(written) frames")
        #expect(performed > written + 48000 * 2, "the take ran on: \(performed) frames performed, \(written) written")
        #expect(info.notes.contains { $0.contains("recording stopped early") && $0.contains("replay renders all of it from the journal") }, "\(info.notes)")

        let replayer = try SessionReplayer(directory: dir)
        #expect(replayer.warnings.contains { $0.contains("audio.wav holds 0–") && $0.contains("rendered from the journal") }, "\(replayer.warnings)")
        let out = Paths.temporaryDirectory().appendingPathComponent("replay.wav")
        try FileManager.default.createDirectory(at: out.deletingLastPathComponent(), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out.deletingLastPathComponent()) }
        _ = try replayer.run(output: out.path)
        let recorded = try samples(dir.appendingPathComponent("audio.wav").path)
        let replayed = try samples(out.path)
        #expect(replayed.count == Int(performed) * 2, "the replay is as long as the take: \(replayed.count / 2) frames")
        #expect(recorded.count == Int(written) * 2)
        let diff = firstDifference(recorded, Array(replayed.prefix(recorded.count)))
        #expect(diff == nil, "the recorded part replays bit for bit (first difference at \(diff ?? -1))")
        // The notes after the cut are in the replay: sound in its last second.
        #expect(replayed.suffix(48000 * 2).contains { abs($0) > 0.1 }, "the take's end is rendered")
    }
}
}
