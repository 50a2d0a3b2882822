
// The REPL's Ableton Link command: `:link` (status), `:link on`, `:link off`, and
// `:link start|stop` (the beat clock; with --link-start-stop the session starts and stops too).
extension ReplSession {
    // Thread: the REPL's
    func linkCommand(_ args: [String]) {
        switch args.first?.lowercased() {
        case nil:
            print(driver.linkStatus.summary)
        case "on", "1":
            print(driver.setLink(true) ? "link on (peers appear within a second or two; :link shows them)"
                                       : "link: could not start Ableton Link")
        case "off", "0":
            driver.setLink(false)
            print("link off (the clock keeps its tempo and beat)")
        case "start", "stop":
            let run = args.first?.lowercased() == "start"
            do {
                _ = try producer.clock(running: run)
                let sync = driver.linkStatus.startStopSync
                print(run ? (sync ? "start: the clock starts with the session's next bar" : "clock running")
                          : (sync ? "stop: the clock and the session stop" : "clock stopped"))
            } catch { print(error.description) }
        default:
            print("usage: :link [on|off|start|stop]")
        }
    }
}
