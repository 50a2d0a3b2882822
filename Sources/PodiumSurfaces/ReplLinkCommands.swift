import PodiumRealtime

// The REPL's Ableton Link command: `:link` (status), `:link on`, `:link off`.
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
        default:
            print("usage: :link [on|off]")
        }
    }
}
