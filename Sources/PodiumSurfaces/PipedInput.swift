import Foundation

/// REPL commands from a pipe (no terminal): one per line, each optionally prefixed with
/// `@SECONDS` (from the start) for scripted demos. Returns true when `:quit` was read;
/// at the end of input the performance goes on. Lines are carried out in order (a compile's
/// answer before the lines after it): `:quit` and the end wait for what came before.
public enum PipedInput {
    // Thread: its own (NRT)
    public static func run(session: ReplSession, shouldStop: () -> Bool) -> Bool {
        let start = ContinuousClock.now
        while let raw = readLine(strippingNewline: true) {
            if shouldStop() { return false }
            var line = Substring(raw)
            do {
                if let (t, rest) = try Script.timePrefix(line) {
                    let due = start + .microseconds(Int64(t * 1e6))
                    while ContinuousClock.now < due && !shouldStop() { Thread.sleep(forTimeInterval: 0.005) }
                    line = rest
                }
            } catch {
                session.print("\(error)")
                continue
            }
            session.handle(String(line))
            if [":quit", ":q"].contains(line.trimmingCharacters(in: .whitespaces)) {
                return session.finish(shouldStop: shouldStop) && session.quitRequested
            }
        }
        _ = session.finish(shouldStop: shouldStop)
        return session.quitRequested
    }
}
