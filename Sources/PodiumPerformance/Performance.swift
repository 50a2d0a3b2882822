import CCrashGuard
import Dispatch
import Foundation
import PodiumDiscovery
import PodiumEngine
import PodiumHost
import PodiumOSC
import PodiumSession
import PodiumSurfaces
import PodiumWeb
import Synchronization

/// One live performance: a JACK server if none runs, the driver and its engine, the console
/// stream, the session, the surfaces (OSC, csound port, stage page, hot reload, loops, REPL or
/// piped input, a script) — started in that order by `start()`, and taken down by `stop()`,
/// the one teardown path (also after a failed start). `podium play` is argument parsing around
/// this; tests start one without the CLI.
///
/// Threads: `start`, `run` and `stop` on the owner's thread (the REPL, when there is one, runs
/// on it inside `run`); `requestStop` from any thread.
public final class Performance: @unchecked Sendable {
    public let options: PerformanceOptions
    /// Podium's own lines (stderr for the CLI); REPL replies (stdout for the CLI).
    let say: @Sendable (String) -> Void
    let output: @Sendable (String) -> Void

    public internal(set) var driver: JackDriver?
    public internal(set) var osc: OSCSurface?
    public internal(set) var web: WebSurface?
    public internal(set) var recording: Recording?
    var embedded: JackServer?
    let router = ConsoleRouter()
    var driverStarted = false
    var textPort: CsoundTextPort?
    public internal(set) var dirt: DirtSurface?
    var reloader: HotReload?
    var loops: LiveLoops?
    var loopsWatcher: FileWatcher?
    var patternsWatcher: FileWatcher?
    /// The sample banks and the files loaded from them (nil: no banks).
    var samples: SampleStore?
    var repl: ReadlineREPL?
    /// The surfaces' services on the LAN.
    var advertiser: AvahiPublisher?
    /// Whether `handleSignals` started the signals' thread (`stop` ends it).
    var signalsHandled = false
    /// Nobody can hear JACK's dummy backend: the performance is recorded to listen to afterwards.
    var recordForListening = false
    /// `start` finished: the teardown then reports the performance's end.
    var started = false
    var stopped = false
    let stopSignal = DispatchSemaphore(value: 0)
    let stopping = Atomic<Bool>(false)

    // Thread: NRT (owner)
    public init(options: PerformanceOptions, say: @escaping @Sendable (String) -> Void,
                output: @escaping @Sendable (String) -> Void) {
        self.options = options
        self.say = say
        self.output = output
    }

    /// Starts everything; on a failure, takes down what started (`stop`) and throws the reason.
    // Thread: NRT (owner)
    public func start() throws {
        do { try startAll() } catch {
            stop()
            throw error
        }
        started = true
    }

    /// Waits for the end: the REPL's `:quit`, the duration, a script's end, the csound port's
    /// close, piped input's end, `requestStop` or a signal. Then call `stop`.
    // Thread: NRT (owner; the REPL runs here)
    public func run() {
        if let repl {
            let deadline = options.duration.map { ContinuousClock.now + .milliseconds(Int64($0 * 1000)) }
            repl.run(shouldStop: {
                self.stopping.load(ordering: .relaxed) || self.stopSignal.wait(timeout: .now()) == .success
                    || deadline.map { ContinuousClock.now >= $0 } ?? false
            })
        } else if let duration = options.duration {
            _ = stopSignal.wait(timeout: .now() + duration)
        } else {
            stopSignal.wait()
        }
    }

    /// Ends `run` (from any thread).
    // Thread: any
    public func requestStop() {
        stopping.store(true, ordering: .relaxed)
        stopSignal.signal()
    }

    /// How long the teardown may take before the process ends anyway (`StopWatchdog`).
    static let stopSeconds = 20.0

    /// SIGINT and SIGTERM end the performance (Ctrl-C at the REPL only clears the line). Called
    /// before `start`: a signal during the start stops the performance once it has started.
    /// The handler is C's (`stop_signals.c`), installed at once; a thread of its own acts on it.
    // Thread: NRT (owner)
    public func handleSignals() {
        podium_stop_signals_install()
        let thread = Thread { [weak self] in
            while true {
                let sig = podium_stop_signals_wait()
                guard sig != 0, let self else { return }
                if sig == SIGINT, let repl = self.repl { repl.interrupt(); continue }
                self.requestStop()
            }
        }
        thread.name = "podium-signals"
        thread.start()
        signalsHandled = true
    }

    /// The one teardown: surfaces first, then the recording, the driver, the session, the
    /// console, the embedded server. Idempotent; after a failed start it stops what started.
    // Thread: NRT (owner)
    public func stop() {
        guard !stopped else { return }
        stopped = true
        // A stop that hangs still ends the process: the session's journal is written as the
        // performance goes, and a performer must be able to start again at once.
        let watchdog = StopWatchdog(seconds: Performance.stopSeconds)
        defer { watchdog.finished() }
        watchdog.phase("the surfaces")
        // First: no controller should find a surface that is about to close.
        advertiser?.stop()
        advertiser = nil
        osc?.stop()
        textPort?.stop()
        dirt?.stop()
        reloader?.stop()
        loopsWatcher?.stop()
        patternsWatcher?.stop()
        samples?.stop()
        loops?.stopScheduler()
        let recorded = recording?.recordingDirectory
        watchdog.phase("the recording")
        if let summary = recording?.stopRecording() { say("podium: \(summary)") }
        watchdog.phase("the stage page")
        web?.stop()
        watchdog.phase("the JACK client and Csound")
        if let driver, driverStarted {
            let stats = driver.stats  // while the client is open: JACK's DSP load is read from it
            driver.stop()
            WarmChecker.shared.stop()
            if started { say("podium: stopped. \(stats)") }
            if started, driver.refusedCompiles > 0 { say("podium: compiles refused by the budget (each is checked in a child process): \(driver.refusedCompiles)") }
        }
        // After the driver stopped: the journal's last sync line is the performance's end. The
        // console's last lines (the driver's final drain) reach console.log before it closes.
        watchdog.phase("the console's last lines")
        if recording != nil, case let late = router.flush(timeout: 10), late > 0 {
            say("podium: console.log misses the console's last \(late) lines (the console thread did not deliver them within 10 s)")
        }
        watchdog.phase("the session")
        if let summary = recording?.finish() { say("podium: \(summary)") }
        if started, let osc { say("podium: osc: \(osc.stats.summary)") }
        if started, let web {
            say("podium: web: \(web.stats.summary)")
            let c = web.collabStats
            if c.pages > 0 { say("podium: editor: \(c.summary)") }
        }
        if started, let dirt { say("podium: dirt: \(dirt.summary)") }
        // Last, so that a newcomer sees it: the file to listen to.
        if started, recordForListening, let recorded { say("podium: " + ListenLine.describe(audio: recorded + "/audio.wav")) }
        watchdog.phase("the console and the embedded server")
        router.stop()
        embedded?.stop()
        if signalsHandled { podium_stop_signals_release() }
    }
}
