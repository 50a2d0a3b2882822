import Foundation
import PodiumRealtime

/// One line of the journal (a session's `events.log`): something the audio thread applied, with
/// the absolute k-cycle it took effect in. Typed here; its text (`PodiumSession/EventsLogFormat.swift`)
/// is one record per line:
///
///     <cycle> event <p1> <p2> <p3> …        p-fields as applied (p2 includes the frame offset)
///     <cycle> table <p1> <p2> <p3> <p4> …   an f statement as applied (a function table)
///     <cycle> set <channel> <value>
///     <cycle> momentary <channel> <value>    (back to 0 after that k-cycle)
///     <cycle> string <channel> "<text>"
///     <cycle> compile <hash> "<source>"      (text in orchestras/<hash>.orc)
///     <cycle> compile <hash> "<source>" staged   the same text, its big tables' lines left out
///                                            (`TableStaging.remainder`): they were built off
///                                            the audio thread and copied in by `stage` lines
///     <cycle> stage <hash> <i> <table> <offset> <count>   a slice of the i-th table
///                                            `TableStaging.compute` makes of that text's global
///                                            code, copied into table <table> at <offset>
///     <cycle> eval "<code>"                  (host questions: global code, not orchestra)
///     <cycle> score "<text>"
///     <cycle> midi 90 3c 64                  a MIDI message from the JACK MIDI port (hex bytes)
///     <cycle> clock <tempo> <quantum> <beat> <running> [<rate>]   the beat clock from this k-cycle on
///                                                     (rate: Ableton Link's trim, when not 1)
///                                            (tempo, beats per bar, beat at the k-cycle, 1/0)
///     <cycle> typed "<who>" "<text>"         what a performer evaluated in the editor (the page's
///                                            name, the text): to read how the set was built;
///                                            replay passes it by (what it did has lines of its own)
///     <cycle> sync                           events.log is complete through this k-cycle
///                                            (written about once a second; repair and replay
///                                            after a crash trust the audio only that far)
///     <cycles> engine <ksmps>                an engine starts (first line; again when the period
///                                            forces a rebuild: <cycles> is how many k-cycles the
///                                            previous engine performed; counting starts at 0 again)
///
/// Async compiles and score text are stamped with the k-cycle whose `csoundPerformKsmps`
/// took them in; replay submits them just before that k-cycle. Numbers are written so they
/// read back to the same bits; strings are JSON string literals.
public enum JournalLine: Equatable, Sendable {
    case event(cycle: Int64, pfields: [Double])
    case table(cycle: Int64, pfields: [Double])
    case set(cycle: Int64, channel: String, value: Double)
    case momentary(cycle: Int64, channel: String, value: Double)
    case string(cycle: Int64, channel: String, text: String)
    case compile(cycle: Int64, hash: String, source: String, staged: Bool = false)
    case stage(cycle: Int64, hash: String, index: Int, table: Int32, offset: Int, count: Int)
    case eval(cycle: Int64, code: String)
    case score(cycle: Int64, text: String)
    case engine(cycle: Int64, ksmps: Int)
    case sync(cycle: Int64)
    case midi(cycle: Int64, bytes: [UInt8])
    case clock(cycle: Int64, state: ClockState)
    /// A hush before this k-cycle: the defined instruments up to `bound` released (`RTEngine.release`).
    case hush(cycle: Int64, bound: Int)
    /// An evaluation a performer made in the editor (who, and the text).
    case typed(cycle: Int64, who: String, text: String)

    public var cycle: Int64 {
        switch self {
        case let .event(c, _), let .table(c, _), let .set(c, _, _), let .momentary(c, _, _), let .string(c, _, _),
             let .compile(c, _, _, _), let .stage(c, _, _, _, _, _), let .eval(c, _), let .score(c, _), let .engine(c, _), let .sync(c), let .midi(c, _), let .clock(c, _), let .hush(c, _), let .typed(c, _, _): return c
        }
    }

    /// A short content hash for orchestra texts (FNV-1a, 64 bits, hex).
    public static func hash(_ text: String) -> String {
        var h: UInt64 = 0xcbf29ce484222325
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
