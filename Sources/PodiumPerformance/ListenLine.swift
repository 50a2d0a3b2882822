import Foundation
import PodiumAudioFile

/// The last line of a performance recorded because nobody could hear it (JACK's dummy
/// backend): where the file is, how long, and how loud, so a newcomer knows it holds music.
enum ListenLine {
    // Thread: NRT (the performance's owner, after the performance)
    static func describe(audio path: String) -> String {
        guard let contents = try? SoundFileContents(path: path), contents.sampleRate > 0 else {
            return "the recording \(path) could not be read back"
        }
        let seconds = Double(contents.frames) / Double(contents.sampleRate)
        let peak = contents.peaks.max() ?? 0
        let level = peak > 0 ? String(format: "peak %.1f dBFS", 20 * log10(peak)) : "silent"
        return String(format: "listen to the performance: %@ (%.1f s, %@)", path, seconds, level)
    }
}
