import Dispatch
import Foundation
import PodiumEngine
import PodiumHost
import PodiumOSC
import PodiumSession
import PodiumSurfaces
import PodiumWeb
import Synchronization

// `Performance.start`'s steps, in order. Each one that fails throws; `start` then calls the
// one teardown (`Performance.stop`), which stops whatever had started.

extension Performance {
    // Thread: NRT (owner)
    func startAll() throws {
        try startServerIfNone()
        // The sample banks are indexed first: with any, the engine gets the sampler's instruments.
        let library = SamplesSetup.library(options)
        var engineOptions = EngineOptions(seed: options.seed)
        engineOptions.sampler = !library.isEmpty
        let driver = JackDriver(source: options.source, options: engineOptions, jack: options.jack)
        self.driver = driver
        // One console stream: Csound's lines and Podium's notices, to the terminal (filtered),
        // the session's console.log and OSC subscribers.
        let say = self.say
        router.setSink("terminal", .init(minimum: options.minimumLevel, batch: { say($0.map(\.text).joined(separator: "\n")) }))
        router.start()
        let router = self.router
        driver.onConsole = { router.post($0) }
        driver.onNotice = { router.notice($0) }
        do { try driver.start() } catch { throw PerformanceError("\(error)") }
        driverStarted = true
        say("podium: playing \(options.orchestra) — \(driver.description)")
        if let kept = driver.engine.dirtSynthsKeptByOrchestra, !kept.isEmpty {
            say("podium: the orchestra's own \(kept.joined(separator: ", ")) play\(kept.count == 1 ? "s" : "") in place of SuperDirt's synth\(kept.count == 1 ? "" : "s") of that name")
        } else if driver.engine.dirtSynthsKeptByOrchestra == nil {
            say("podium: SuperDirt's synths are not in this performance: the orchestra's instrument numbers leave no room for them below \(OrchestraCheck.maximumInstrumentNumber + 1) (Csound numbers named instruments after the highest)")
        }
        // The warm checker (live code is checked in a child forked from it): started now, so that
        // the first compile does not wait for it. A compile starts it again if this fails.
        do { try WarmChecker.shared.start() } catch { router.notice("the orchestra checker did not start now (\(error)); a compile starts it") }
        if options.link { startLink(driver) }
        let recording = startSession(driver)
        // The OSC map is read once, for OSC and for the stage page's layout.
        let map: OSCMap?
        do { map = try options.mapPath.map { try OSCMap(contentsOf: $0) } } catch { throw PerformanceError("\(error)") }
        try startOSC(driver, recording: recording, map: map)
        startWeb(driver, map: map)
        startReload(driver)
        osc?.reloader = reloader
        let (loops, loopsWatcher) = LoopsSetup.start(driver: driver, orchestra: options.orchestra, watch: options.watch) { line, error in
            router.notice(line, level: error ? .error : .orchestra)
        }
        self.loops = loops
        self.loopsWatcher = loopsWatcher
        samples = SamplesSetup.start(library, driver: driver, options: options, patterns: loops.patterns) { line, error in
            router.notice(line, level: error ? .error : .orchestra)
        }
        patternsWatcher = PatternsSetup.start(loops: loops, orchestra: options.orchestra, watch: options.watch) { line, error in
            router.notice(line, level: error ? .error : .orchestra)
        }
        osc?.loops = loops
        web?.loops = loops
        if let web {
            // The editor lights each step as the audio thread starts its note.
            loops.patterns.watchSteps = true
            let sampleRate = driver.engine.sampleRate
            driver.onApplied = { [weak web] a in
                guard a.kind == .command, a.command.kind == .event, let step = loops.patterns.takeStep(a.id) else { return }
                web?.lit(step, frame: a.frame + Int64((a.command.pfields[1] * sampleRate).rounded(.down)))
            }
            // A note the audio thread refused marks its slot's line (a sample of them: a few a callback).
            driver.onRefused = { loops.patterns.noteRefused($0) }
        }
        // A hush from a controller (CC 123 on midi_in) ends the loops and patterns too; one a
        // surface posted did so when it was asked for (and ends nothing started since).
        driver.onHush = { loops.hushApplied() }
        try startCsoundPort(driver)
        try startDirt(driver, loops: loops)
        startAdvertising()
        startInput(driver, recording: recording, loops: loops)
        startScript(driver)
    }

    /// With no JACK server running, starts one (it stops with the performance).
    // Thread: NRT (owner)
    func startServerIfNone() throws {
        let serverName = options.jack.serverName ?? JackDriver.defaultServerName
        guard !JackServer.isRunning(name: serverName) else { return }
        // PipeWire's libjack (pw-jack) cannot start jackd, and beside a running PipeWire a
        // jackd on the sound card would fight it for the card.
        if PipeWire.isJackLibrary {
            throw PerformanceError("PipeWire does not answer (this podium runs on PipeWire's JACK library, through pw-jack): start it (systemctl --user start pipewire wireplumber), or run podium without pw-jack to use jackd")
        }
        if options.netServer == nil, PipeWire.isRunning() {
            throw PerformanceError("no JACK server is running, and PipeWire is: \(PipeWire.howToPlay); podium does not start jackd beside it (it would fight PipeWire for the sound card)")
        }
        guard options.startServer else { throw PerformanceError("no JACK server \"\(serverName)\" is running (--jack-server none)") }
        if let net = options.netServer {
            do {
                let s = try JackServer.startNet(name: serverName, options: net)
                embedded = s
                say("podium: started a netJACK2 slave \"\(serverName)\": its master answered (\(s.netSummary ?? "")); in the master's graph this machine is the client \"\(net.clientName)\"; it stops when podium does")
            } catch {
                throw PerformanceError("could not join a netJACK2 master: \(error)")
            }
            return
        }
        do {
            let s = try JackServer.start(name: serverName)
            embedded = s
            say("podium: no JACK server was running; started jackd \"\(serverName)\" with the \(s.backend == .alsa ? "ALSA default device (hw:0)" : "dummy backend (no sound card found): 48000 Hz, period 256"); it stops when podium does")
        } catch {
            throw PerformanceError("could not start a JACK server: \(error)")
        }
    }

    // Thread: NRT (owner)
    func startLink(_ driver: JackDriver) {
        if options.linkStartStop { driver.setLinkStartStopSync(true) }
        say(driver.setLink(true) ? "podium: Ableton Link on (UDP 20808, multicast 224.76.78.75)" : "podium: could not start Ableton Link")
        if options.linkStartStop { say("podium: Link start/stop sync: the beat clock plays when the session does (:link start starts it on the next bar)") }
    }

    /// The session (unless not kept) and, with `record` or on JACK's dummy backend, its audio.
    // Thread: NRT (owner)
    func startSession(_ driver: JackDriver) -> Recording {
        let say = self.say, router = self.router
        let recording = Recording(driver: driver, sessions: URL(fileURLWithPath: options.sessions), podiumVersion: options.podiumVersion)
        self.recording = recording
        recording.onProblem = { router.notice($0, level: .error) }
        if options.crashGuard {
            // If something faults anyway: the journal and the audio written so far are saved.
            CrashGuard.install { sig in
                let saved = driver.journalAfterCrash()
                if let summary = recording.saveAfterCrash(signal: CrashGuard.name(sig), inputs: RecentInputs.lines) {
                    say("podium: \(summary)\(saved ? "" : " (events.log may miss the last moments)")")
                }
            }
        }
        // console.log from the start: Csound's first lines and the first periods' came before it.
        router.setSink("session", .init(minimum: .debug, batch: { recording.console($0) }), history: true)
        router.endHistory()
        // Every performance keeps a session (its journal, streamed to disk) unless told not to.
        // JACK's dummy backend plays to nobody: the performance is also recorded so that there
        // is something to listen to afterwards.
        recordForListening = embedded?.backend == .dummy && options.keepSession
        let audio = options.record || recordForListening
        if !options.keepSession {
            recording.keepNoSession()
        } else {
            do {
                let dir = try recording.startSession()
                if !audio { say("podium: keeping the session in \(dir) (--no-session keeps nothing)") }
            } catch where !audio {
                recording.keepNoSession()
                say("podium: \(error) — playing without a session")
            } catch {}  // the recording below says why
        }
        if audio {
            do {
                let dir = try recording.startRecording()
                say(recordForListening && !options.record ? "podium: no sound card: recording the performance to \(dir), to listen to afterwards"
                                                          : "podium: recording to \(dir)")
            } catch {
                if recording.sessionDirectory == nil { recording.keepNoSession() }
                say("podium: \(error) — playing without recording")
            }
        }
        return recording
    }

    /// The presets of this orchestra (under the sessions' directory).
    var presets: Presets {
        Presets(directory: URL(fileURLWithPath: options.sessions).appendingPathComponent("presets")
            .appendingPathComponent(((options.orchestra as NSString).lastPathComponent as NSString).deletingPathExtension))
    }

    /// `make(port)` for `first`, then — while the port is in use and `tries` allow — the next ports:
    /// the first surface made; any other failure, or the last port's, as it is.
    // Thread: NRT (owner)
    func firstFreePort<P: FixedWidthInteger, S>(_ first: P, tries: Int, _ make: (P) throws -> S) throws -> S {
        for i in 0..<max(1, tries) {
            let (port, overflow) = first.addingReportingOverflow(P(i))
            if overflow { break }
            do { return try make(port) } catch let error where PortInUse.means(error) && i + 1 < tries {}
        }
        throw PortInUse()
    }

    // Thread: NRT (owner)
    func startOSC(_ driver: JackDriver, recording: Recording, map: OSCMap?) throws {
        guard var oscOptions = options.osc else { return }
        let router = self.router
        do {
            let mapPath = options.mapPath
            let wanted = oscOptions.port
            let surface = try firstFreePort(wanted, tries: oscOptions.portTries) { port in
                oscOptions.port = port
                return try OSCSurface(driver: driver, options: oscOptions, reloadSource: options.source, map: map)
            }
            if oscOptions.port != wanted { say("podium: OSC port \(wanted) is in use (another performance?): this one takes \(oscOptions.port)") }
            if let mapPath { say("podium: OSC map \(mapPath): \(map?.controls.count ?? 0) controls\((map?.midi.isEmpty ?? true) ? "" : ", \(map!.midi.count) MIDI controllers")") }
            surface.onNotice = { router.notice("osc: \($0)") }
            surface.recording = recording
            surface.presets = presets
            router.setSink("osc", .init(minimum: .debug) { surface.console($0) })
            surface.start()
            osc = surface
            say("podium: OSC on \(oscOptions.bind):\(surface.port) (UDP)")
        } catch {
            throw PerformanceError("\(error)")
        }
    }

    /// The stage page (a browser surface); a port in use is said, and the music goes on.
    // Thread: NRT (owner)
    func startWeb(_ driver: JackDriver, map: OSCMap?) {
        guard var webOptions = options.web else { return }
        do {
            let wanted = webOptions.port
            // A port in use fails the server's start (WebError.portInUse): the next is tried.
            web = try firstFreePort(wanted, tries: webOptions.portTries) { port in
                webOptions.port = port
                if port != wanted { say("podium: stage page port \(port - 1) is in use (another performance?): trying \(port)") }
                return try WebSetup.start(driver: driver, options: webOptions, orchestra: options.orchestra, map: map, router: router, say: say)
            }
        } catch {
            say("podium: \(error) — playing without the stage page (--web-port to choose another)")
        }
    }

    /// The file's hot reload: on saves (when watching), :reload and /podium/reload.
    // Thread: NRT (owner)
    func startReload(_ driver: JackDriver) {
        let router = self.router
        do {
            let r = try HotReload(path: options.orchestra, driver: driver)
            let file = options.orchestra
            r.onOutcome = { outcome in
                switch outcome {
                case let .compiled(_, instruments):
                    router.notice("\(file) saved: compiled \(instruments.isEmpty ? "global code" : "instr " + instruments.joined(separator: ", "))")
                case let .failed(message):
                    router.notice("\(message)\npodium: (the previous version keeps playing)", level: .error)
                case .unchanged: break
                }
            }
            if options.watch { try r.watch() }
            reloader = r
        } catch {
            say("podium: cannot reload \(options.orchestra) (saves, :reload, /podium/reload): \(error)")
        }
    }

    // Thread: NRT (owner)
    func startCsoundPort(_ driver: JackDriver) throws {
        // A .csd's `--port=N` (Csound's own server, which Podium does not start): Podium's port
        // takes it, on loopback, journaled; `--csound-port` wins over it.
        let asked = driver.engine.csoundPortFromOptions
        let devices = driver.engine.devicesFromOptions
        if !devices.isEmpty {
            say("podium: the orchestra's <CsOptions> name \(devices.joined(separator: ", ")): Podium's JACK ports play and take MIDI in their place (Csound opens no device or file; --record keeps the performance's audio)")
        }
        for mode in driver.engine.modesFromOptions {
            say("podium: the orchestra's <CsOptions> ask for \(mode == "--realtime" ? "--realtime (Csound's realtime mode)" : mode): a performance runs without it, so that it replays exactly")
        }
        if let asked, let given = options.csoundPort, Int(given.port) != asked {
            say("podium: the orchestra's <CsOptions> ask for --port=\(asked); --csound-port \(given.port) takes its place")
        }
        var chosen = options.csoundPort
        if chosen == nil, let asked, let port = UInt16(exactly: asked) {
            var o = options.osc ?? OSCOptions()
            o.port = port
            o.portTries = 1
            chosen = o
            say("podium: the orchestra's <CsOptions> ask for --port=\(asked): Podium's csound port takes it (on \(o.bind), journaled, trusting as OSC does); Csound's own server, which would listen on every address and journal nothing, is not started")
        }
        guard let portOptions = chosen else { return }
        let router = self.router, stopSignal = self.stopSignal
        do {
            let port = try CsoundTextPort(driver: driver, options: portOptions)
            port.onNotice = { router.notice($0) }
            port.loops = loops
            port.onClose = { stopSignal.signal() }
            port.start()
            textPort = port
            say("podium: csound text protocol on \(portOptions.bind):\(port.port) (UDP)")
        } catch {
            throw PerformanceError("\(error)")
        }
    }

    /// The REPL on the terminal, or commands piped on stdin.
    // Thread: NRT (owner)
    func startInput(_ driver: JackDriver, recording: Recording, loops: LiveLoops) {
        let interactive: Bool
        if case .terminal = options.input { interactive = true } else { interactive = false }
        if isatty(STDERR_FILENO) == 1 {
            let bind = options.osc?.bind ?? OSCOptions().bind
            for line in StartHints.lines(oscBind: bind, oscPort: osc.map { Int($0.port) }, repl: interactive) { say("podium: " + line) }
        }
        // On a terminal the session's answers go above the prompt (compile answers come from the
        // compile thread, while the performer types); piped, straight to the output.
        let terminal = Mutex<(@Sendable (String) -> Void)?>(nil)
        let output = self.output
        let session = ReplSession(driver: driver, reloader: reloader, print: { text in (terminal.withLock { $0 } ?? output)(text) })
        session.recording = recording
        session.presets = presets
        session.loops = loops
        session.confirmsQuit = interactive  // a pipe has nobody to answer "are you sure?"
        switch options.input {
        case .none: break
        case let .terminal(historyPath):
            let repl = ReadlineREPL(session: session, historyPath: historyPath)
            self.repl = repl
            terminal.withLock { $0 = repl.post }
            // Console lines go above the prompt, never through the line being typed.
            router.setSink("terminal", .init(minimum: options.minimumLevel, batch: { repl.post($0.map(\.text).joined(separator: "\n")) }))
        case .piped:
            // Piped stdin: the same commands as the REPL, with optional @SECONDS prefixes.
            Thread.detachNewThread {
                if PipedInput.run(session: session, shouldStop: { self.stopping.load(ordering: .relaxed) }) { self.stopSignal.signal() }
            }
        }
    }

    // Thread: NRT (owner)
    func startScript(_ driver: JackDriver) {
        guard let script = options.script else { return }
        let player = ScriptPlayer(script: script, driver: driver)
        player.loops = loops
        let say = self.say, name = options.scriptName, duration = options.duration
        player.onProblem = { say("podium: \(name): \($0)") }
        let startFrame = driver.frameTime
        let sr = driver.engine.sampleRate
        Thread.detachNewThread {
            if player.run(startFrame: startFrame, sampleRate: sr, shouldStop: { self.stopping.load(ordering: .relaxed) }) {
                // A script that ends with :quit (or runs out without a duration) ends the performance.
                if duration == nil || script.steps.last?.action == .quit { self.stopSignal.signal() }
            }
        }
    }
}
