import CJack
import Foundation
import Glibc
import Synchronization

/// One line of Csound's (or the host's) console.
public struct ConsoleLine: Sendable, Equatable {
    public enum Level: Int, Sendable, Comparable {
        case debug, info, orchestra, warning, error
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
        /// From Csound's message attribute (msg_attr.h: CSOUNDMSG_*).
        init(csoundAttribute attr: Int32) {
            switch attr & 0x7000 {
            case 0x1000: self = .error
            case 0x2000, 0x5000: self = .orchestra  // ORCH (print opcodes), STDOUT
            case 0x3000: self = .debug               // REALTIME (perf counters)
            case 0x4000: self = .warning
            default: self = .info
            }
        }
    }
    public var level: Level
    public var text: String
    public init(level: Level, text: String) { self.level = level; self.text = text }
}

/// State the message callback reaches through Csound's host-data pointer.
/// Preallocated; the RT branch touches only this (no ARC, no locks).
struct ConsoleShared: ~Copyable {
    /// Messages from the audio thread (drops the oldest when full); one producer (RT), one consumer.
    var rtRing: ConsoleRing
    /// pthread_t of the thread that performs in real time; 0 when none.
    let rtThread = Atomic<UInt>(0)
    /// Messages from the audio thread lost to overflow (the oldest; counted by the consumer).
    let rtDropped = Atomic<Int>(0)
    /// The NRT side (any other thread that prints: compile, parse, offline perform).
    let owner: Unmanaged<Console>
}

let recordHeaderSize = 6
let maxRecordText = 1024

/// RT branch of the message callback: copy bytes into the ring and return.
// Thread: RT (the audio thread while performing)
@_noLocks @_noAllocation
func consoleWriteRT(_ shared: UnsafeMutablePointer<ConsoleShared>, _ attr: Int32, _ text: UnsafePointer<CChar>) {
    let length = _unsafePerformance { min(Int(strnlen(text, maxRecordText)), maxRecordText) }
    shared.pointee.rtRing.write(attr: attr, text: text, length: length)
}

/// Csound's message-string callback. Runs on whatever thread prints: the audio thread during
/// the performance (checked like the process callback), the compiling thread otherwise.
// Thread: RT (while performing: the lock-free ring) or NRT (compile, start: the NRT branch,
// exempt from the checks through `_unsafePerformance`, takes a mutex and allocates)
@_noLocks @_noAllocation
func consoleMessage(_ cs: OpaquePointer?, _ attr: Int32, _ text: UnsafePointer<CChar>?) {
    guard let cs, let text, let host = _unsafePerformance({ CsoundAPI.hostData(cs) }) else { return }
    let shared = host.assumingMemoryBound(to: EngineHostData.self).pointee.console
    if _unsafePerformance({ UInt(pthread_self()) }) == shared.pointee.rtThread.load(ordering: .acquiring) {
        consoleWriteRT(shared, attr, text)
    } else {
        _unsafePerformance { shared.pointee.owner.takeUnretainedValue().appendNRT(attr: attr, text: text) }
    }
}
let consoleMessageCallback: @convention(c) (OpaquePointer?, Int32, UnsafePointer<CChar>?) -> Void = consoleMessage

/// Collects Csound's console from every thread and hands it out as whole lines.
/// The audio thread writes into a lock-free ring; other threads append under a mutex.
/// `drain()` is called by one consumer (the console router / the offline driver).
public final class Console: @unchecked Sendable {
    let shared: UnsafeMutablePointer<ConsoleShared>

    private struct NRTState {
        var fragments: [(Int32, String)] = []
        var captureThread: UInt = 0
        var captured: [(Int32, String)] = []
    }
    /// A pthread lock, not Synchronization's `Mutex`: the warm checker forks children from a
    /// process whose engines used this console, and `Mutex`'s owner check keeps the parent's
    /// thread id in the child (an unlock there traps).
    private let nrtLock = NSLock()
    private var nrtState = NRTState()
    // Consumer-only state (one drainer).
    private var pending: [Int: (ConsoleLine.Level, String)] = [:]
    /// Csound prints "Score finished in csoundPerformKsmps() with 2." in every k-cycle after
    /// its score ended (a live performance goes on: 4,479 lines in 24 s): said once, the
    /// repeats counted (the one console consumer's).
    private var scoreFinishedSaid = false
    public private(set) var scoreFinishedRepeats = 0

    // Thread: NRT (owner)
    /// `ringBytes`: the audio thread's ring of console lines, 256 bytes a line: 1 MiB holds
    /// 4,096 lines, 2.7 s of a line every k-cycle at 1,500 k-cycles a second, while the
    /// draining thread waits for a core (64 KiB, 170 ms, lost lines when the callback ran
    /// real-time on a loaded machine). Its pages are touched only as lines come.
    public init(ringBytes: Int = 1 << 20) {
        shared = .allocate(capacity: 1)
        shared.initialize(to: ConsoleShared(rtRing: ConsoleRing(slots: max(16, ringBytes / ConsoleRing.slotBytes)), owner: .passUnretained(self)))
    }

    deinit {
        shared.deinitialize(count: 1)
        shared.deallocate()
    }

    /// A handle the audio thread keeps without reference counting.
    public var realtimeHandle: RealtimeConsoleHandle { RealtimeConsoleHandle(shared: shared) }


    /// The pthread_t of the thread that last performed in real time (0: none yet).
    public var realtimeThread: UInt { shared.pointee.rtThread.load(ordering: .acquiring) }


    /// Messages the audio thread dropped because the ring was full.
    public var droppedMessages: Int { shared.pointee.rtDropped.load(ordering: .relaxed) }

    // Thread: NRT (any thread but the audio thread)
    func appendNRT(attr: Int32, text: UnsafePointer<CChar>) {
        let s = String(cString: text)
        let me = UInt(pthread_self())
        nrtLock.withLock {
            // What a capture collects belongs to its caller (an error it throws, or `post`).
            if nrtState.captureThread == me { nrtState.captured.append((attr, s)) } else { nrtState.fragments.append((attr, s)) }
        }
    }

    /// Runs `body` and returns what Csound printed on this thread meanwhile, as lines.
    // Thread: NRT
    func capturing<T>(_ body: () throws -> T) rethrows -> (T, [ConsoleLine]) {
        let me = UInt(pthread_self())
        nrtLock.withLock { nrtState.captureThread = me; nrtState.captured = [] }
        let result = try body()
        let fragments = nrtLock.withLock { () -> [(Int32, String)] in
            nrtState.captureThread = 0
            defer { nrtState.captured = [] }
            return nrtState.captured
        }
        var assembler: [Int: (ConsoleLine.Level, String)] = [:]
        var lines: [ConsoleLine] = []
        for (attr, text) in fragments { Console.assemble(attr: attr, text: text, stream: 0, pending: &assembler, into: &lines) }
        if let rest = assembler[0], !rest.1.isEmpty { lines.append(ConsoleLine(level: Console.classify(rest.0, rest.1), text: rest.1)) }
        return (result, lines)
    }

    /// Puts captured lines back into the stream (a compile that succeeded).
    // Thread: NRT
    func post(_ lines: [ConsoleLine]) {
        guard !lines.isEmpty else { return }
        nrtLock.withLock {
            for line in lines { nrtState.fragments.append((line.level == .error ? 0x1000 : line.level == .warning ? 0x4000 : 0, line.text + "\n")) }
        }
    }

    /// Whole lines printed since the last drain, from every thread.
    // Thread: NRT (the one console consumer)
    public func drain() -> [ConsoleLine] {
        var lines: [ConsoleLine] = []
        var pieces: [(Int32, String)] = []
        let lost = shared.pointee.rtRing.read { attr, bytes in
            pieces.append((attr, String(decoding: bytes, as: UTF8.self)))
        }
        if lost > 0 {
            shared.pointee.rtDropped.add(Int(lost), ordering: .relaxed)
            // A line whose start was overwritten would be spliced: drop the unfinished one.
            pending[1] = nil
            lines.append(ConsoleLine(level: .warning, text: "podium: \(lost) console messages from the audio thread dropped (the oldest; the console could not keep up)"))
        }
        for (attr, text) in pieces { Console.assemble(attr: attr, text: text, stream: 1, pending: &pending, into: &lines) }
        let fragments = nrtLock.withLock { () -> [(Int32, String)] in defer { nrtState.fragments = [] }; return nrtState.fragments }
        for (attr, text) in fragments { Console.assemble(attr: attr, text: text, stream: 0, pending: &pending, into: &lines) }
        return sayScoreFinishedOnce(lines)
    }

    // Thread: NRT (the one console consumer)
    private func sayScoreFinishedOnce(_ lines: [ConsoleLine]) -> [ConsoleLine] {
        guard lines.contains(where: { $0.text.hasPrefix("Score finished in csoundPerformKsmps()") }) else { return lines }
        return lines.compactMap { line in
            guard line.text.hasPrefix("Score finished in csoundPerformKsmps()") else { return line }
            if scoreFinishedSaid { scoreFinishedRepeats += 1; return nil }
            scoreFinishedSaid = true
            return ConsoleLine(level: line.level, text: line.text + " (the score ended; the performance goes on, and Csound's repeats of this line are not shown)")
        }
    }

    /// Lines still waiting for their newline (end of performance).
    // Thread: NRT (the one console consumer)
    public func flush() -> [ConsoleLine] {
        var lines = drain()
        for key in pending.keys.sorted() {
            if let (level, text) = pending[key], !text.isEmpty { lines.append(ConsoleLine(level: Console.classify(level, text), text: text)) }
        }
        pending = [:]
        return lines
    }

    /// Csound prints fragments; a line ends at "\n". Colour codes and NULs are removed.
    static func assemble(attr: Int32, text: String, stream: Int, pending: inout [Int: (ConsoleLine.Level, String)], into lines: inout [ConsoleLine]) {
        let level = ConsoleLine.Level(csoundAttribute: attr)
        var (currentLevel, current) = pending[stream] ?? (level, "")
        if current.isEmpty { currentLevel = level } else if level > currentLevel { currentLevel = level }
        // Whole pieces between newlines, not characters: a printk flood is thousands a second.
        let clean = text.utf8.contains(where: { $0 == 0x1B || $0 == 0 }) ? stripANSI(text) : text
        var pieces = clean.split(separator: "\n", omittingEmptySubsequences: false)
        let rest = pieces.removeLast()
        for piece in pieces {
            current += piece
            lines.append(ConsoleLine(level: Console.classify(currentLevel, current), text: current))
            current = ""
            currentLevel = level
        }
        current += rest
        pending[stream] = (currentLevel, current)
    }

    /// Csound sends most of its chatter (banner, "orch now loaded", sr) with the ERROR
    /// attribute, because the CLI prints it to stderr: only text that reads as an error stays one.
    static func classify(_ level: ConsoleLine.Level, _ text: String) -> ConsoleLine.Level {
        guard level == .error else { return level }
        let markers = ["error", "unexpected", "failed", "cannot", "not found", "undefined", "invalid",
                       ">>>", "line ", "line:", "illegal", "unknown", "no legal", "not initialised", "aborted"]
        let lower = text.lowercased()
        if lower.hasPrefix("warning") { return .warning }
        return markers.contains { lower.contains($0) } ? .error : .info
    }

    static func stripANSI(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        var it = s.unicodeScalars.makeIterator()
        while let c = it.next() {
            if c == "\u{1B}" {
                // ESC [ params final-byte
                if let next = it.next(), next == "[" {
                    while let p = it.next(), !(p.value >= 0x40 && p.value <= 0x7E) {}
                }
                continue
            }
            if c == "\0" { continue }
            out.unicodeScalars.append(c)
        }
        return out
    }
}

/// What the audio thread needs of the console: declaring itself the real-time printer.
public struct RealtimeConsoleHandle: @unchecked Sendable {
    let shared: UnsafeMutablePointer<ConsoleShared>

    /// Messages printed on this thread from now on go through the lock-free ring.
    /// Called at every callback: JACK's thread changes when the client reconnects.
    // Thread: RT
    @_noLocks @_noAllocation
    public func claimCurrentThread() {
        let me = _unsafePerformance { UInt(pthread_self()) }
        if shared.pointee.rtThread.load(ordering: .relaxed) != me {
            shared.pointee.rtThread.store(me, ordering: .releasing)
        }
    }
}
