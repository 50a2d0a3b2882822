import ArgumentParser
import Foundation
import PodiumEngine
import PodiumHost
import PodiumOSC
import PodiumPerformance
import PodiumRealtime
import PodiumSurfaces
import PodiumWeb

struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Perform an orchestra in real time, clocked by JACK.",
        discussion: """
        Csound runs inside the JACK process callback: ksmps is the JACK period (or a divisor of it \
        given with --ksmps) and sr is JACK's. With no JACK server running, podium starts one \
        (--jack-server auto) and stops it on exit. Ctrl-C or SIGTERM stops cleanly.
        """)

    @OptionGroup var orchestra: OrchestraArguments

    @Option(name: .long, help: "JACK client name (default: podium; when another client has it, the name JACK gives, podium-01 …, said at the start).")
    var name: String?

    @Option(name: .long, help: "JACK server name (default: $JACK_DEFAULT_SERVER or \"default\").")
    var server: String?

    @Option(name: .long, help: "auto: start a JACK server when none runs (ALSA, else dummy); none: refuse; net: start a netJACK2 slave (server \"podium-net\" unless --server) that plays into a master's JACK graph on the LAN.")
    var jackServer: ServerMode = .auto

    @Option(name: .long, help: "With --jack-server net: the master's address (default: found by multicast on 225.3.19.154:19000).")
    var netMaster: String?

    @Option(name: .long, help: "With --jack-server net: the latency netJACK2 adds, in periods (1 to 15; default 5, netJACK2's own).")
    var netLatency: Int?

    @Flag(name: .long, help: "Do not connect the ports to the physical ports.")
    var noConnect = false

    @Option(name: .long, help: "ksmps: a divisor of the JACK period (default: the period).")
    var ksmps: Int?

    @Option(name: .long, help: "UDP port for OSC (default: 7770, or the next free one when another performance has it; 0: any free port). A port given here that is in use is an error.")
    var oscPort: UInt16?

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

    @Flag(name: .long, help: "Listen for TidalCycles as SuperDirt does (/dirt/play, /dirt/handshake; UDP 57120): Tidal's standard BootTidal plays Podium's instruments and samples, and Podium's clock follows Tidal's cps.")
    var dirt = false

    @Option(name: .long, help: "The SuperDirt port (default 57120: Tidal's superdirtTarget).")
    var dirtPort: UInt16?

    @Option(name: .long, help: "Address to listen for SuperDirt messages on (default: loopback; a LAN address for Tidal on another machine).")
    var dirtBind = "127.0.0.1"

    @Option(name: .long, parsing: .upToNextOption, help: "Source ranges allowed to send SuperDirt messages besides loopback (CIDR).")
    var dirtAllow: [String] = []

    @Flag(name: .long, help: "With --dirt: do not move Podium's clock to Tidal's cps and cycle.")
    var noDirtClock = false

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

    @Option(name: .long, help: "Seconds of CPU time the check of one compile may take (live code is checked in a child process before the performance compiles it).")
    var compileCpuLimit = CompileLimits().cpuSeconds

    @Option(name: .long, help: "MiB of memory the check of one compile may take; one table or array may take a quarter of it.")
    var compileMemoryLimit = CompileLimits().memoryMiB

    @Option(name: .long, help: "Seconds of wall time the check of one compile may take.")
    var compileTimeLimit = CompileLimits().wallSeconds

    @Option(name: .long, help: "HTTP port of the stage page (default: 7780, or the next free one when another performance has it). A port given here that is in use is an error.")
    var webPort: Int?

    @Flag(name: .long, help: "Do not serve the stage page.")
    var noWeb = false

    @Option(name: .long, help: "Address to serve the stage page on (a LAN address for phones and tablets).")
    var webBind = "127.0.0.1"

    @Flag(name: .long, help: "Do not publish OSC (_osc._udp) and the stage page (_http._tcp) on the LAN through Avahi; they are published only when they listen beyond loopback.")
    var noAdvertise = false

    @Option(name: .long, parsing: .upToNextOption, help: "Source ranges allowed to open the stage page besides loopback (CIDR).")
    var webAllow: [String] = []

    @Option(name: .long, help: "The stage page's access token, in the URL podium prints (default: a new one for each performance).")
    var webToken: String?

    @Option(name: .long, parsing: .upToNextOption, help: "Origins besides the page's own whose pages may use its WebSocket (e.g. https://editor.example:8443).")
    var webOrigin: [String] = []

    @Option(name: .long, help: "The beat clock's tempo at the start, in BPM (:tempo changes it).")
    var tempo = BeatClock.defaultTempo

    @Option(name: .long, help: "Beats per bar (the clock's quantum).")
    var beatsPerBar = BeatClock.defaultQuantum

    @Option(name: .long, help: "JACK transport: master (Podium publishes bar, beat and BPM and starts the transport), follow (transport start, stop and locate move Podium's clock), off.")
    var transport = TransportMode.off

    @Option(name: .long, help: "MIDI beat clock: out (Podium's clock on podium:midi_out: 24 ticks a beat, Start/Stop/Continue, Song Position), in (a device's clock on podium:midi_in leads Podium's), off.")
    var midiClock = MIDIClockMode.off

    @Flag(name: .long, help: "Join the Ableton Link session on the LAN (tempo and phase shared with peers; :link on|off and OSC /podium/link 1|0 change it: without this flag OSC cannot join). UDP 20808, multicast 224.76.78.75.")
    var link = false

    @Flag(name: .long, help: "With --link: the session's start/stop starts and stops the beat clock (on the session's bar); :link start|stop reach the peers.")
    var linkStartStop = false

    @Option(name: .long, help: "A sample bank: a folder per name (Dirt-Samples), a strudel.json, a Hydrogen drum kit or a folder of kits (repeat for more; looked up in the order given, then a SuperDirt install's Dirt-Samples, then the default kits of Debian's hydrogen-data). `s \"bd:3\"` in a pattern plays its fourth bd.")
    var samples: [String] = []

    @Flag(name: .long, help: "No sample banks, not even the default kits (and no sampler instruments in the engine).")
    var noSamples = false

    @Flag(name: .long, help: "Load every file of the sample banks at the start, not on its first use.")
    var preload = false

    @Option(name: .long, help: "MiB the decoded samples may take (default 1024: about 45 minutes of mono at 48 kHz); a file past it is refused with a message.")
    var samplesMemory: Int = SampleStore.defaultBudget >> 20

    enum ServerMode: String, ExpressibleByArgument { case auto, none, net }

    /// Where sessions go.
    var sessionsDirectory: String { sessionsRoot(sessions) }

    func validate() throws {
        if let script, !FileManager.default.fileExists(atPath: script) { throw ValidationError("no such script: \(script)") }
        if let oscMap, !FileManager.default.fileExists(atPath: oscMap) { throw ValidationError("no such OSC map: \(oscMap)") }
        if let ksmps, ksmps <= 0 { throw ValidationError("--ksmps must be positive") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be a positive number of seconds") }
        if Endpoint.parse(oscBind) == nil { throw ValidationError("--osc-bind: not an IPv4 address: \(oscBind)") }
        if jackServer != .net && (netMaster != nil || netLatency != nil) { throw ValidationError("--net-master and --net-latency go with --jack-server net") }
        if let netLatency, !(1...15).contains(netLatency) { throw ValidationError("--net-latency: \(netLatency) periods is not a latency netJACK2 takes (1 to 15)") }
        if let netMaster, Endpoint.parse(netMaster) == nil { throw ValidationError("--net-master: not an IPv4 address: \(netMaster)") }
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
        if let webPort, !(0...65535).contains(webPort) { throw ValidationError("--web-port: \(webPort) is not a port") }
        for o in webOrigin {
            // An origin is a scheme, a host and an optional port: nothing after them.
            guard let u = URLComponents(string: o), ["http", "https"].contains(u.scheme ?? ""), !(u.host ?? "").isEmpty,
                  ["", "/"].contains(u.path), u.query == nil, u.fragment == nil, u.user == nil else {
                throw ValidationError("--web-origin: not an origin: \(o) (scheme, host and port, e.g. https://editor.example:8443)")
            }
        }
        if compileCpuLimit < 1 || compileCpuLimit > 3600 { throw ValidationError("--compile-cpu-limit: \(compileCpuLimit) is not a limit (1 to 3600 seconds)") }
        if compileMemoryLimit < 256 || compileMemoryLimit > 1 << 20 { throw ValidationError("--compile-memory-limit: \(compileMemoryLimit) is not a limit (256 MiB to 1 TiB)") }
        if !compileTimeLimit.isFinite || compileTimeLimit < 1 || compileTimeLimit > 3600 { throw ValidationError("--compile-time-limit: \(compileTimeLimit) is not a limit (1 to 3600 seconds)") }
        if midiClock == .in && transport == .follow { throw ValidationError("--midi-clock in and --transport follow: the clock follows one leader; choose one") }
        if midiClock == .in && link { throw ValidationError("--midi-clock in and --link: the clock follows one leader (Link's session or the MIDI clock); choose one") }
        if let webToken, webToken.isEmpty || !webToken.allSatisfy({ $0.isLetter || $0.isNumber }) { throw ValidationError("--web-token: letters and digits only") }
        if noSamples && !samples.isEmpty { throw ValidationError("--samples and --no-samples: choose one") }
        if samplesMemory < 16 || samplesMemory > 1 << 20 { throw ValidationError("--samples-memory: \(samplesMemory) is not a budget (16 MiB to 1 TiB)") }
        for c in oscAllow where CIDR(c) == nil { throw ValidationError("--osc-allow: not a CIDR range: \(c) (e.g. 192.168.1.0/24)") }
        if !dirt && (dirtPort != nil || dirtBind != "127.0.0.1" || !dirtAllow.isEmpty || noDirtClock) {
            throw ValidationError("--dirt-port, --dirt-bind, --dirt-allow and --no-dirt-clock go with --dirt")
        }
        if Endpoint.parse(dirtBind) == nil { throw ValidationError("--dirt-bind: not an IPv4 address: \(dirtBind)") }
        for c in dirtAllow where CIDR(c) == nil { throw ValidationError("--dirt-allow: not a CIDR range: \(c) (e.g. 192.168.1.0/24)") }
    }

    /// What to play and which surfaces to open, from the arguments.
    // Thread: NRT (main)
    func performanceOptions(script parsedScript: Script?) -> PerformanceOptions {
        // Always seeded, so that any part of the performance can be recorded and replayed exactly.
        let seed = orchestra.seed ?? UInt32.random(in: 1...OrchestraArguments.largestSeed)
        var jack = JackOptions(clientName: name ?? "podium", serverName: server ?? (jackServer == .net ? "podium-net" : nil), connect: !noConnect, ksmps: ksmps,
                               outputLimit: noOutputLimit ? nil : pow(10, outputLimit / 20))
        jack.loadLimit = noLoadLimit ? nil : loadLimit / 100
        // Defaults give way to another performance on this machine; what the performer chose does not.
        jack.renameIfTaken = name == nil
        jack.tempo = tempo
        jack.quantum = beatsPerBar
        jack.transport = transport
        jack.midiClock = midiClock
        jack.compileLimits = CompileLimits(cpuSeconds: compileCpuLimit, memoryMiB: compileMemoryLimit, wallSeconds: compileTimeLimit)
        var o = PerformanceOptions(orchestra: orchestra.file, source: orchestra.source, seed: seed, jack: jack, sessions: sessionsDirectory)
        o.startServer = jackServer != .none
        if jackServer == .net {
            o.netServer = JackServer.NetOptions(master: netMaster, latency: netLatency ?? 5,
                                                clientName: name ?? "podium-\(InterfaceAddresses.hostName ?? "\(getpid())")")
        }
        var oscOptions = OSCOptions(port: oscPort ?? OSCOptions.defaultPort, bind: oscBind, allow: oscAllow.compactMap(CIDR.init), allowRemoteCode: allowRemoteCode,
                                    allowLinkJoin: link)
        oscOptions.portTries = oscPort == nil ? Play.defaultTries : 1
        o.osc = noOsc ? nil : oscOptions
        o.oscMap = oscMap
        o.dirt = dirt ? OSCOptions(port: dirtPort ?? DirtSurface.defaultPort, bind: dirtBind, allow: dirtAllow.compactMap(CIDR.init)) : nil
        o.dirtFollowsClock = !noDirtClock
        o.csoundPort = csoundPort.map { port in
            var p = oscOptions
            p.port = port
            p.portTries = 1
            return p
        }
        var web = WebOptions(port: webPort ?? WebOptions.defaultPort, bind: webBind, allow: webAllow.compactMap(CIDR.init), token: webToken, origins: webOrigin)
        web.portTries = webPort == nil ? Play.defaultTries : 1
        o.web = noWeb ? nil : web
        o.advertise = !noAdvertise
        o.script = parsedScript
        o.scriptName = script ?? "script"
        o.duration = duration
        o.record = record
        o.keepSession = !noSession
        o.watch = !noWatch
        let interactive = !noRepl && script == nil && isatty(STDIN_FILENO) == 1
        o.input = interactive ? .terminal(historyPath: ReplHistory.path) : !noRepl && script == nil ? .piped : .none
        o.minimumLevel = orchestra.minimumLevel(default: .orchestra)
        o.link = link
        o.linkStartStop = linkStartStop
        o.crashGuard = true
        o.samples = samples
        o.defaultSamples = !noSamples
        o.preloadSamples = preload
        o.samplesMemory = samplesMemory << 20
        o.podiumVersion = Podium.version
        return o
    }

    /// How many client names and ports a default tries: this many performances on one machine.
    static let defaultTries = 16

    func run() throws {
        JackDriver.routeJackMessages(verbose: orchestra.verbose)
        let parsedScript = try script.map { path -> Script in
            do { return try Script(contentsOf: path) } catch { Terminal.error("podium play: \(error)"); throw ExitCode(1) }
        }
        let performance = Performance(options: performanceOptions(script: parsedScript),
                                      say: { Terminal.error($0) }, output: { Terminal.output($0) })
        // Before the start: a SIGTERM while it starts stops it once started, never lost.
        performance.handleSignals()
        do { try performance.start() } catch {
            Terminal.error("podium play: \(error)")
            throw ExitCode(1)
        }
        performance.run()
        performance.stop()
    }
}

extension TransportMode: ExpressibleByArgument {}
extension MIDIClockMode: ExpressibleByArgument {}
