import Foundation
import PodiumEngine

// One compile queue for the performance. Every surface — the REPL, OSC, the csound port, the
// file watcher, scripts — hands orchestra code to it and returns at once (through its
// `SurfaceLane`); one thread, `podium-compile`, checks each text in a child process within the
// compile limits, compiles it and waits for the audio thread to merge it, then answers. A
// compile's cost is never a surface's stall: a heavy check holds this thread, not OSC's or the
// REPL's. What is refused at once — a typo Csound's parser must not see, a table over the
// budget, a compile over the compile budget, a full queue — is answered before anything queues.
// The check (`podium check --serve`'s warm checker: a child per text, one at a time, under
// `CompileLimits`: RLIMIT_CPU, RLIMIT_AS, a wall-time kill, nice 10) parses the text *and runs
// its global code for two k-cycles*, so text on which Csound 6.18 aborts or crashes, an INIT
// ERROR, or an ftgen that cannot open its file is refused with its line before the performing
// engine sees it; Csound's "memory allocate failure" there is a refusal, not a pass. Global
// code thus runs twice (once in the child). Children cost 20–30 ms of CPU each: CompileBudget.

/// The performance's compiles, in the order they were handed in.
final class CompileQueue: @unchecked Sendable {
    struct Job {
        let run: () throws -> UInt64
        let answer: @Sendable (Result<UInt64, Error>) -> Void
    }

    /// Compiles waiting at most (a surface that floods is answered at once beyond it).
    static let capacity = 16

    private let lock = NSLock()
    private var jobs: [Job] = []
    private var running = false
    private var stopping = false
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Queues a compile; throws when the queue is full or stopped.
    // Thread: NRT (a surface's)
    func enqueue(_ job: Job) throws {
        try lock.withLock {
            guard !stopping else { throw InputError("the performance is stopping; not compiled") }
            guard jobs.count < CompileQueue.capacity else {
                throw InputError("\(CompileQueue.capacity) compiles are waiting already; not compiled")
            }
            jobs.append(job)
            if !running {
                running = true
                let t = Thread { [self] in work() }
                t.name = "podium-compile"
                t.start()
            }
        }
        wake.signal()
    }

    // Thread: NRT (podium-compile)
    private func work() {
        while true {
            wake.wait()
            guard let job = lock.withLock({ stopping ? nil : jobs.isEmpty ? Optional<Job>.none : jobs.removeFirst() }) else {
                if lock.withLock({ stopping }) { break }
                continue
            }
            job.answer(Result { try job.run() })
        }
        finished.signal()
    }

    /// Stops the thread after the compile in progress; what still waits is answered as refused.
    /// A later `enqueue` starts it again (a driver started anew).
    // Thread: NRT (owner)
    func stop() {
        let (wasRunning, left): (Bool, [Job]) = lock.withLock {
            stopping = true
            defer { jobs = [] }
            return (running, jobs)
        }
        if wasRunning {
            wake.signal()
            finished.wait()
        }
        for job in left { job.answer(.failure(InputError("the performance stopped before this compile; not compiled"))) }
        lock.withLock { running = false; stopping = false }
    }
}

extension JackDriver {
    /// Hands `text` to the compile queue: refused at once (thrown) when it cannot be compiled
    /// (OrchestraCheck.lexical, the table budget, the compile budget, a full queue); else
    /// `answer` comes on the compile thread once the audio thread merged it or it was refused.
    /// Surfaces call this through their `SurfaceLane`, which keeps their order.
    // Thread: NRT (a surface's)
    func submitCompile(_ text: String, source: String, answer: @escaping @Sendable (Result<UInt64, Error>) -> Void) throws {
        try admitCompile(text, source: source)
        try compileQueue.enqueue(CompileQueue.Job(run: { [self] in try compileAdmitted(text, source: source) }, answer: answer))
    }
}

extension JackDriver {
    /// `evaluate` on the compile thread: `answer` gets whether the audio thread ran the code
    /// (false also when it could not be queued).
    // Thread: NRT (a surface's)
    public func evaluateQueued(_ code: String, answer: @escaping @Sendable (Bool) -> Void) {
        do {
            try compileQueue.enqueue(CompileQueue.Job(run: { [self] in try evaluate(code) ? 1 : 0 }, answer: { answer((try? $0.get()) == 1) }))
        } catch {
            answer(false)
        }
    }
}
