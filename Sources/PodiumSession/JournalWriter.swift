import Foundation
import PodiumHost
import Synchronization

// The `podium-journal` thread streams a session's journal to events.log and orchestras/. The
// supervisor (and the threads that compile or set strings) append finished k-cycles to the
// journal's `pending` lines and, at a `sync` line (once a second), wake the writer (or every
// 500 ms); it swaps `pending` out under the journal's lock and does its file I/O after letting
// go. Each write ends at a `sync` line, so a killed process leaves a log that is whole through
// its last sync: what repair keeps and replay trusts. The final lines go at the end.

/// What a journal's lines add up to: lines, events, engines, and the frames from the engine's
/// start through the last `sync` line (the part crash repair and replay trust).
public struct JournalTally: Sendable, Equatable {
    public var lines = 0
    public var events = 0
    /// `engine` lines so far (the segment a take starts in is `engines - 1`).
    public var engines = 0
    /// Frames the finished engines performed.
    var framesBefore: Int64 = 0
    var ksmps: Int
    /// The last `sync` line's k-cycle (in the current engine), if any since it started.
    public var lastSync: Int64?
    /// Frames through the last `sync` line.
    public private(set) var syncedFrames: Int64 = 0

    public init(ksmps: Int) { self.ksmps = ksmps }

    // Thread: NRT (podium-journal, or whoever reads a log)
    public mutating func add(_ line: JournalLine) {
        lines += 1
        switch line {
        case .event: events += 1
        case let .engine(previous, k):
            if engines > 0 { framesBefore += previous * Int64(ksmps) }
            engines += 1
            ksmps = k
            lastSync = nil
        case let .sync(c):
            lastSync = c
            syncedFrames = framesBefore + (c + 1) * Int64(ksmps)
        default: break
        }
    }

    /// Reads events.log: the tally of its whole lines, and the byte length through its last
    /// `sync` line (what repair keeps).
    // Thread: NRT (any)
    public static func read(_ url: URL, ksmps: Int) -> (tally: JournalTally, syncedBytes: Int)? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        var tally = JournalTally(ksmps: ksmps)
        var synced = 0, start = 0
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            for i in 0..<bytes.count where bytes[i] == UInt8(ascii: "\n") {
                let line = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
                start = i + 1
                guard let parsed = try? JournalLine.parse(Substring(line)) else { continue }
                tally.add(parsed)
                if case .sync = parsed { synced = start }
            }
        }
        return (tally, synced)
    }
}

/// Streams a performance's journal into a session's `events.log` on its own thread
/// (`podium-journal`): it takes the journal's finished lines (the journal's lock is held only
/// for that swap), saves the orchestra texts their `compile` lines name, and writes the text
/// through each `sync` line in one write — about once a second — so that after a kill the file
/// ends at a sync line. In memory: at most the lines since the last sync.
///
/// Threads: the writer thread; the owner starts and finishes it; the crash guard's thread may
/// `flushNow()`. `fileLock` serialises them (never the journal's lock).
final class JournalWriter: @unchecked Sendable {
    let directory: URL
    private let journal: Journal
    private let events: FileHandle
    private let fileLock = NSLock()
    private var unsynced = ""
    private var tallyValue: JournalTally
    private var closed = false
    private let wakeup = DispatchSemaphore(value: 0)
    private let running = Atomic<Bool>(true)
    private let done = DispatchSemaphore(value: 0)
    /// Called on the writer thread after each write (about once a second).
    var afterWrite: (@Sendable () -> Void)?
    /// Called once when events.log cannot be written (a full disk).
    var onFailure: (@Sendable (String) -> Void)?
    private var failed = false

    // Thread: NRT (owner)
    init(journal: Journal, directory: URL, events: FileHandle, tally: JournalTally) {
        self.journal = journal
        self.directory = directory
        self.events = events
        tallyValue = tally
    }

    /// Attaches to the journal and starts the thread. False when the journal was discarded.
    // Thread: NRT (owner)
    func start() -> Bool {
        let wakeup = self.wakeup
        guard journal.attach(wake: { wakeup.signal() }) else { return false }
        let thread = Thread { [self] in run() }
        thread.name = "podium-journal"
        thread.start()
        return true
    }

    /// What the lines written so far add up to.
    var tally: JournalTally { fileLock.withLock { tallyValue } }

    /// Takes what the journal holds now (without writing past the last sync): for a take that
    /// needs to know which engine it starts in.
    // Thread: NRT (owner)
    func catchUp() -> JournalTally {
        fileLock.withLock {
            absorb(journal.take(), final: false)
            return tallyValue
        }
    }

    /// Detaches, writes every remaining line (the open k-cycle's too) and closes events.log.
    // Thread: NRT (owner)
    func finish() {
        journal.detach()
        running.store(false, ordering: .releasing)
        wakeup.signal()
        done.wait()
    }

    /// After a fatal signal: everything the journal holds goes to disk now.
    // Thread: the crash guard's
    func flushNow() {
        fileLock.withLock {
            guard !closed else { return }
            absorb(journal.take(all: true), final: true)
            try? events.synchronize()
        }
    }

    // Thread: NRT (podium-journal)
    private func run() {
        while running.load(ordering: .acquiring) {
            _ = wakeup.wait(timeout: .now() + .milliseconds(500))
            fileLock.withLock { absorb(journal.take(), final: false) }
            afterWrite?()
        }
        fileLock.withLock {
            absorb(journal.take(all: true), final: true)
            try? events.synchronize()
            try? events.close()
            closed = true
        }
        done.signal()
    }

    /// Under `fileLock`: orchestra texts first, then the lines through the last sync (all with
    /// `final`) in one write.
    // Thread: NRT (podium-journal, the owner, the crash guard), under fileLock
    private func absorb(_ batch: Journal.Batch, final: Bool) {
        guard !closed else { return }
        for (hash, text) in batch.orchestras {
            let url = directory.appendingPathComponent("orchestras/\(hash).orc")
            if !FileManager.default.fileExists(atPath: url.path) { try? text.write(to: url, atomically: true, encoding: .utf8) }
        }
        var ready = ""
        for line in batch.lines {
            tallyValue.add(line)
            unsynced += line.text
            unsynced += "\n"
            if case .sync = line {
                ready += unsynced
                unsynced = ""
            }
        }
        if final {
            ready += unsynced
            unsynced = ""
        }
        guard !ready.isEmpty, !failed else { return }
        do { try events.write(contentsOf: Data(ready.utf8)) } catch {
            failed = true
            onFailure?("events.log: \(error.localizedDescription)")
        }
    }
}
