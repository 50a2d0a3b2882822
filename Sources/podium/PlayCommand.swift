import ArgumentParser
import Dispatch
import Foundation
import PodiumEngine
import PodiumOSC
import PodiumHost
import PodiumRealtime
import PodiumSession
import PodiumSurfaces
import PodiumWeb
import Synchronization

struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Perform an orchestra in real time, clocked by JACK.",
        discussion: """
        Csound runs inside the JACK process callback: ksmps is the JACK period (or a divisor of it \
        given with --ksmps) and sr is JACK's. With no JACK server running, podium starts one \
        (--jack-server auto) and stops it on exit. Ctrl-C or SIGTERM stops cleanly.
        """)

    @OptionGroup var orchestra: OrchestraArguments

    @Option(name: .long, help: "JACK client name.")
    var name = "podium"

    @Option(name: .long, help: "JACK server name (default: $JACK_DEFAULT_SERVER or \"default\").")
    var server: String?

    @Option(name: .long, help: "auto: start a JACK server when none runs (ALSA, else dummy); none: refuse.")
    var jackServer: ServerMode = .auto

    @Flag(name: .long, help: "Do not connect the ports to the physical ports.")
    var noConnect = false

    @Option(name: .long, help: "ksmps: a divisor of the JACK period (default: the period).")
    var ksmps: Int?

    @Option(name: .long, help: "UDP port for OSC (0: any free port).")
    var oscPort: UInt16 = OSCOptions.defaultPort

    @Flag(name: .long, help: "Do not listen for OSC.")
    var noOsc = false

    @Option(name: .long, help: "Address to listen for OSC on (a LAN address for controllers on the network).")
    var oscBind = "127.0.0.1"

    @Option(name: .long, parsing: .upToNextOption, help: "Source ranges allowed to send OSC besides loopback (CIDR, e.g. 192.168.1.0/24).")
    var oscAllow: [String] = []

    @Flag(name: .long, help: "Accept orchestra code over OSC from non-loopback senders (Csound's system opcode makes this a remote shell).")
    var allowRemoteCode = false

    @Flag(name: .long, help: "No REPL on the terminal (and do not read commands from piped stdin).")
    var noRepl = false

    @Flag(name: .long, help: "Do not recompile the orchestra file when it is saved.")
    var noWatch = false

    @Option(name: .long, help: "The orchestra's OSC map (YAML; default: ORCHESTRA.oscmap.yaml beside it, when present).")
    var oscMap: String?

    @Option(name: .long, help: "Also take the csound --port UDP text protocol on this port (editor plugins).")
    var csoundPort: UInt16?

    @Option(name: .long, help: "A script of timed score lines and commands (see README).")
    var script: String?

    @Option(name: .long, help: "Stop after this many seconds.")
    var duration: Double?

    @Flag(name: .long, help: "Record the audio too (audio.wav, input.wav) from the start; :record start|stop in the REPL and /podium/record/start|stop over OSC work without it.")
    var record = false

    @Option(name: .long, help: "Where sessions are kept (default: $PODIUM_SESSIONS, else ./Sessions).")
    var sessions: String?

    @Flag(name: .long, help: "Keep no session of this performance (by default its journal is kept, for podium replay).")
    var noSession = false

    @Option(name: .long, help: "The output safety limit in dBFS: samples beyond it are clipped (counted in :status). A NaN or infinite k-cycle is always silenced.")
    var outputLimit: Double = 0

    @Flag(name: .long, help: "No safety clipping at the output (NaN and infinite k-cycles are still silenced).")
    var noOutputLimit = false

    @Option(name: .long, help: "The DSP load guard, in percent of the period: while the callback is busier than this, the voices may not grow (a new note starts only as another ends; refusals counted in :status).")
    var loadLimit: Double = LoadGuard.defaultLimit * 100

    @Flag(name: .long, help: "No DSP load guard (only the limit of 1000 voices stays).")
    var noLoadLimit = false

    @Option(name: .long, help: "HTTP port of the stage page (the orchestra's controls in a browser).")
    var webPort = WebOptions.defaultPort

    @Flag(name: .long, help: "Do not serve the stage page.")
    var noWeb = false

    @Option(name: .long, help: "Address to serve the stage page on (a LAN address for phones and tablets: the page's URL then carries an access token).")
    var webBind = "127.0.0.1"

    @Option(name: .long, parsing: .upToNextOption, help: "Source ranges allowed to open the stage page besides loopback (CIDR).")
    var webAllow: [String] = []

    @Option(name: .long, help: "The stage page's access token (default: a new one when --web-bind is not loopback).")
    var webToken: String?

    @Option(name: .long, help: "The beat clock's tempo at the start, in BPM (:tempo changes it).")
    var tempo = BeatClock.defaultTempo

    @Option(name: .long, help: "Beats per bar (the clock's quantum).")
    var beatsPerBar = BeatClock.defaultQuantum

    @Option(name: .long, help: "JACK transport: master (Podium publishes bar, beat and BPM and starts the transport), follow (transport start, stop and locate move Podium's clock), off.")
    var transport = TransportMode.off

    @Flag(name: .long, help: "Join the Ableton Link session on the LAN (tempo and phase shared with peers; :link on|off changes it). UDP 20808, multicast 224.76.78.75.")
    var link = false

    @Flag(name: .long, help: "With --link: the session's start/stop starts and stops the beat clock (on the session's bar); :link start|stop reach the peers.")
    var linkStartStop = false

    enum ServerMode: String, ExpressibleByArgument { case auto, none }

    /// Where sessions go.
    var sessionsDirectory: String { sessionsRoot(sessions) }

    func validate() throws {
        if let script, !FileManager.default.fileExists(atPath: script) { throw ValidationError("no such script: \(script)") }
        if let oscMap, !FileManager.default.fileExists(atPath: oscMap) { throw ValidationError("no such OSC map: \(oscMap)") }
        if let ksmps, ksmps <= 0 { throw ValidationError("--ksmps must be positive") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be a positive number of seconds") }
        if Endpoint.parse(oscBind) == nil { throw ValidationError("--osc-bind: not an IPv4 address: \(oscBind)") }
        if !outputLimit.isFinite || outputLimit > 24 || outputLimit < -60 {
            throw ValidationError("--output-limit: \(outputLimit) dBFS is not a limit (from -60 to 24 dBFS; --no-output-limit turns clipping off)")
        }
        if !loadLimit.isFinite || loadLimit < 10 || loadLimit > 100 {
            throw ValidationError("--load-limit: \(loadLimit) is not a limit (10 to 100 percent of the period; --no-load-limit turns the guard off)")
        }
        do { try InputCheck.tempo(tempo) } catch { throw ValidationError("--tempo: \(error)") }
        do { try InputCheck.quantum(beatsPerBar) } catch { throw ValidationError("--beats-per-bar: \(error)") }
        if noSession && record { throw ValidationError("--record and --no-session: a recording is kept in a session; choose one") }
        for c in webAllow where CIDR(c) == nil { throw ValidationError("--web-allow: not a CIDR range: \(c) (e.g. 192.168.1.0/24)") }
        if Endpoint.parse(webBind) == nil { throw ValidationError("--web-bind: not an IPv4 address: \(webBind)") }
        if !(0...65535).contains(webPort) { throw ValidationError("--web-port: \(webPort) is not a port") }
        if let webToken, webToken.isEmpty || !webToken.allSatisfy({ $0.isLetter || $0.isNumber }) { throw ValidationError("--web-token: letters and digits only") }
        for c in oscAllow where CIDR(c) == nil { throw ValidationError("--osc-allow: not a CIDR range: \(c) (e.g. 192.168.1.0/24)") }
    }

    func run() throws {
        JackDriver.routeJackMessages(verbose: orchestra.verbose)
        let parsedScript = try script.map { path -> Script in
            do { return try Script(contentsOf: path) } catch { Terminal.error("podium play: \(error)"); throw ExitCode(1) }
        }
        let serverName = server ?? JackDriver.defaultServerName
        var embedded: JackServer?
        if !JackServer.isRunning(name: serverName) {
            guard jackServer == .auto else {
                Terminal.error("podium play: no JACK server \"\(serverName)\" is running (--jack-server none)")
                throw ExitCode(1)
            }
            do {
                let s = try JackServer.start(name: serverName)
                embedded = s
                Terminal.error("podium: no JACK server was running; started jackd \"\(serverName)\" with the \(s.backend == .alsa ? "ALSA default device (hw:0)" : "dummy backend (no sound card found): 48000 Hz, period 256"); it stops when podium does")
            } catch {
                Terminal.error("podium play: could not start a JACK server: \(error)")
                throw ExitCode(1)
            }
        }
        defer { embedded?.stop() }

        // Always seeded, so that any part of the performance can be recorded and replayed exactly.
        let seed = orchestra.seed ?? UInt32.random(in: 1...OrchestraArguments.largestSeed)
        var jack = JackOptions(clientName: name, serverName: server, connect: !noConnect, ksmps: ksmps,
                               outputLimit: noOutputLimit ? nil : pow(10, outputLimit / 20))
        jack.loadLimit = noLoadLimit ? nil : loadLimit / 100
        jack.tempo = tempo
        jack.quantum = beatsPerBar
        jack.transport = transport
        let driver = JackDriver(source: orchestra.source, options: EngineOptions(seed: seed), jack: jack)
        // One console stream: Csound's lines and Podium's notices, to the terminal (filtered),
        // the session's console.log and OSC subscribers.
        let minimum = orchestra.minimumLevel(default: .orchestra)
        let router = ConsoleRouter()
        router.setSink("terminal", .init(minimum: minimum, batch: { Terminal.error($0.map(\.text).joined(separator: "\n")) }))
        router.start()
        defer { router.stop() }
        driver.onConsole = { router.post($0) }
        driver.onNotice = { router.notice($0) }
        do { try driver.start() } catch {
            Terminal.error("podium play: \(error)")
            throw ExitCode(1)
        }
        Terminal.error("podium: playing \(orchestra.file) — \(driver.description)")
        if link {
            if linkStartStop { driver.setLinkStartStopSync(true) }
            Terminal.error(driver.setLink(true) ? "podium: Ableton Link on (UDP 20808, multicast 224.76.78.75)" : "podium: could not start Ableton Link")
            if linkStartStop { Terminal.error("podium: Link start/stop sync: the beat clock plays when the session does (:link start starts it on the next bar)") }
        }
        let recording = Recording(driver: driver, sessions: URL(fileURLWithPath: sessionsDirectory), podiumVersion: Podium.version)
        let presets = Presets(directory: URL(fileURLWithPath: sessionsDirectory).appendingPathComponent("presets")
            .appendingPathComponent(((orchestra.file as NSString).lastPathComponent as NSString).deletingPathExtension))
        recording.onProblem = { router.notice($0, level: .error) }
        // If something faults anyway: the journal and the audio written so far are saved.
        CrashGuard.install { sig in
            let saved = driver.journalAfterCrash()
            if let summary = recording.saveAfterCrash(signal: CrashGuard.name(sig), inputs: RecentInputs.lines) {
                Terminal.error("podium: \(summary)\(saved ? "" : " (events.log may miss the last moments)")")
            }
        }
        router.setSink("session", .init(minimum: .debug, batch: { recording.console($0) }))
        // Every performance keeps a session (its journal, streamed to disk) unless --no-session.
        // JACK's dummy backend plays to nobody: the performance is also recorded so that there
        // is something to listen to afterwards.
        let recordForListening = embedded?.backend == .dummy && !noSession
        let audio = record || recordForListening
        if noSession {
            recording.keepNoSession()
        } else {
            do {
                let dir = try recording.startSession()
                if !audio { Terminal.error("podium: keeping the session in \(dir) (--no-session keeps nothing)") }
            } catch where !audio {
                recording.keepNoSession()
                Terminal.error("podium: \(error) — playing without a session")
            } catch {}  // the recording below says why
        }
        if audio {
            do {
                let dir = try recording.startRecording()
                Terminal.error(recordForListening && !record ? "podium: no sound card: recording the performance to \(dir), to listen to afterwards"
                                                             : "podium: recording to \(dir)")
            } catch {
                if recording.sessionDirectory == nil { recording.keepNoSession() }
                Terminal.error("podium: \(error) — playing without recording")
            }
        }
        var osc: OSCSurface?
        if !noOsc {
            do {
                let besideOrchestra = (orchestra.file as NSString).deletingPathExtension + ".oscmap.yaml"
                let mapPath = oscMap ?? (FileManager.default.fileExists(atPath: besideOrchestra) ? besideOrchestra : nil)
                let map = try mapPath.map { try OSCMap(contentsOf: $0) }
                let surface = try OSCSurface(driver: driver, options: OSCOptions(port: oscPort, bind: oscBind, allow: oscAllow.compactMap(CIDR.init),
                                                                               allowRemoteCode: allowRemoteCode),
                                             reloadSource: orchestra.source, map: map)
                if let mapPath { Terminal.error("podium: OSC map \(mapPath): \(map?.controls.count ?? 0) controls\((map?.midi.isEmpty ?? true) ? "" : ", \(map!.midi.count) MIDI controllers")") }
                surface.onNotice = { router.notice("osc: \($0)") }
                surface.recording = recording
                surface.presets = presets
                router.setSink("osc", .init(minimum: .debug) { surface.console($0) })
                surface.start()
                osc = surface
                Terminal.error("podium: OSC on \(oscBind):\(surface.port) (UDP)")
            } catch {
                Terminal.error("podium play: \(error)")
                driver.stop()
                throw ExitCode(1)
            }
        }
        // The stage page (a browser surface); a port in use is said, and the music goes on.
        var web: WebSurface?
        if !noWeb {
            let besideOrchestra = (orchestra.file as NSString).deletingPathExtension + ".oscmap.yaml"
            let map = (oscMap ?? (FileManager.default.fileExists(atPath: besideOrchestra) ? besideOrchestra : nil)).flatMap { try? OSCMap(contentsOf: $0) }
            do {
                web = try WebSetup.start(driver: driver, options: WebOptions(port: webPort, bind: webBind, allow: webAllow.compactMap(CIDR.init), token: webToken),
                                         orchestra: orchestra.file, map: map, router: router)
            } catch {
                Terminal.error("podium: \(error) — playing without the stage page (--web-port to choose another)")
            }
        }

        // The file's hot reload: on saves (unless --no-watch), :reload and /podium/reload.
        var reloader: HotReload?
        do {
            let r = try HotReload(path: orchestra.file, driver: driver)
            let file = orchestra.file
            r.onOutcome = { outcome in
                switch outcome {
                case let .compiled(_, instruments):
                    router.notice("\(file) saved: compiled \(instruments.isEmpty ? "global code" : "instr " + instruments.joined(separator: ", "))")
                case let .failed(message):
                    router.notice("\(message)\npodium: (the previous version keeps playing)", level: .error)
                case .unchanged: break
                }
            }
            if !noWatch { try r.watch() }
            reloader = r
        } catch {
            Terminal.error("podium: cannot reload \(orchestra.file) (saves, :reload, /podium/reload): \(error)")
        }
        osc?.reloader = reloader
        let (loops, loopsWatcher) = LoopsSetup.start(driver: driver, orchestra: orchestra.file, watch: !noWatch) { line, error in
            router.notice(line, level: error ? .error : .orchestra)
        }
        osc?.loops = loops
        let stop = DispatchSemaphore(value: 0)
        let stopping = Atomic<Bool>(false)
        var textPort: CsoundTextPort?
        if let csoundPort {
            do {
                let port = try CsoundTextPort(driver: driver, options: OSCOptions(port: csoundPort, bind: oscBind, allow: oscAllow.compactMap(CIDR.init),
                                                                                  allowRemoteCode: allowRemoteCode))
                port.onNotice = { router.notice($0) }
                port.onClose = { stop.signal() }
                port.start()
                textPort = port
                Terminal.error("podium: csound text protocol on \(oscBind):\(port.port) (UDP)")
            } catch {
                Terminal.error("podium play: \(error)")
                osc?.stop()
                driver.stop()
                throw ExitCode(1)
            }
        }
        let interactive = !noRepl && script == nil && isatty(STDIN_FILENO) == 1
        if isatty(STDERR_FILENO) == 1 {
            for line in StartHints.lines(oscBind: oscBind, oscPort: osc.map { Int($0.port) }, repl: interactive) { Terminal.error("podium: " + line) }
        }
        let session = ReplSession(driver: driver, reloader: reloader) { Terminal.output($0) }
        session.recording = recording
        session.presets = presets
        session.loops = loops
        session.confirmsQuit = interactive  // a pipe has nobody to answer "are you sure?"
        let repl = interactive ? ReadlineREPL(session: session, historyPath: ReplHistory.path) : nil
        if let repl {
            // Console lines go above the prompt, never through the line being typed.
            router.setSink("terminal", .init(minimum: minimum, batch: { repl.post($0.map(\.text).joined(separator: "\n")) }))
        }
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        var sources: [DispatchSourceSignal] = []
        for sig in [SIGINT, SIGTERM] {
            let src = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            src.setEventHandler {
                // Ctrl-C at the REPL clears the line and never stops the music.
                if sig == SIGINT, let repl { repl.interrupt(); return }
                stopping.store(true, ordering: .relaxed)
                stop.signal()
            }
            src.resume()
            sources.append(src)
        }
        if !interactive && !noRepl && script == nil && isatty(STDIN_FILENO) == 0 {
            // Piped stdin: the same commands as the REPL, with optional @SECONDS prefixes.
            Thread.detachNewThread {
                if PipedInput.run(session: session, shouldStop: { stopping.load(ordering: .relaxed) }) { stop.signal() }
            }
        }
        if let parsedScript {
            let player = ScriptPlayer(script: parsedScript, driver: driver)
            player.onProblem = { Terminal.error("podium: \(script ?? "script"): \($0)") }
            let startFrame = driver.frameTime
            let sr = driver.engine.sampleRate
            Thread.detachNewThread {
                if player.run(startFrame: startFrame, sampleRate: sr, shouldStop: { stopping.load(ordering: .relaxed) }) {
                    // A script that ends with :quit (or runs out without --duration) ends the performance.
                    if duration == nil || parsedScript.steps.last?.action == .quit { stop.signal() }
                }
            }
        }
        if let repl {
            let deadline = duration.map { ContinuousClock.now + .milliseconds(Int64($0 * 1000)) }
            repl.run(shouldStop: {
                stopping.load(ordering: .relaxed) || stop.wait(timeout: .now()) == .success
                    || deadline.map { ContinuousClock.now >= $0 } ?? false
            })
        } else if let duration {
            _ = stop.wait(timeout: .now() + duration)
        } else {
            stop.wait()
        }
        osc?.stop()
        textPort?.stop()
        reloader?.stop()
        loopsWatcher?.stop()
        loops.stopScheduler()
        let recorded = recording.recordingDirectory
        if let summary = recording.stopRecording() { Terminal.error("podium: \(summary)") }
        web?.stop()
        let stats = driver.stats  // while the client is open: JACK's DSP load is read from it
        driver.stop()
        Terminal.error("podium: stopped. \(stats)")
        // After the driver stopped: the journal's last sync line is the performance's end.
        if let summary = recording.finish() { Terminal.error("podium: \(summary)") }
        if let osc { Terminal.error("podium: osc: \(osc.stats.summary)") }
        if let web { Terminal.error("podium: web: \(web.stats.summary)") }
        // Last, so that a newcomer sees it: the file to listen to.
        if recordForListening, let recorded { Terminal.error("podium: " + ListenLine.describe(audio: recorded + "/audio.wav")) }
        _ = sources
    }
}

extension TransportMode: ExpressibleByArgument {}
