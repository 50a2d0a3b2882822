import ArgumentParser
import Foundation
import PodiumOSC
import PodiumWeb

/// `podium doctor`: what stands between this machine and a clean show, each with its fix
/// (DoctorChecks.swift holds the checks).
struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check this machine for a clean show: real-time priority, memory, CPU, JACK, sound cards, disk, ports, LAN discovery.",
        discussion: """
        Prints one line per check (✔ ok, · note, ! warning, ✖ problem), each problem or warning \
        with the command that fixes it. Exits 1 when a problem would hurt a performance (no \
        real-time priority, xruns on the running JACK server, too little disk for a take), else 0.
        """)

    @Option(name: .long, help: "The JACK server to look at (default: $JACK_DEFAULT_SERVER or \"default\").")
    var server: String?

    @Option(name: .long, help: "Seconds to watch the JACK server for xruns.")
    var watch: Double = 2

    @Option(name: .long, help: "The OSC port podium play would listen on.")
    var oscPort: UInt16 = OSCOptions.defaultPort

    @Option(name: .long, help: "The address OSC would listen on.")
    var oscBind = "127.0.0.1"

    @Option(name: .long, help: "The stage page's port.")
    var webPort = WebOptions.defaultPort

    @Option(name: .long, help: "The address the stage page would be served on.")
    var webBind = "127.0.0.1"

    @Option(name: .long, help: "Where sessions are kept (default: $PODIUM_SESSIONS, else ./Sessions).")
    var sessions: String?

    func validate() throws {
        if !(0...600).contains(watch) { throw ValidationError("--watch: 0 to 600 seconds") }
        for (option, bind) in [("--osc-bind", oscBind), ("--web-bind", webBind)] where inet_addr(bind) == INADDR_NONE {
            throw ValidationError("\(option): not an IPv4 address: \(bind)")
        }
    }

    func run() throws {
        let root = geteuid() == 0
        let server = server ?? ProcessInfo.processInfo.environment["JACK_DEFAULT_SERVER"]
        let findings = [
            DoctorChecks.realtime(),
            DoctorChecks.lockedMemory(root: root),
            DoctorChecks.audioGroup(root: root),
            DoctorChecks.governor(),
            DoctorChecks.kernel(),
            DoctorChecks.swappiness(),
            DoctorChecks.jackServer(name: server, watch: watch),
            DoctorChecks.soundCards(),
            DoctorChecks.disk(sessions: sessionsRoot(sessions)),
            DoctorChecks.port(Int(oscPort), udp: true, bind: oscBind, what: "OSC", option: "--osc-port"),
            DoctorChecks.port(webPort, udp: false, bind: webBind, what: "stage page", option: "--web-port"),
            DoctorChecks.lanDiscovery(),
        ]
        for f in findings { print(f.text) }
        let problems = findings.filter { $0.level == .problem }.count
        let warnings = findings.filter { $0.level == .warning }.count
        print(problems == 0 && warnings == 0 ? "podium doctor: nothing stands in the way of a show"
              : "podium doctor: \(problems) problem\(problems == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")")
        if problems > 0 { throw ExitCode(1) }
    }
}
