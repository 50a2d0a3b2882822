import PodiumPatterns
/// Turns what a performer types into actions, without ceremony:
///   - `:command args` — REPL commands;
///   - score statements (`i1 0 2 440`, `i "bass" 0 1 .5`, `f`, `e` …) — score;
///   - `instr` / `opcode` opens a block that runs to `endin` / `endop`, then compiles;
///   - `loop NAME BEATS` opens a live loop's body (score lines in beats) that runs to `end`;
///   - any other line is global orchestra code (`gkTempo init 120`) and compiles at once.
/// An optional `@SECONDS` prefix times a line (scripted performances).
public struct ReplInterpreter: Sendable {
    public enum Action: Sendable, Equatable {
        case score(ScoreLine)
        /// `chord …` / `scale …` expanded into score lines.
        case scores([ScoreLine])
        /// A line that could not be understood (a malformed chord, say).
        case problem(String)
        case code(String, firstLine: Int)
        case command(String, [String])
        /// `loop NAME BEATS` … `end`: a live loop's definition (its body as typed).
        case loop(name: String, beats: Double, body: String)
        /// A pattern statement in Tidal's spelling (`d1 $ s "bd*2"`, `hush`, `setcps 0.5`), one
        /// line or a `:{` … `:}` block (as in ghci).
        case pattern(String, firstLine: Int)
        /// Inside an instr/opcode block: more lines needed.
        case incomplete
        case nothing
    }

    private var block: [String] = []
    /// The open block is a loop's body (its name and length), not orchestra code.
    private var loopHeader: (name: String, beats: Double)?
    /// The open block is a pattern statement (`:{` … `:}`).
    private var patternBlock = false
    private var blockStart = 0
    private var lineNumber = 0

    public init() {}

    public var inBlock: Bool { !block.isEmpty }

    /// Feeds one line.
    public mutating func feed(_ raw: String) -> Action {
        lineNumber += 1
        let line = raw.trimmingCharacters()
        let firstWord = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? ""
        if let header = loopHeader {
            if firstWord == "end" {
                loopHeader = nil
                let body = block.dropFirst().joined(separator: "\n")
                block = []
                return .loop(name: header.name, beats: header.beats, body: body)
            }
            block.append(raw)
            return .incomplete
        }
        if patternBlock {
            if line == ":}" {
                patternBlock = false
                let text = block.dropFirst().joined(separator: "\n")
                block = []
                return text.allSatisfy(\.isWhitespace) ? .nothing : .pattern(text, firstLine: blockStart + 1)
            }
            block.append(raw)
            return .incomplete
        }
        if !block.isEmpty {
            block.append(raw)
            if firstWord == "endin" || firstWord == "endop" {
                let code = block.joined(separator: "\n") + "\n"
                block = []
                return .code(code, firstLine: blockStart)
            }
            return .incomplete
        }
        if line.isEmpty || line.hasPrefix(";") || line.hasPrefix("//") { return .nothing }
        if line == ":{" {
            block = [raw]
            patternBlock = true
            blockStart = lineNumber
            return .incomplete
        }
        if ReplInterpreter.isPatternStatement(line) { return .pattern(line, firstLine: lineNumber) }
        if line.hasPrefix(":") {
            let words = line.dropFirst().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            return .command(words.first ?? "", Array(words.dropFirst()))
        }
        if firstWord == "loop" {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard words.count == 3, let beats = Double(words[2]) else {
                return .problem("usage: loop NAME BEATS, then score lines in beats, then end")
            }
            do { try LiveLoops.check(name: words[1], beats: beats) } catch { return .problem(error.description) }
            block = [raw]
            loopHeader = (words[1], beats)
            blockStart = lineNumber
            return .incomplete
        }
        if firstWord == "instr" || firstWord == "opcode" {
            block = [raw]
            blockStart = lineNumber
            return .incomplete
        }
        if Music.isExpansion(line) || ReplInterpreter.isScoreStatement(line) {
            do {
                let statements = try ScoreLine.parse(text: line)
                return statements.count == 1 && !Music.isExpansion(line) ? .score(statements[0]) : .scores(statements)
            } catch {
                return .problem("\(error.message) (column \(error.column))")
            }
        }
        return .code(raw + "\n", firstLine: lineNumber)
    }

    /// A pattern statement opens with a slot (`d1` … `d16`, `p "name"`, `p 3`) or another of
    /// Tidal's statement words (`hush`, `setcps`, `once`, `mute`, `solo`, `xfadeIn`, `let`, …):
    /// such a line is the pattern language's, and an error in it a pattern error with its
    /// column — never a Csound compile (`mute 1` is also Csound's `mute` opcode). An assignment
    /// (`word = …`) stays Csound's.
    // Thread: any
    public static func isPatternStatement(_ line: String) -> Bool {
        let word = line.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "'" }
        let rest = line.dropFirst(word.count).drop { $0 == " " || $0 == "\t" }
        if word == "hush" || word == "unmuteAll" || word == "unsoloAll" { return rest.isEmpty || rest.hasPrefix("--") }
        if PatternLanguage.slotWords.contains(String(word)) {
            // Csound's `mute "lead", 0` has a second argument; Tidal's `mute 1` never does.
            return !rest.hasPrefix("=") && !rest.contains(",")
        }
        if word == "setcps" || word == "once" || PatternLanguage.notYetStatements[String(word)] != nil
            || PatternLanguage.transitionArguments[String(word)] != nil {
            return !rest.isEmpty && !rest.hasPrefix("=") && !rest.hasPrefix(",")
        }
        if word == "p" { return rest.first == "\"" || rest.first?.isNumber == true }
        // Tidal's `do` block (its statements follow, indented) and `let name = …`.
        if word == "do" { return rest.isEmpty || rest.hasPrefix("--") || PatternLanguage.slot(String(rest.prefix { $0.isLetter || $0.isNumber })) != nil }
        if word == "let" { return rest.first?.isLetter == true || rest.first == "_" }
        if word.count >= 2, word.first == "d", let n = Int(word.dropFirst()), (1...16).contains(n) {
            return !rest.isEmpty && !rest.hasPrefix("=") && !rest.hasPrefix(",")
        }
        return false
    }

    /// A score statement is one letter, then a number, a quote, a sign or white space
    /// (`i1`, `i "x"`, `f 1`, `e`), which no orchestra identifier looks like.
    static func isScoreStatement(_ line: String) -> Bool {
        let chars = Array(line)
        guard let first = chars.first, "ifeastbvqmnrxy".contains(first) else { return false }
        guard chars.count > 1 else { return true }
        let second = chars[1]
        return second == " " || second == "\t" || second == "\"" || second == "-" || second == "." || second.isNumber
    }
}

extension String {
    func trimmingCharacters() -> String {
        String(Substring(self).trimmingWhitespace())
    }
}
