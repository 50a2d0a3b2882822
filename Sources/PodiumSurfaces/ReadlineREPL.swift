import CReadline
import Foundation
import Glibc

/// The interactive REPL on a terminal: GNU readline's callback interface in a poll loop, so
/// console lines arriving while the performer types are printed above the prompt and the line
/// being typed is redrawn intact. History in a file, Ctrl-R search (readline's), Tab completion
/// of commands, channels, instruments and opcodes; Ctrl-C clears the line, Ctrl-D or :quit stops.
/// Thread: the main thread (readline is not thread-safe); other threads only `post` lines.
public final class ReadlineREPL: @unchecked Sendable {
    let session: ReplSession
    let historyPath: String
    private let wake: (read: Int32, write: Int32)
    private let lock = NSLock()
    private var pendingOutput: [String] = []
    private var interrupted = false

    /// The one instance readline's C callbacks reach.
    nonisolated(unsafe) static var current: ReadlineREPL?
    nonisolated(unsafe) static var candidates: [String] = []

    public init(session: ReplSession, historyPath: String) {
        self.session = session
        self.historyPath = historyPath
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        _ = fcntl(fds[1], F_SETFL, O_NONBLOCK)
        wake = (fds[0], fds[1])
    }

    /// A line to show above the prompt (any thread).
    public func post(_ text: String) {
        lock.withLock { pendingOutput.append(text) }
        var b: UInt8 = 1
        _ = write(wake.write, &b, 1)
    }

    /// Ctrl-C (from the signal handler's queue): clear the line, keep playing.
    public func interrupt() {
        lock.withLock { interrupted = true }
        var b: UInt8 = 2
        _ = write(wake.write, &b, 1)
    }

    /// Runs until :quit, Ctrl-D, or `shouldStop`.
    public func run(shouldStop: () -> Bool) {
        ReadlineREPL.current = self
        using_history()
        _ = read_history(historyPath)
        podium_rl_set_completer { text, _, _ in
            let line = podium_rl_line().map { String(cString: $0) } ?? ""
            ReadlineREPL.candidates = ReadlineREPL.current?.session.completions(forLine: line) ?? []
            podium_rl_completion_over()
            return rl_completion_matches(text) { text, state in
                struct Iter { nonisolated(unsafe) static var index = 0 }
                if state == 0 { Iter.index = 0 }
                let prefix = text.map { String(cString: $0) } ?? ""
                while Iter.index < ReadlineREPL.candidates.count {
                    let c = ReadlineREPL.candidates[Iter.index]
                    Iter.index += 1
                    if c.hasPrefix(prefix) { return strdup(c) }
                }
                return nil
            }
        }
        rl_callback_handler_install(session.prompt) { line in
            guard let repl = ReadlineREPL.current else { return }
            guard let line else {  // Ctrl-D
                repl.session.handle(":quit")
                return
            }
            let text = String(cString: line)
            free(line)
            if !text.trimmingCharacters().isEmpty { add_history(text) }
            repl.session.handle(text)
            rl_set_prompt(repl.session.prompt)
        }
        var lastPrompt = ContinuousClock.now
        while !session.quitRequested && !shouldStop() {
            var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 2, 250)
            if fds[1].revents != 0 { drainWake() }
            if fds[0].revents & Int16(POLLIN) != 0 { rl_callback_read_char() }
            if fds[0].revents & Int16(POLLHUP) != 0 { break }
            if ContinuousClock.now - lastPrompt > .seconds(1) {  // the prompt's clock moves
                lastPrompt = .now
                rl_set_prompt(session.prompt)
                rl_redisplay()
            }
        }
        rl_callback_handler_remove()
        _ = write_history(historyPath)
        podium_print("\n")
        ReadlineREPL.current = nil
    }

    private func drainWake() {
        var b = [UInt8](repeating: 0, count: 256)
        while read(wake.read, &b, b.count) > 0 {}
        let (lines, ctrlC) = lock.withLock { () -> ([String], Bool) in
            defer { pendingOutput = []; interrupted = false }
            return (pendingOutput, interrupted)
        }
        if ctrlC {
            rl_replace_line("", 0)
            session.cancelBlock()
            podium_print("^C\n")
            rl_set_prompt(session.prompt)
            rl_on_new_line()
            rl_redisplay()
        }
        guard !lines.isEmpty else { return }
        // Console output above the prompt; the line being typed is redrawn as it was.
        let point = podium_rl_point()
        let saved = rl_copy_text(0, podium_rl_end())
        rl_replace_line("", 0)
        rl_clear_visible_line()
        for l in lines { podium_print(l + "\n") }
        if let saved { rl_replace_line(saved, 0); free(saved) }
        podium_rl_set_point(point)
        rl_on_new_line()
        rl_redisplay()
    }
}
