import Foundation

/// A linked host's beat clock against the test's own clock: the beat and tempo its `:status`
/// said, at the moment the line was asked for (a REPL answers within milliseconds).
///
/// Notes sent to two hosts are sent half a beat from a beat line. A `@beat` line lands on the
/// next beat line of the host's own clock when the callback takes it, and a host whose output
/// latency is compensated runs its clock that much ahead (512 frames: 10.7 ms at 48 kHz). So a
/// line sent in the last 10.7 ms before a beat line lands a beat later on that host than on one
/// without the latency — by design, each host quantizes to what it will be heard at — and two
/// hosts taking the same line on either side of a line start it a beat apart.
struct BeatGrid {
    let time: Date
    let beat: Double
    let tempo: Double

    /// The host's grid from one `:status` (nil when no answer with a beat came in 5 s).
    // Thread: the test's
    static func read(_ pod: LineChild) -> BeatGrid? {
        let start = pod.lines.count
        let asked = Date()
        pod.say(":status")
        while Date().timeIntervalSince(asked) < 5 {
            Thread.sleep(forTimeInterval: 0.005)
            guard let line = pod.lines.dropFirst(start).first(where: { $0.hasPrefix("link on") }) else { continue }
            let tempo = line.components(separatedBy: ", ").first { $0.hasSuffix(" BPM") }.flatMap { Double($0.dropLast(4)) }
            guard let tempo, tempo > 0, let beat = number(after: "beat", in: line) else { return nil }
            return BeatGrid(time: asked, beat: beat, tempo: tempo)
        }
        return nil
    }

    /// The host's beat now, by the test's clock.
    // Thread: any
    var now: Double { beat + Date().timeIntervalSince(time) * tempo / 60 }

    /// Waits until the host's clock is between a quarter and three quarters of a beat past a
    /// beat line (at once when it is).
    // Thread: the test's
    func awayFromLines() {
        let beat = now, fraction = beat - beat.rounded(.down)
        guard fraction < 0.25 || fraction > 0.75 else { return }
        let beats = (1.5 - fraction).truncatingRemainder(dividingBy: 1)
        Thread.sleep(forTimeInterval: beats * 60 / tempo)
    }
}
