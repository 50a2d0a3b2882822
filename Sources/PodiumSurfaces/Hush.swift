import PodiumHost

/// Hush, as every surface asks for it (`:hush`, `/podium/hush`, the page's button): the live
/// loops end first, so that none posts another iteration, then the audio thread releases every
/// playing note, drops what waits for its frame or beat and sends all notes off on midi_out, in
/// one k-cycle (`Command.hush`; CC 123 on midi_in does the same in the callback).
public enum Hush {
    /// Returns what it did, for the surface's answer.
    // Thread: the producer's
    public static func perform(producer: CommandProducer, loops: LiveLoops?) throws(InputError) -> String {
        let patterns = loops?.patterns.hushAll() ?? []
        let ended = loops?.endAllNow() ?? []
        loops?.hushPosted()
        let posted: UInt64?
        do { posted = try producer.hush() } catch {
            loops?.hushPosted(false)
            throw error
        }
        guard posted != nil else {
            loops?.hushPosted(false)
            throw InputError("the command ring is full: hush not sent (try again)")
        }
        var what: [String] = []
        if !ended.isEmpty { what.append("loops \(ended.joined(separator: ", "))") }
        if !patterns.isEmpty { what.append("patterns \(patterns.joined(separator: ", "))") }
        return "hushed" + (what.isEmpty ? "" : ": \(what.joined(separator: " and ")) ended")
    }
}
