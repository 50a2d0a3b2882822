import Foundation
import PodiumHost
import PodiumOSC
import PodiumProbe
import PodiumSession
import PodiumSurfaces
import Testing

/// `/podium/reload`: the orchestra file's hot reload over OSC.
extension JackSuites.OSCTests {
    @Test("/podium/reload compiles what changed in the file, nothing when it is unchanged (a flood of reloads merges nothing)")
    func reloadChanges() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("r.orc")
        try JackSuites.OSCTests.orchestra.write(to: file, atomically: true, encoding: .utf8)
        let driver = JackDriver(source: .orchestra(path: file.path, score: nil), jack: JackOptions(serverName: server.name, connect: false))
        try driver.start()
        let osc = try OSCSurface(driver: driver, options: OSCOptions(port: 0), reloadSource: driver.source)
        osc.reloader = try HotReload(path: file.path, driver: driver)
        osc.start()
        defer { osc.stop(); driver.stop() }
        let compiles = { driver.journal.follow(nil).lines.filter { $0.contains(" compile ") }.count }
        let before = compiles()
        for _ in 0..<5 { #expect(try python(["\(osc.port)", "ask", "/podium/reload"]).stdout.contains("/podium/done unchanged: nothing to compile")) }
        try (JackSuites.OSCTests.orchestra + "\ninstr 12\n out a(0.1)\nendin\n").write(to: file, atomically: true, encoding: .utf8)
        #expect(try python(["\(osc.port)", "ask", "/podium/reload"]).stdout.contains("/podium/done compiled instr 12"))
        #expect(eventually(2) { compiles() == before + 1 }, "one compile merged for six reloads")
    }
}
