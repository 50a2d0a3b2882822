import Foundation
import PodiumEngine
import PodiumHost
import PodiumSurfaces

/// The patterns file beside the orchestra (`NAME.tidal` for `NAME.csd`), read at the start and
/// again on every save, played by the live loops' scheduler (which also sends its `setcps`).
enum PatternsSetup {
    // Thread: any
    static func file(beside orchestra: String) -> String {
        (orchestra as NSString).deletingPathExtension + ".tidal"
    }

    // Thread: NRT (owner)
    static func start(loops: LiveLoops, orchestra: String, watch: Bool,
                      notice: @escaping @Sendable (String, Bool) -> Void) -> FileWatcher? {
        let path = file(beside: orchestra)
        @Sendable func load() {
            guard let text = try? Engine.read(path) else { return }
            for line in loops.patterns.run(fileText: text, source: path, producer: nil, loops: loops) {
                notice(line, line.hasPrefix(path))
            }
        }
        if FileManager.default.fileExists(atPath: path) {
            notice("patterns from \(path)", false)
            load()
        }
        guard watch else { return nil }
        return try? FileWatcher(path: path) { load() }
    }
}
