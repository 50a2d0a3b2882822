@testable import PodiumHost
@testable import PodiumRealtime
import Testing

/// The decisions of the Link follower (LinkFollower.swift, LinkRate.swift), fed with the errors
/// and host times a period would give them.
@Suite("Link follower")
struct LinkFollowerTests {
    let period = 256, rate = 48_000.0

    @Test("jitter within the deadband, or beyond it on alternating sides, is left alone; a steady error is corrected once, by the mean of four periods")
    func deadbandAndConfirmation() {
        var f = LinkPhaseFollower()
        for i in 0..<200 { #expect(f.correction(error: i % 2 == 0 ? 0.000_2 : -0.000_2, frames: period) == nil) }
        for i in 0..<200 { #expect(f.correction(error: i % 2 == 0 ? 0.000_4 : -0.000_4, frames: period) == nil) }
        var steps: [Double] = []
        for e in [0.000_5, 0.000_7, 0.000_5, 0.000_7, 0.000_1] {
            if let s = f.correction(error: e, frames: period) { steps.append(s) }
        }
        #expect(steps.count == 1 && abs(steps[0] - 0.000_6) < 1e-12)
    }

    @Test("after a discontinuity: one jump for lost frames at once, nothing else for 0.25 s, then the residue through the deadband")
    func holdOff() {
        var f = LinkPhaseFollower()
        f.discontinuity(sampleRate: rate)
        #expect(f.correction(error: 0.000_9, frames: period) == nil, "noise of a restarted filter")
        #expect(f.correction(error: 0.053, frames: period) == 0.053, "an xrun's lost frames: at once")
        var later: [Double] = []
        for i in 0..<40 {  // 0.21 s: still in the hold-off
            if let s = f.correction(error: i % 2 == 0 ? 0.003 : 0.001, frames: period) { later.append(s) }
        }
        #expect(later.isEmpty, "one jump per hold-off")
        for _ in 0..<14 { if let s = f.correction(error: 0.000_8, frames: period) { later.append(s) } }
        #expect(later.count == 2 && later.allSatisfy { abs($0 - 0.000_8) < 1e-12 }, "after the hold-off: every four periods")
    }

    @Test("the rate: frames 400 ppm fast against the host clock give 0.9996 after a 0.5 s window, then windows of 1 and 2 s; within 10 ppm nothing; a reset starts again")
    func rateWindows() {
        var r = LinkRateEstimator()
        let usPerFrame = 1e6 / rate * 0.9996
        var got: [(Int, Double)] = []
        for p in 0..<2000 {
            let frames = Double(p * period)
            if let x = r.update(frames: frames, host: 5e9 + frames * usPerFrame, sampleRate: rate, settled: true, current: got.last?.1 ?? 1) {
                got.append((p, x))
            }
        }
        #expect(got.count == 1 && abs(got[0].1 - 0.9996) < 1e-9, "\(got)")
        #expect(got.first.map { Double($0.0 * period) / rate } .map { $0 >= 0.5 && $0 < 0.52 } ?? false)
        #expect(abs(r.measured - 0.9996) < 1e-9 && r.window == LinkRateEstimator.span)
        #expect(r.update(frames: 0, host: 0, sampleRate: rate, settled: false, current: 1) == nil)
        r.reset()
        #expect(r.window == LinkRateEstimator.firstSpan && r.anchorFrames < 0)
        #expect(r.update(frames: 0, host: 0, sampleRate: rate, settled: true, current: 1) == nil)
        #expect(r.update(frames: rate, host: 1.2e6, sampleRate: rate, settled: true, current: 1) == nil, "20 % off: a broken measurement")
    }
}
