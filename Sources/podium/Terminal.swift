import Foundation

/// Output helpers for the CLI. Thread: NRT (main).
enum Terminal {
    static var stderrIsTTY: Bool { isatty(STDERR_FILENO) == 1 }
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
    /// REPL replies (stdout).
    static func output(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}

/// Where the REPL keeps its history across runs.
enum ReplHistory {
    static var path: String {
        (ProcessInfo.processInfo.environment["PODIUM_HISTORY"]
            ?? (ProcessInfo.processInfo.environment["HOME"] ?? ".") + "/.podium_history")
    }
}

/// A progress bar on a terminal; plain lines (at most one a second) otherwise.
final class ProgressReporter {
    let label: String
    let tty = Terminal.stderrIsTTY
    var lastPlain = ContinuousClock.now
    var drawn = false

    init(label: String) { self.label = label }

    func update(rendered: Double, total: Double?) {
        let fraction = total.map { $0 > 0 ? min(1, rendered / $0) : 1 }
        let totalText = total.map { String(format: "%.1f", $0) } ?? "?"
        if tty {
            let width = 30
            let filled = Int((fraction ?? 0) * Double(width))
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
            FileHandle.standardError.write(Data(String(format: "\r%@ [%@] %.1f / %@ s", label, bar, rendered, totalText).utf8))
            drawn = true
        } else if ContinuousClock.now - lastPlain >= .seconds(1) {
            lastPlain = .now
            Terminal.error(String(format: "rendering %@: %.1f / %@ s", label, rendered, totalText))
        }
    }

    func finish() {
        if drawn { FileHandle.standardError.write(Data("\n".utf8)); drawn = false }
    }
}
