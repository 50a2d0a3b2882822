import Foundation

/// REPL commands from a pipe (no terminal): one per line, each optionally prefixed with
/// `@SECONDS` (from the start) for scripted demos. Returns true when `:quit` was read;
/// at the end of input the performance goes on.
public enum PipedInput {
    // Thread: its own (NRT)
    public static func run(session: ReplSession, shouldStop: () -> Bool) -> Bool {
        let start = ContinuousClock.now
        while let raw = readLine(strippingNewline: true) {
            if shouldStop() { return false }
            var line = Substring(raw)
            let trimmed = line.trimmingWhitespace()
            if trimmed.hasPrefix("@") {
                let token = trimmed.dropFirst().prefix { !$0.isWhitespace }
                if let t = Double(token) {
                    let due = start + .milliseconds(Int64(t * 1000))
                    while ContinuousClock.now < due && !shouldStop() { Thread.sleep(forTimeInterval: 0.005) }
                    line = trimmed.dropFirst(token.count + 1)
                }
            }
            session.handle(String(line))
            if session.quitRequested { return true }
        }
        return false
    }
}
