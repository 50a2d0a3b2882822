import PodiumProbe
import PodiumRealtime

/// Beats counted in the frames Podium performed. A dummy server that falls behind skips
/// periods: its frame time jumps (one xrun notice may stand for many periods; measured here,
/// 170 periods, 0.9 s, in one run), while Podium's clock counts only the k-cycles it
/// performed. The capture client reads Podium's output, so it runs in the same cycles, and
/// its sample indices count the same performed frames: a beat is placed by sample index from
/// a clock snapshot taken while recording, never by JACK frame time. (Placing an onset at
/// the beat nearest its JACK frame fails once the skipped periods add up to half a beat:
/// 170 periods at 133 BPM put an onset 211 frames from the wrong beat.)
struct PerformedBeats {
    let reference: Int, beat: Double, framesPerBeat: Double
    /// The beat at recorded sample `i`.
    func beat(ofSample i: Int) -> Double { beat + Double(i - reference) / framesPerBeat }
    /// The first recorded sample at or after beat `b`.
    func sample(ofBeat b: Double) -> Int { reference + Int(((b - beat) * framesPerBeat - 1e-6).rounded(.up)) }
}

/// The beats of `capture`'s samples, from a clock snapshot published while it recorded.
func performedBeats(_ capture: CaptureClient, _ clock: ClockSnapshot) -> PerformedBeats? {
    guard let reference = capture.sampleIndex(ofFrame: clock.frame) else { return nil }
    return PerformedBeats(reference: reference, beat: clock.beat, framesPerBeat: 60 * clock.sampleRate / (clock.tempo * clock.rate))
}
