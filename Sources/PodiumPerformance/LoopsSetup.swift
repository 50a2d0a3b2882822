import Foundation
import PodiumEngine
import PodiumHost
import PodiumSurfaces

/// A performance's live loops: the scheduler, and the loops file beside the orchestra
/// (`NAME.loops` for `NAME.csd`), read at the start and again on every save.
enum LoopsSetup {
    /// The loops file for an orchestra file.
    static func file(beside orchestra: String) -> String {
        (orchestra as NSString).deletingPathExtension + ".loops"
    }

    // Thread: NRT (owner)
    static func start(driver: JackDriver, orchestra: String, watch: Bool,
                      notice: @escaping @Sendable (String, Bool) -> Void) -> (LiveLoops, FileWatcher?) {
        let loops = LiveLoops(driver: driver)
        loops.onProblem = { notice($0, true) }
        loops.start()
        let path = file(beside: orchestra)
        @Sendable func load() {
            guard let text = try? Engine.read(path) else { return }
            for line in loops.define(fileText: text, source: path) { notice(line, line.hasPrefix(path)) }
        }
        if FileManager.default.fileExists(atPath: path) {
            notice("loops from \(path)", false)
            load()
        }
        guard watch else { return (loops, nil) }
        let watcher = try? FileWatcher(path: path) { load() }
        return (loops, watcher)
    }
}
