import Foundation
import PodiumEngine
import PodiumHost
import PodiumProbe

/// What reloads cost the audio thread: 8 vco2 voices play while live code of each kind is
/// compiled `reloads` times, 0.5 s apart; xruns and the longest callback over each row, with
/// big tables built off the audio thread (staged, the default) and by Csound in the callback.
/// Plus the first callback of an orchestra that uses vco2 (its tables built before the start).
func reloadCostTable(period: Int, reloads: Int) throws {
    let server = try TestJackServer(period: period, realtime: realtimeServer, tag: "bench-reload-cost")
    defer { server.stop() }
    let orchestra = """
    nchnls = 2
    0dbfs = 1
    instr 1
      a1 vco2 0.02, p4
      a2 moogladder a1, 1500, 0.2
      outs a2, a2
    endin
    """
    let score = (0..<8).map { "i1 0 3600 \(110 * ($0 + 1))" }.joined(separator: "\n")
    let half = Double(period) / 48.0 / 2
    for staged in [false, true] {
        var jack = JackOptions(serverName: server.name, connect: false, ksmps: min(64, period))
        jack.stageTables = staged
        let driver = JackDriver(source: .text(orchestra: orchestra, score: score, name: "reload-cost.orc"), jack: jack)
        try driver.start()
        defer { driver.stop() }
        Thread.sleep(forTimeInterval: 0.5)
        let first = driver.stats.maxCallbackMicroseconds
        if !staged {
            print(String(format: "| %d | vco2 start-up (first 0.5 s, tables built before activation) | — | 1 | %llu | %.2f | %@ |",
                         period, driver.stats.xruns, first / 1000, first / 1000 < half ? "yes" : "no"))
        }
        let kinds: [(String, (Int) -> String)] = [
            ("instrument block", { "instr 1\n a1 vco2 0.02, p4 * \(1 + Double($0) * 0.0001)\n a2 moogladder a1, 1500, 0.2\n outs a2, a2\nendin\n" }),
            ("a global line that changes", { "giLevel = \($0)\n" }),
            ("small table (ftgen 1024 points)", { "giSmall ftgen 0, 0, 1024, 10, 1, 0.\($0 + 1)\n" }),
            ("2^18-point table (GEN 10)", { "giMid ftgen 0, 0, 2^18, 10, 1, 0.\($0 + 1), 0.3\n" }),
            ("2^20-point table (GEN 10)", { "giBig ftgen 0, 0, 2^20, 10, 1, 0.\($0 + 1), 0.3, 0.25\n" }),
        ]
        for (name, code) in kinds {
            if staged && !name.contains("table") { continue }  // the same either way
            let before = driver.stats
            driver.resetCallbackTimes()
            var done = 0
            for i in 0..<reloads {
                if (try? driver.compileAndWait(code(i), source: "bench")) != nil { done += 1 }
                Thread.sleep(forTimeInterval: 0.5)
            }
            let after = driver.stats
            let longest = after.maxCallbackMicroseconds / 1000
            print(String(format: "| %d | %@ | %@ | %d | %llu | %.2f | %@ |", period, name, name.contains("table") ? (staged ? "staged" : "in the callback") : "—",
                         done, after.xruns - before.xruns, longest, longest < half ? "yes" : "no"))
        }
    }
}
