import CThreads
import Foundation
import PodiumAudioFile
import PodiumEngine
import PodiumHost
import PodiumSamples

/// The performance's samples: the banks' index, and the files loaded into Csound as tables.
///
/// A file is loaded on its first use (or all of a set's with `--preload`): on the loader thread
/// (`podium-samples`) it is decoded and resampled to the engine's rate (`SampleDecoder`), then
/// the driver makes its tables and has the audio thread copy the values in by slices
/// (`JackDriver.stageValues`), as big tables are: nothing heavy in the callback. Until a file is
/// ready its events wait (the patterns' lookahead is their time); one still loading at its
/// onset is not played, and counted. Loaded tables live as long as their engine (a rebuilt
/// engine loads them again on use).
///
/// Memory: the decoded tables (doubles, the engine's rate) count against `budget` bytes; a
/// file that would pass it is refused with a message. Problems are said once per file or name.
public final class SampleStore: @unchecked Sendable {
    public let library: SampleLibrary
    public let budget: Int
    let driver: JackDriver

    /// A loaded file: its tables (one per channel), frames at the engine's rate, its number
    /// (for negative cut groups).
    public struct Loaded: Sendable {
        public var tables: [Int32]
        public var frames: Int
        public var sampleRate: Double
        public var id: Int
        var generation: UInt32
        var bytes: Int
    }
    enum State { case queued, ready(Loaded), failed(String) }

    public enum Lookup: Sendable {
        case ready(Loaded)
        case loading
        /// The file cannot be played (said once, when it failed).
        case failed
        /// No bank has the name.
        case unknown
    }

    let lock = NSLock()
    var states: [String: State] = [:]
    var ids: [String: Int] = [:]
    var queue: [String] = []
    var usedBytes = 0
    var said: Set<String> = []
    let wake = DispatchSemaphore(value: 0)
    var thread: Thread?
    var stopping = false
    /// Decoded files whose tables the engine did not finish taking (kept: see `load`).
    var kept: [DecodedSample] = []
    /// Events not played because their file was still loading at their onset.
    public private(set) var late = 0
    public private(set) var loadedFiles = 0
    public private(set) var loadSeconds = 0.0
    public var onProblem: (@Sendable (String) -> Void)?

    /// The default budget: 1 GiB of decoded audio (about 45 minutes of mono at 48 kHz).
    public static let defaultBudget = 1 << 30

    // Thread: NRT (owner)
    public init(library: SampleLibrary, driver: JackDriver, budget: Int = SampleStore.defaultBudget) {
        self.library = library
        self.driver = driver
        self.budget = budget
    }

    deinit { stop() }

    /// Starts the loader thread.
    // Thread: NRT (owner)
    public func start() {
        let t = Thread { [weak self] in
            _ = podium_nice_current_thread(5)
            while let self, !self.lock.withLock({ self.stopping }) {
                self.wake.wait()
                self.drain()
            }
        }
        t.name = "podium-samples"
        t.start()
        thread = t
    }

    // Thread: NRT (owner)
    public func stop() {
        lock.withLock { stopping = true }
        wake.signal()
    }

    /// The bytes of tables loaded into the current engine.
    public var memoryUsed: Int { lock.withLock { usedBytes } }

    /// What `name` (with `index`, in `bank`) plays now; a file not loaded yet is queued.
    // Thread: any (the scheduler's, a surface's)
    public func lookup(_ name: String, index: Int, bank: String? = nil) -> (Lookup, SampleLibrary.Choice?) {
        guard let choice = library.choose(name, index: index, bank: bank) else { return (.unknown, nil) }
        let generation = driver.currentGeneration
        return lock.withLock {
            switch states[choice.path] {
            case let .ready(l)? where l.generation == generation:
                return (.ready(l), choice)
            case .failed?:
                return (.failed, choice)
            case .queued?:
                return (.loading, choice)
            case .ready?, nil:
                // Not loaded, or loaded into an engine since rebuilt (its tables went with it).
                if case let .ready(old)? = states[choice.path] { usedBytes -= old.bytes }
                states[choice.path] = .queued
                queue.append(choice.path)
                wake.signal()
                return (.loading, choice)
            }
        }
    }

    /// Queues every file of every bank; returns a message when they would pass the budget
    /// (nothing is queued then: they load on first use).
    // Thread: NRT (owner)
    public func preload() -> String? {
        let rate = Int(driver.engine.sampleRate)
        var total = 0
        for f in library.allFiles { total += (try? SampleDecoder.inspect(f, sampleRate: rate).bytes) ?? 0 }
        guard total <= budget else {
            return "--preload: the banks take \(SampleDecoder.megabytes(total)) decoded at \(rate) Hz, more than the samples' memory budget (\(SampleDecoder.megabytes(budget)); --samples-memory MB): nothing preloaded, each file loads on first use"
        }
        lock.withLock {
            for f in library.allFiles where states[f] == nil {
                states[f] = .queued
                queue.append(f)
            }
        }
        wake.signal()
        return nil
    }

    /// Waits until nothing is queued (tests, `--preload` before a script plays).
    // Thread: NRT
    @discardableResult
    public func waitIdle(timeout: Double = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if lock.withLock({ queue.isEmpty && !states.values.contains { if case .queued = $0 { return true }; return false } }) { return true }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return false
    }

    /// Loaded files, their memory against the budget, and late events: one line.
    // Thread: any
    public var summary: String {
        lock.withLock {
            let failed = states.values.filter { if case .failed = $0 { return true }; return false }.count
            return "\(loadedFiles) files loaded (\(SampleDecoder.megabytes(usedBytes)) of \(SampleDecoder.megabytes(budget))), \(failed) refused, \(late) events late while loading"
        }
    }

    /// What `name` (`bd:3`) plays: its bank, sound and file; or why nothing.
    // Thread: any
    public func describe(_ text: String) -> String {
        let (name, index) = text.firstIndex(of: ":").flatMap { c in Int(text[text.index(after: c)...]).map { (String(text[..<c]), $0) } } ?? (text, 0)
        guard let c = library.choose(name, index: index) else { return "no bank has \"\(name)\" (:samples lists the names)" }
        let count = library.banks.first { $0.name == c.bank }?.sounds[c.sound]?.count ?? 1
        return "\(text): \(c.bank)'s \(c.sound), file \(c.index + 1) of \(count): \(c.path)"
    }

    /// Counts an event not played because its file was not ready at its onset; says so once per file.
    // Thread: any
    public func countLate(_ choice: SampleLibrary.Choice) {
        let first = lock.withLock { () -> Bool in
            late += 1
            return said.insert("late " + choice.path).inserted
        }
        if first { onProblem?("samples: \(choice.sound):\(choice.index) was still loading at its onset; it plays from its next event on") }
    }

    /// Says `message` once (keyed by `key`).
    // Thread: any
    public func sayOnce(_ key: String, _ message: String) {
        if lock.withLock({ said.insert(key).inserted }) { onProblem?(message) }
    }

    /// Files loaded by one compile at most (two tables each, for stereo: the staging's eight):
    /// every compile keeps some of Csound's memory, so a bank loads in few of them.
    static let batch = TableStaging.maximumTables / 2

    // Thread: podium-samples
    private func drain() {
        while true {
            let batch = lock.withLock { () -> [String] in
                let b = Array(queue.prefix(SampleStore.batch))
                queue.removeFirst(b.count)
                return b
            }
            guard !batch.isEmpty else { return }
            let began = ContinuousClock.now
            let results = load(batch)
            let spent = began.duration(to: .now)
            for (path, result) in zip(batch, results) {
                guard case let .success(state) = result else {
                    // The engine could not take it now (no audio thread): tried again on its next use.
                    lock.withLock { states[path] = nil }
                    if case let .failure(t) = result { sayOnce("engine " + path, "samples: \(t.message)") }
                    continue
                }
                lock.withLock {
                    states[path] = state
                    if case let .ready(l) = state {
                        loadedFiles += 1
                        usedBytes += l.bytes
                        loadSeconds += (Double(spent.components.seconds) + Double(spent.components.attoseconds) / 1e18) / Double(batch.count)
                    }
                }
                if case let .failed(message) = state { onProblem?("samples: \(message)") }
            }
        }
    }

    struct Transient: Error { var message: String }

    /// Decodes `paths` and has their tables made and filled by one compile: each file's state,
    /// or a failure the engine had now (not the file's).
    // Thread: podium-samples
    private func load(_ paths: [String]) -> [Result<State, Transient>] {
        let generation = driver.currentGeneration
        let rate = Int(driver.engine.sampleRate)
        var results: [Result<State, Transient>?] = Array(repeating: nil, count: paths.count)
        var decoded: [(index: Int, sample: DecodedSample, descriptor: SampleDescriptor)] = []
        var left = lock.withLock { budget - usedBytes }
        for (i, path) in paths.enumerated() {
            do {
                let d = try SampleDecoder.decode(path, sampleRate: rate, maximumBytes: left)
                let descriptor = try SampleDescriptor(file: path, sampleRate: rate)
                for note in d.notes { onProblem?("samples: \(note)") }
                left -= d.bytes
                decoded.append((i, d, descriptor))
            } catch {
                results[i] = .success(.failed(error.description + (error.reason.contains("budget") ? " (--samples-memory MB)" : "")))
            }
        }
        if !decoded.isEmpty {
            var tables: [(values: UnsafeMutablePointer<Double>, length: Int)] = []
            var named: [(text: String, index: Int)] = []
            for d in decoded {
                for (c, values) in d.sample.channels.enumerated() {
                    tables.append((values, d.sample.frames))
                    named.append((d.descriptor.text, c))
                }
            }
            do {
                // The values stay alive until the audio thread has taken every slice (stageValues returns then).
                let numbers = try withExtendedLifetime(decoded) {
                    try driver.stageValues(tables, named: named, source: "samples")
                }
                var next = 0
                for d in decoded {
                    let mine = Array(numbers[next..<(next + d.sample.channels.count)])
                    next += d.sample.channels.count
                    let path = paths[d.index]
                    let id = lock.withLock { () -> Int in
                        if let i = ids[path] { return i }
                        ids[path] = ids.count + 1
                        return ids.count
                    }
                    results[d.index] = .success(.ready(Loaded(tables: mine, frames: d.sample.frames, sampleRate: Double(rate), id: id,
                                                               generation: generation, bytes: d.sample.bytes)))
                }
            } catch {
                // Slices of them may still wait in the audio thread's ring (a stalled server):
                // their values are never freed.
                lock.withLock { kept.append(contentsOf: decoded.map(\.sample)) }
                for d in decoded { results[d.index] = .failure(Transient(message: "\(paths[d.index]): not loaded now: \(error)")) }
            }
        }
        return results.map { $0 ?? .failure(Transient(message: "not loaded")) }
    }
}
