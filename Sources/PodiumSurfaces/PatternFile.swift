import PodiumHost
import PodiumPatterns

/// A patterns file beside the orchestra (`NAME.tidal` for `NAME.csd`), read at the start and
/// on every save, like `NAME.loops`: Tidal statements, each starting at the left margin
/// (`d1 $ …`, `setcps …`), continued by indented lines, ended by a blank line or the next
/// statement; `--` comments. A slot the file no longer defines stops at its next cycle.
public enum PatternFile {
    /// The statements of a file, each with the line it starts on.
    // Thread: any
    public static func statements(in text: String) -> [(text: String, firstLine: Int)] {
        var out: [(String, Int)] = []
        var current: [Substring] = []
        var first = 0
        func flush() {
            if !current.isEmpty { out.append((current.joined(separator: "\n"), first)) }
            current = []
        }
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = raw.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty { flush(); continue }
            if raw.hasPrefix("--") { continue }
            let continues = raw.first == " " || raw.first == "\t" || "#|$.+-*/<>~".contains(trimmed.first!)
            if !current.isEmpty, continues { current.append(raw); continue }
            flush()
            current = [raw]
            first = i + 1
        }
        flush()
        return out
    }
}

extension PatternFile {
    /// The slot a statement plays in, read without evaluating it (`d1 $ …` d1, `d1$…` d1,
    /// `p "drums" $ …` drums, `p 3 $ …` d3), so that a broken statement keeps its slot playing.
    // Thread: any
    static func slot(of statement: String) -> String? {
        let text = Substring(statement).drop { $0 == " " || $0 == "\t" }
        let word = text.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        if word.count >= 2, word.first == "d", Int(word.dropFirst()) != nil { return String(word) }
        guard word == "p" else { return nil }
        let rest = text.dropFirst(1).drop { $0 == " " || $0 == "\t" }
        if rest.first == "\"" {
            let name = rest.dropFirst().prefix { $0 != "\"" }
            return name.isEmpty ? nil : String(name)
        }
        let number = rest.prefix { $0.isNumber }
        return number.isEmpty ? nil : "d" + number
    }
}

extension PatternPlayer {
    /// Carries out a patterns file; a line per change or problem (`FILE:LINE:COLUMN: …`).
    // Thread: any
    public func run(fileText text: String, source: String, producer: CommandProducer?, loops: LiveLoops?) -> [String] {
        var messages: [String] = []
        var defined: Set<String> = []
        for (statement, firstLine) in PatternFile.statements(in: text) {
            do {
                let (said, slot) = try carryOut(statement, source: source, line: firstLine, producer: producer, loops: loops)
                if let slot { defined.insert(slot) }
                if !said.hasSuffix(": unchanged") { messages.append(said) }
            } catch var e as PatternError {
                e.line += firstLine - 1
                messages.append("\(source):\(e.line):\(e.column): \(e.message)")
                // A broken statement leaves its slot playing what it played.
                if let slot = PatternFile.slot(of: statement) { defined.insert(slot) }
            } catch {
                messages.append("\(source):\(firstLine): \(error)")
                if let slot = PatternFile.slot(of: statement) { defined.insert(slot) }
            }
        }
        return messages + forget(source: source, keeping: defined)
    }
}
