import Foundation
import PodiumPerformance
import PodiumProbe
@testable import PodiumWeb
import Testing

/// The editor's relay (/collab/BUFFER) against pages that misbehave, driven without a browser
/// (Fixtures/relay_client.py, websocket-client) beside honest pages whose updates Yjs itself
/// made (Fixtures/yjs_updates.cjs, Debian's node-yjs): malformed updates are refused and
/// counted, a page that never compacts is passed over, a newcomer syncs from a compacted log
/// to the same text Yjs computes, a flooding page and a page that does not read are
/// disconnected and memory stays bounded.
extension JackSuites {
@Suite("The editor's relay", .serialized)
final class EditorRelayTests {
    let server: TestJackServer

    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    func client(_ url: String, _ args: [String], timeout: Double = 60) throws -> String {
        let r = try run(which("python3") ?? "/usr/bin/python3", [Paths.fixture("relay_client.py"), url] + args, timeout: timeout)
        #expect(r.status == 0, "relay_client.py \(args.first ?? ""): \(r.stderr.suffix(1500))")
        return r.stdout
    }

    func node(_ args: [String]) throws -> String {
        let node = try #require(which("node") ?? which("nodejs"), "node (scripts/setup … tests installs nodejs)")
        let r = try run(node, [Paths.fixture("yjs_updates.cjs")] + args, environment: ["NODE_PATH": "/usr/share/nodejs"], timeout: 60)
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout
    }

    /// A newcomer joins (relay_client.py join, its log kept in `path`): the frames it was sent
    /// before its sync, and how long that took.
    func join(_ url: String, into path: String) throws -> (frames: Int, ms: Int, output: String) {
        let out = try client(url, ["join", path])
        func figure(_ prefix: String) -> Int {
            Int(out.split(separator: "\n").first { $0.hasPrefix(prefix) }?.split(separator: " ").last ?? "") ?? -1
        }
        return (figure("log frames "), figure("sync ms "), out)
    }

    static func rssMiB() -> Int {
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let pages = Int(statm.split(separator: " ").dropFirst().first ?? "0") ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) >> 20
    }

    @Test("malformed, cut, padded and oversized updates are refused and counted; a page that never answers compact is passed over for one that does; a newcomer then syncs from a short log to the text Yjs computes from every page's updates")
    func refusesAndCompacts() throws {
        try EditorTests.perform(on: server) { _, web, _, dir, _ in
            let base = "ws://127.0.0.1:\(web.port)/collab/patterns?token=\(web.options.token)"
            let garbage = try client(base + "&name=fuzz", ["garbage"])
            let errors = garbage.split(separator: "\n").filter { $0.hasPrefix("error the relay refused this page's update (not a Yjs update: ") }
            #expect(errors.count == 5, "each of the five malformed updates answered: \(garbage)")
            #expect(garbage.contains("closed after oversized yes"), "\(garbage)")
            #expect(web.collabStats.malformed == 5 && web.collabStats.relayed == 0, "\(web.collabStats.summary)")

            // Page A types 600 updates and never compacts; page B types on and answers.
            let a = dir.appendingPathComponent("a.hex").path, b = dir.appendingPathComponent("b.hex").path
            try node(["typing", "600", "7"]).write(toFile: a, atomically: true, encoding: .utf8)
            // B answers with the state of a page that applied what it received (A's updates) and its own.
            let bOwn = try node(["typing", "60", "8"]).split(separator: "\n").filter { !$0.hasPrefix("state ") }.joined(separator: "\n") + "\n"
            try bOwn.write(toFile: b, atomically: true, encoding: .utf8)
            try (bOwn + node(["merge", a, b])).write(toFile: b, atomically: true, encoding: .utf8)
            let typedA = try client(base + "&name=a", ["type", a, "600", "300", "0"])
            #expect(typedA.contains("compact asked 1"), "A was asked once (the log passed 500): \(typedA)")
            let typedB = try client(base + "&name=b", ["type", b, "60", "10", "0", "answer"])
            #expect(typedB.contains("compact asked 1"), "B asked after A's 5 s: \(typedB)")

            let got = dir.appendingPathComponent("joined.hex").path
            let (frames, ms, joined) = try join(base + "&name=c", into: got)
            #expect(frames >= 1 && frames <= 60, "660 updates relayed, the newcomer gets the compacted state and what followed: \(joined)")
            #expect(ms >= 0 && ms < 1000, "\(joined)")
            let everything = dir.appendingPathComponent("all.hex").path
            try (String(contentsOfFile: a, encoding: .utf8) + String(contentsOfFile: b, encoding: .utf8)).write(toFile: everything, atomically: true, encoding: .utf8)
            let expected = try node(["apply", everything]), synced = try node(["apply", got])
            #expect(expected.count > 600 && synced == expected, "the newcomer's text is every page's text: \(synced.count) of \(expected.count) characters")
        }
    }

    @Test("50,000 keystrokes from a page that never compacts: Podium merges the log itself, a newcomer syncs from a few frames in under a second to the text Yjs makes of all of them")
    func mergesALongHistory() throws {
        try EditorTests.perform(on: server) { _, web, _, dir, _ in
            // Typed as fast as the socket goes (the rate cap is for pages; this is 50,000 in seconds).
            web.clients.rooms.limits.updatesPerSecond = 1_000_000
            let base = "ws://127.0.0.1:\(web.port)/collab/patterns?token=\(web.options.token)"
            let typed = dir.appendingPathComponent("typed.hex").path
            try node(["typing", "50000", "7"]).write(toFile: typed, atomically: true, encoding: .utf8)
            _ = try client(base + "&name=typist", ["type", typed, "50000", "1000000000", "0"], timeout: 240)
            #expect(eventually(10) { web.collabStats.relayed >= 50_000 }, "\(web.collabStats.summary)")
            #expect(web.collabStats.merged >= 40 && web.collabStats.malformed == 0, "\(web.collabStats.summary)")
            let got = dir.appendingPathComponent("joined.hex").path
            let (frames, ms, joined) = try join(base + "&name=newcomer", into: got)
            #expect(frames >= 1 && frames <= 1001, "\(joined)")
            #expect(ms >= 0 && ms < 1000, "\(joined)")
            let expected = try node(["apply", typed]), synced = try node(["apply", got])
            #expect(expected.count == 50_000 && synced == expected, "the newcomer's text: \(synced.count) of \(expected.count) characters")
        }
    }

    @Test("a page sending more than 500 updates a second is disconnected (it would reconnect and resend its state); a page that reads nothing while another sends 48 MiB of awareness is disconnected, and memory stays bounded")
    func floodAndDeaf() throws {
        try EditorTests.perform(on: server) { _, web, _, dir, _ in
            let base = "ws://127.0.0.1:\(web.port)/collab/loops?token=\(web.options.token)"
            let file = dir.appendingPathComponent("flood.hex").path
            try node(["typing", "1000", "9"]).write(toFile: file, atomically: true, encoding: .utf8)
            let flood = try client(base + "&name=flood", ["flood", file])
            #expect(flood.contains("closed yes"), "\(flood)")
            #expect(web.collabStats.tooFast == 1, "\(web.collabStats.summary)")

            let before = EditorRelayTests.rssMiB()
            let deaf = Process()
            deaf.executableURL = URL(fileURLWithPath: which("python3") ?? "/usr/bin/python3")
            deaf.arguments = [Paths.fixture("relay_client.py"), base + "&name=deaf", "deaf", "30"]
            try deaf.run()
            defer { if deaf.isRunning { kill(deaf.processIdentifier, SIGKILL) }; deaf.waitUntilExit() }
            Thread.sleep(forTimeInterval: 1)
            let sent = try client(base + "&name=loud", ["awareness", "48", "\(1 << 20)"], timeout: 120)
            #expect(sent.contains("sent 48"), "\(sent)")
            #expect(eventually(10) { web.collabStats.notReading == 1 }, "\(web.collabStats.summary)")
            let grown = EditorRelayTests.rssMiB() - before
            #expect(grown < 64, "the deaf page's queue is bounded (16 MiB): RSS grew \(grown) MiB")
        }
    }
}
}
