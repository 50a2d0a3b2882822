import Foundation
import PodiumEngine
import PodiumHost
import PodiumPatterns
import PodiumSurfaces

/// The editor's evaluations (`{"type":"eval", …}` on `/ws`): a block of a buffer, run as every
/// surface runs it, answered with what it did or its errors at their lines and columns in the
/// buffer.
///
///     {"type":"eval","id":7,"buffer":"patterns","text":"d1 $ s \"bd*2\"","line":12,"name":"ana"}
///     → {"type":"evaluated","id":7,"ok":true,"message":"d1: playing"}
///     → {"type":"evaluated","id":7,"ok":false,"errors":[{"line":12,"column":14,"message":"unclosed \"[\""}]}
///
///   - `patterns`: each statement of the block (at the left margin; indented lines continue it),
///     as typed at the REPL; the slot remembers where its text is, so that the page can light
///     up each step as it sounds.
///   - `orchestra`: the block compiled through the compile queue as a hot swap (the old code
///     plays on when it fails; the answer comes when it merged or was refused).
///   - `loops`: each `loop NAME BEATS … end` of the block defined.
/// The source every evaluation is journaled under names the page's chosen name (`page:ana`).
extension WebClients {
    // Thread: Hummingbird's event loops
    func evaluate(_ object: [String: Any], page: Int) throws -> String? {
        guard let buffer = object["buffer"] as? String, let text = object["text"] as? String else {
            throw InputError("eval needs \"buffer\" (orchestra, patterns or loops) and \"text\"")
        }
        guard text.utf8.count <= 256 * 1024 else { throw InputError("eval: at most 256 KiB of code at once") }
        let id = (object["id"] as? NSNumber)?.intValue ?? 0
        let line = max(1, (object["line"] as? NSNumber)?.intValue ?? 1)
        let who = WebClients.pageName(object["name"])
        count { $0.applied += 1 }
        driver.noteTyped(who: "page:\(who) \(buffer):\(line)", text: text)
        switch buffer {
        case "patterns":
            return evaluatePatterns(text, line: line, id: id, who: who)
        case "loops":
            return evaluateLoops(text, line: line, id: id, who: who)
        case "orchestra":
            lane.compile(text, source: "page:\(who)", key: "page \(page)") { [self] result in
                switch result {
                case .success:
                    send(to: page, WebClients.answer(id, ok: true, message: "compiled (\(who))"))
                case let .failure(error):
                    send(to: page, WebClients.answer(id, ok: false, errors: WebClients.compileErrors(error, text: text, line: line)))
                }
            }
            return nil
        default:
            throw InputError("eval: no buffer \"\(buffer.prefix(20))\" (orchestra, patterns, loops)")
        }
    }

    /// Each statement of a patterns block, in order; the first refusal stops the block.
    func evaluatePatterns(_ text: String, line: Int, id: Int, who: String) -> String {
        guard let loops else { return WebClients.answer(id, ok: false, errors: [(line, 1, "patterns do not run in this performance")]) }
        var said: [String] = []
        for statement in PatternFile.statements(in: text) {
            do {
                let reply = try producer.withLock { p in
                    try loops.patterns.run(statement.text, source: "page:\(who)", line: line + statement.firstLine - 1, producer: p, loops: loops)
                }
                said.append(reply)
                // The terminal (and the REPL's history of the set) hears what a page played.
                onNotice?("page \(who): \(reply)")
            } catch let e as PatternError {
                let at = line + statement.firstLine - 1 + e.line - 1
                onNotice?("page \(who): line \(at), column \(e.column): \(e.message)")
                return WebClients.answer(id, ok: false, errors: [(at, e.column, e.message)], message: said.joined(separator: "; "))
            } catch {
                onNotice?("page \(who): line \(line + statement.firstLine - 1): \(error)")
                return WebClients.answer(id, ok: false, errors: [(line + statement.firstLine - 1, 1, "\(error)")], message: said.joined(separator: "; "))
            }
        }
        return WebClients.answer(id, ok: true, message: said.joined(separator: "; "))
    }

    /// Each `loop … end` of a loops block.
    func evaluateLoops(_ text: String, line: Int, id: Int, who: String) -> String {
        guard let loops else { return WebClients.answer(id, ok: false, errors: [(line, 1, "loops do not run in this performance")]) }
        var interpreter = ReplInterpreter()
        var said: [String] = [], errors: [(Int, Int, String)] = []
        var blockStart = line
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if !interpreter.inBlock { blockStart = line + i }
            switch interpreter.feed(String(raw)) {
            case let .loop(name, beats, body):
                do { said.append(try loops.define(name: name, beats: beats, body: body, source: "page:\(who)")) } catch { errors.append((blockStart, 1, "\(error)")) }
            case let .problem(message): errors.append((line + i, 1, message))
            case .nothing, .incomplete: break
            default: errors.append((line + i, 1, "only loop … end blocks belong in the loops buffer"))
            }
        }
        if interpreter.inBlock { errors.append((blockStart, 1, "this loop has no end")) }
        return WebClients.answer(id, ok: errors.isEmpty, errors: errors, message: said.joined(separator: "; "))
    }

    /// A compile's refusal at the buffer's lines: Csound's lines are the block's; the column is
    /// where the token Csound names is on that line (1 when it names none).
    static func compileErrors(_ error: Error, text: String, line: Int) -> [(Int, Int, String)] {
        guard case let EngineError.compile(failure)? = error as? EngineError else { return [(line, 1, "\(error)")] }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let message = failure.diagnostics.first { $0.contains("error") } ?? failure.diagnostics.first ?? "compile failed"
        guard let at = failure.lines.first, at >= 1, at <= lines.count else { return [(line, 1, message)] }
        var column = 1
        if let open = message.range(of: "token \""), let close = message[open.upperBound...].firstIndex(of: "\"") {
            let token = message[open.upperBound..<close]
            if !token.isEmpty, let r = lines[at - 1].range(of: token) { column = lines[at - 1].distance(from: lines[at - 1].startIndex, to: r.lowerBound) + 1 }
        }
        return [(line + at - 1, column, message)]
    }

    static func answer(_ id: Int, ok: Bool, errors: [(Int, Int, String)] = [], message: String = "") -> String {
        json(["type": "evaluated", "id": id, "ok": ok, "message": message,
              "errors": errors.map { ["line": $0.0, "column": $0.1, "message": $0.2] }])
    }

    /// The name a page chose (letters, digits, - and _; at most 32), "guest" otherwise.
    static func pageName(_ any: Any?) -> String {
        let name = String(((any as? String) ?? "").filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }.prefix(32))
        return name.isEmpty ? "guest" : name
    }
}

// What plays, for the editor: steps lit as the audio thread starts their notes, and the roll.
extension WebClients {
    /// A note of a pattern started (`JackDriver.onApplied`): its steps to every page, at the
    /// buffer's lines, with the frame it started on. Only slots whose text is in a buffer (the
    /// page's evaluations, the patterns file) light anything.
    // Thread: the driver's supervisor
    func lit(_ step: PatternPlayer.Step, frame: Int64) {
        guard let source = step.source, source.hasPrefix("page:") || source == rooms.files["patterns"] else { return }
        let spans = step.spans.map { [step.line + $0.startLine - 1, $0.startColumn, step.line + $0.endLine - 1, $0.endColumn] }
        // The page keeps a lit step 180 ms: the same step again within 50 ms adds nothing (a
        // burst of 128 notes on one step sent 128 messages to every page, and a page under load
        // fell minutes behind).
        let now = DispatchTime.now().uptimeNanoseconds
        let repeated = lock.withLock { () -> Bool in
            if let last = lastLit[step.slot], last.spans == spans, now &- last.at < 50_000_000 { return true }
            lastLit[step.slot] = (spans, now)
            return false
        }
        if repeated { return }
        broadcast(WebClients.json(["type": "lit", "buffer": "patterns", "slot": step.slot, "frame": frame, "spans": spans]))
    }

    /// Whether a quarter of a second passed since the last roll (ticks of the feedback thread).
    // Thread: podium-web
    func tickRoll() -> Bool {
        rollTicks += 1
        return rollTicks % 8 == 0
    }

    /// The next two cycles of every pattern and live loop playing, from the current cycle: a row each.
    // Thread: podium-web
    func sendRoll() {
        guard let patterns = loops?.patterns else { return }
        let c = driver.clock
        let cycle = (driver.beatNow / max(c.quantum, 1e-9)).rounded(.down)
        let quantum = max(c.quantum, 1e-9)
        let patternsFile = rooms.files["patterns"]
        var rows: [[String: Any]] = patterns.preview(from: cycle, cycles: 2, limit: 256).map {
            var row: [String: Any] = ["slot": $0.slot, "events": $0.events.map { [$0.start, $0.stop, $0.label] as [Any] }]
            if let why = $0.silent { row["silent"] = why }
            if let w = $0.warning { row["warning"] = w.message; row["warnings"] = w.count }
            // The line of the patterns buffer the slot's text starts on (the page marks it).
            if let source = $0.source, source.hasPrefix("page:") || source == patternsFile { row["line"] = $0.line }
            return row
        }
        // The live loops' notes too, in cycles (a cycle is a bar).
        for loop in loops?.preview(fromBeat: cycle * quantum, toBeat: (cycle + 2) * quantum, limit: 256) ?? [] {
            rows.append(["slot": "loop " + loop.name, "events": loop.notes.map { [$0.start / quantum, $0.stop / quantum, $0.label] as [Any] }])
        }
        broadcast(WebClients.json(["type": "roll", "cycle": cycle, "slots": rows]))
    }
}
