import Foundation
import PodiumEngine
import PodiumSurfaces

/// What the editor asks and any page may (the audience's too): a name's reference, and every
/// sound there is to play.
///
///     {"type":"help","topic":"jux"}  → {"type":"help","topic":"jux","text":"jux :: …\n  plays …","found":true}
///     {"type":"sounds"}              → {"type":"sounds","instruments":[{"name":"bass","kind":"orchestra"},…],
///                                       "samples":[{"name":"bd","bank":"GMRockKit","files":3,"also":["kick"]},…]}
///     {"type":"scope"}               → {"type":"scope","rate":48000,"frames":2048,"samples":"<base64>"}
///
/// The scope's samples are the output's newest 2048 frames (the first two ports mixed), as
/// the callback wrote them to JACK: 16-bit little-endian integers (±32767 = 0 dBFS), base64.
/// A page asks at its own frame rate, one question at a time; the audio thread does nothing
/// more for it (`OutputLevels` keeps the samples in the meters' loop).
extension WebClients {
    /// Frames of the output a scope answer holds.
    static let scopeFrames = 2048
    // Thread: Hummingbird's event loops
    func answer(_ type: String, _ object: [String: Any]) -> String {
        if type == "help" {
            guard let topic = object["topic"] as? String, !topic.isEmpty, topic.utf8.count <= 64 else {
                return WebClients.json(["type": "error", "message": "help needs \"topic\" (a name of at most 64 bytes)"])
            }
            let text = HelpTopics.help(topic)
            return WebClients.json(["type": "help", "topic": topic, "text": text, "found": !text.hasPrefix("no help for ")])
        }
        if type == "scope" { return scope() }
        return WebClients.json(["type": "sounds", "instruments": instrumentList(), "samples": sampleList()])
    }

    func scope() -> String {
        guard let (samples, rate) = driver.outputScope(frames: WebClients.scopeFrames) else {
            return WebClients.json(["type": "scope", "rate": driver.engine.sampleRate, "frames": 0, "samples": ""])
        }
        var bytes = [UInt8](repeating: 0, count: samples.count * 2)
        for (i, x) in samples.enumerated() {
            let v = Int16(max(-1, min(1, x.isFinite ? x : 0)) * 32767)
            bytes[2 * i] = UInt8(truncatingIfNeeded: v)
            bytes[2 * i + 1] = UInt8(truncatingIfNeeded: v >> 8)
        }
        return WebClients.json(["type": "scope", "rate": rate, "frames": samples.count, "samples": Data(bytes).base64EncodedString()])
    }

    /// The orchestra's instruments by name and number, and the SuperDirt synths Podium plays.
    func instrumentList() -> [[String: Any]] {
        let table = driver.engine.instruments
        let synths = Set(DirtSynths.names)
        return table.names.sorted().map { ["name": $0, "kind": synths.contains($0) ? "SuperDirt synth" : "orchestra"] }
            + table.numbers.sorted().map { ["name": String($0), "kind": "orchestra (by number)"] }
    }

    /// Every sample name with its bank, its number of files and its other names.
    func sampleList() -> [[String: Any]] {
        (loops?.patterns.samples?.library.banks ?? []).flatMap { b in
            b.sounds.keys.sorted().map { n in
                ["name": n, "bank": b.name, "files": b.sounds[n]?.count ?? 0,
                 "also": b.aliases.filter { $0.value == n }.keys.sorted()] as [String: Any]
            }
        }
    }
}
