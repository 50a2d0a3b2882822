import Foundation
import PodiumEngine
import PodiumHost
import PodiumProbe
import PodiumRealtime
import PodiumSession
import PodiumSurfaces
import Testing

/// The beat clock's arithmetic and the musical-time syntax, without JACK.
@Suite("musical time: clock and syntax")
struct BeatClockTests {
    @Test("tempo changes re-anchor the clock: the beat never jumps, and a restored state continues bit for bit")
    func continuity() {
        var clock = BeatClock(tempo: 120, ksmps: 64, sampleRate: 48000)
        var replayed = clock
        var previous = clock.beat
        for i in 0..<100 {
            for _ in 0..<(7 + i % 5) {
                clock.advance()
                replayed.advance()
                #expect(clock.beat > previous)
                previous = clock.beat
            }
            let before = clock.beat
            clock.setTempo(Double(60 + (i * 37) % 200))
            #expect(clock.beat == before, "a tempo change never moves the beat")
            replayed.restore(clock.state)  // what a replay does with the journal's clock line
            #expect(replayed == clock)
        }
        // 24000 frames a beat at 120 BPM: beat 1 is 24000 frames after beat 0, exactly.
        let fresh = BeatClock(tempo: 120, ksmps: 64, sampleRate: 48000)
        #expect(fresh.framesUntil(1) == 24000)
        #expect(fresh.framesUntil(0) == 0)
        #expect(fresh.nextGridBeat(4) == 0)
        var later = fresh
        later.advance()
        #expect(later.nextGridBeat(4) == 4 && later.nextGridBeat(1) == 1)
        #expect(later.framesUntil(1) == 24000 - 64)
        // 133 BPM: 21654.135… frames a beat; the note starts on the first frame at or after it.
        let odd = BeatClock(tempo: 133, ksmps: 64, sampleRate: 48000)
        #expect(odd.framesUntil(1) == 21655)
        var bars = BeatClock(tempo: 120, quantum: 3, ksmps: 48000, sampleRate: 48000)  // 2 beats a k-cycle
        for _ in 0..<4 { bars.advance() }
        #expect(bars.beat == 8 && bars.bar == 2 && bars.phase == 2)
    }

    @Test("clock lines read back to the same state")
    func journalLine() throws {
        let line = JournalLine.clock(cycle: 42, state: ClockState(tempo: 133.3, quantum: 7, beat: 12.000000000000002, running: false))
        #expect(try JournalLine.parse(Substring(line.text)) == line)
        // Ableton Link's rate trim is a fifth field, written only when the rate is not 1.
        let trimmed = JournalLine.clock(cycle: 7, state: ClockState(tempo: 120, quantum: 4, beat: 3.5, running: true, rate: 1.000_412_345_678_9))
        #expect(trimmed.text.hasSuffix(" 1 1.0004123456789") && !line.text.hasSuffix(" 1"))
        #expect(try JournalLine.parse(Substring(trimmed.text)) == trimmed)
    }

    @Test("a rate trim re-anchors: beats per k-cycle scale by the rate, the beat does not jump, restore takes it back")
    func rateTrim() {
        var clock = BeatClock(tempo: 120, ksmps: 48000, sampleRate: 48000)  // 2 beats a k-cycle
        clock.advance()
        clock.setRate(1.5)
        #expect(clock.beat == 2 && clock.framesPerBeat == 16000)
        clock.advance()
        #expect(clock.beat == 5)
        var replay = BeatClock(tempo: 120, ksmps: 48000, sampleRate: 48000)
        replay.restore(clock.state)
        replay.advance()
        clock.advance()
        #expect(replay.state == clock.state && replay.beat == 8)
    }

    @Test("@bar, @beat, @Nbeats, @Nbars and @now; @1.5 stays a script's seconds; a bad count is refused")
    func prefixes() throws {
        #expect(try TimePrefix.split("@bar i1 0 1", quantum: 4) == (.grid(4), "i1 0 1"))
        #expect(try TimePrefix.split("  @beat i1 0 1", quantum: 4).0 == .grid(1))
        #expect(try TimePrefix.split("@2bars i1 0 1", quantum: 3).0 == .grid(6))
        #expect(try TimePrefix.split("@0.5beats i1 0 1", quantum: 4).0 == .grid(0.5))
        #expect(try TimePrefix.split("@now i1 0 1", quantum: 4).0 == .now)
        #expect(try TimePrefix.split("i1 0 1", quantum: 4).0 == nil)
        #expect(try TimePrefix.split("@1.5 i1 0 1", quantum: 4).0 == nil)
        #expect(throws: InputError.self) { try TimePrefix.split("@0beats i1 0 1", quantum: 4) }
        #expect(throws: InputError.self) { try TimePrefix.split("@-2bars i1 0 1", quantum: 4) }
        let script = try Script(text: "@0 :tempo 90\n@0 :quant bar\n@1 @beat i1 0 1\n@2 i1 0 1\n")
        #expect(script.steps.map(\.action) == [.tempo(90), .quant("bar"), .score(.event(instrument: .number(1), fields: [0, 1])),
                                                .score(.event(instrument: .number(1), fields: [0, 1]))])
        #expect(script.steps[2].timing == "beat" && script.steps[2].time == 1 && script.steps[3].timing == nil)
        #expect(throws: Script.ParseError.self) { try Script(text: "@0 :tempo 0\n") }
        #expect(throws: Script.ParseError.self) { try Script(text: "@0 :quant sometimes\n") }
    }

    @Test("tempo, quantum and grids out of range are refused with the range in words")
    func badValues() {
        for bpm in [0, -10, 1000, .nan, .infinity] {
            #expect(throws: InputError.self) { try InputCheck.tempo(bpm) }
        }
        #expect((try? InputCheck.tempo(999)) != nil && (try? InputCheck.tempo(1)) != nil)
        for q in [0, -4, 2.5, 65] { #expect(throws: InputError.self) { try InputCheck.quantum(q) } }
        #expect(throws: InputError.self) { try InputCheck.command(.clock(tempo: 2000)) }
        #expect(throws: InputError.self) { try LiveLoops.check(name: "drums", beats: -1) }
        #expect(throws: InputError.self) { try LiveLoops.check(name: "a b", beats: 4) }
        do { try InputCheck.tempo(0) } catch { #expect(error.description.contains("from 1 to 999 BPM")) }
    }

    @Test("a loop block runs from loop NAME BEATS to end; a malformed header says how to write it")
    func loopBlock() {
        var repl = ReplInterpreter()
        #expect(repl.feed("loop drums 4") == .incomplete)
        #expect(repl.inBlock)
        #expect(repl.feed("i1 0 1") == .incomplete)
        #expect(repl.feed("chord C4 maj 1 1") == .incomplete)
        #expect(repl.feed("end") == .loop(name: "drums", beats: 4, body: "i1 0 1\nchord C4 maj 1 1"))
        #expect(!repl.inBlock)
        if case let .problem(message) = repl.feed("loop drums") { #expect(message.contains("usage: loop NAME BEATS")) } else { Issue.record("no problem reported") }
        if case let .problem(message) = repl.feed("loop drums 0") { #expect(message.contains("beats")) } else { Issue.record("no problem reported") }
    }
}
