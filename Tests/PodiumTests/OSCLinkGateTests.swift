import PodiumHost
import PodiumOSC
import Testing

/// Joining Ableton Link sends multicast on the LAN: a controller (or a fuzzer) cannot switch it
/// on unless the performer started with `--link` (`OSCOptions.allowLinkJoin`).
extension JackSuites.OSCTests {
    @Test("/podium/link 1 without --link is refused with an error naming the flag; Link stays off; asking and leaving work")
    func linkJoinNeedsTheFlag() throws {
        let (driver, osc) = try start()
        defer { osc.stop(); driver.stop() }
        let join = try python(["\(osc.port)", "ask", "/podium/link", "i:1"])
        #expect(join.stdout.hasPrefix("/podium/error"), "\(join.stdout)")
        #expect(join.stdout.contains("podium play --link"), "\(join.stdout)")
        #expect(!driver.linkEnabled)
        let ask = try python(["\(osc.port)", "ask", "/podium/link"])
        #expect(ask.stdout.hasPrefix("/podium/link 0 0 "), "\(ask.stdout)")
        let leave = try python(["\(osc.port)", "ask", "/podium/link", "i:0"])
        #expect(leave.stdout.hasPrefix("/podium/link 0 0 "), "\(leave.stdout)")
        #expect(!driver.linkEnabled)
    }
}
