/// The tokens of a pattern expression (Tidal's spelling, a Haskell subset): names, numbers,
/// string literals (mini-notation, parsed later by the kind the context expects), operators,
/// brackets and commas, each with the line and 1-based column where it starts.
struct ExpressionToken: Sendable, Equatable {
    /// What a token is.
    enum Kind: Sendable, Equatable {
        /// A name: `fast`, `d1`, `every'`, `Sound.Tidal.Context.fast` is not supported.
        case name(String)
        /// A number literal, exactly: `0.25` is 1/4 (as Haskell reads a literal as a Rational).
        case number(Time, isInteger: Bool, text: String)
        /// A string literal's contents; the position is that of its first character.
        case string(String)
        /// An operator: `$`, `.`, `#`, `|+|`, `<~`, `+`, … (a run of symbol characters).
        case op(String)
        /// A name in backquotes, used as an operator: `` `overlay` ``.
        case backquoted(String)
        case openParen, closeParen, openBracket, closeBracket, comma
        case end
    }
    var kind: Kind
    var line: Int
    var column: Int
}

/// Splits a text into `ExpressionToken`s: Haskell's `--` line comments and `{- -}` block
/// comments are skipped, positions count characters (not bytes) from column 1 of each line.
enum ExpressionLexer {
    static let symbolCharacters: Set<Character> = ["!", "#", "$", "%", "&", "*", "+", ".", "/", "<", "=", ">", "?", "@", "\\", "^", "|", "-", "~", ":"]

    /// The tokens of `text`, ending with `.end`; a stray character or an unterminated string is
    /// an error at its position.
    // Thread: any
    static func tokens(_ text: String) throws(PatternError) -> [ExpressionToken] {
        let chars = Array(text)
        var out: [ExpressionToken] = []
        var i = 0, line = 1, lineStart = 0
        // Thread: any
        func column(_ at: Int) -> Int { at - lineStart + 1 }
        while i < chars.count {
            let c = chars[i]
            if c == "\n" { i += 1; line += 1; lineStart = i; continue }
            if c == " " || c == "\t" || c == "\r" { i += 1; continue }
            // `--` starts a comment unless it is part of a longer operator (`-->`).
            if c == "-", i + 1 < chars.count, chars[i + 1] == "-" {
                var j = i
                while j < chars.count, chars[j] == "-" { j += 1 }
                if j >= chars.count || !symbolCharacters.contains(chars[j]) {
                    while i < chars.count, chars[i] != "\n" { i += 1 }
                    continue
                }
            }
            if c == "{", i + 1 < chars.count, chars[i + 1] == "-" {
                let (startLine, startColumn) = (line, column(i))
                var depth = 0
                repeat {
                    if i + 1 < chars.count, chars[i] == "{", chars[i + 1] == "-" { depth += 1; i += 2; continue }
                    if i + 1 < chars.count, chars[i] == "-", chars[i + 1] == "}" { depth -= 1; i += 2; continue }
                    if chars[i] == "\n" { line += 1; lineStart = i + 1 }
                    i += 1
                } while depth > 0 && i < chars.count
                if depth > 0 { throw PatternError("unterminated comment `{-`", column: startColumn, line: startLine) }
                continue
            }
            let col = column(i)
            switch c {
            case "(": out.append(.init(kind: .openParen, line: line, column: col)); i += 1; continue
            case ")": out.append(.init(kind: .closeParen, line: line, column: col)); i += 1; continue
            case "[": out.append(.init(kind: .openBracket, line: line, column: col)); i += 1; continue
            case "]": out.append(.init(kind: .closeBracket, line: line, column: col)); i += 1; continue
            case ",": out.append(.init(kind: .comma, line: line, column: col)); i += 1; continue
            default: break
            }
            if c == "\"" {
                var j = i + 1
                var s = ""
                while j < chars.count, chars[j] != "\"" {
                    if chars[j] == "\n" { break }
                    if chars[j] == "\\" {
                        throw PatternError("escapes (`\\`) are not supported in a pattern string", column: column(j), line: line)
                    }
                    s.append(chars[j]); j += 1
                }
                if j >= chars.count || chars[j] != "\"" {
                    throw PatternError("this string has no closing `\"`", column: col, line: line)
                }
                out.append(.init(kind: .string(s), line: line, column: col + 1))
                i = j + 1
                continue
            }
            if c == "`" {
                var j = i + 1
                var s = ""
                while j < chars.count, isNameCharacter(chars[j]) { s.append(chars[j]); j += 1 }
                guard !s.isEmpty, j < chars.count, chars[j] == "`" else {
                    throw PatternError("expected a name between backquotes", column: col, line: line)
                }
                out.append(.init(kind: .backquoted(s), line: line, column: col + 1))
                i = j + 1
                continue
            }
            if c.isASCII, c.isNumber {
                var j = i
                var digits = ""
                while j < chars.count, chars[j].isASCII, chars[j].isNumber { digits.append(chars[j]); j += 1 }
                var fraction = ""
                if j + 1 < chars.count, chars[j] == ".", chars[j + 1].isASCII, chars[j + 1].isNumber {
                    j += 1
                    while j < chars.count, chars[j].isASCII, chars[j].isNumber { fraction.append(chars[j]); j += 1 }
                }
                var exponent = 0
                if j < chars.count, chars[j] == "e" || chars[j] == "E" {
                    var k = j + 1
                    var negative = false
                    if k < chars.count, chars[k] == "-" || chars[k] == "+" { negative = chars[k] == "-"; k += 1 }
                    if k < chars.count, chars[k].isASCII, chars[k].isNumber {
                        var e = 0
                        while k < chars.count, chars[k].isASCII, chars[k].isNumber {
                            e = min(e * 10 + Int(String(chars[k]))!, 400); k += 1
                        }
                        exponent = negative ? -e : e
                        j = k
                    }
                }
                if j < chars.count, isNameCharacter(chars[j]) {
                    throw PatternError("a number cannot run into a name here", column: column(j), line: line)
                }
                let text = String(chars[i..<j])
                out.append(.init(kind: .number(exactNumber(digits, fraction, exponent), isInteger: fraction.isEmpty && exponent >= 0, text: text),
                                 line: line, column: col))
                i = j
                continue
            }
            if isNameStart(c) {
                var j = i
                var s = ""
                while j < chars.count, isNameCharacter(chars[j]) { s.append(chars[j]); j += 1 }
                // A qualified name (`Map.fromList`): a module's name, a dot, a name, no spaces.
                while s.first?.isUppercase == true, j + 1 < chars.count, chars[j] == ".", isNameStart(chars[j + 1]) {
                    s.append("."); j += 1
                    while j < chars.count, isNameCharacter(chars[j]) { s.append(chars[j]); j += 1 }
                }
                out.append(.init(kind: .name(s), line: line, column: col))
                i = j
                continue
            }
            if symbolCharacters.contains(c) {
                var j = i
                var s = ""
                while j < chars.count, symbolCharacters.contains(chars[j]) { s.append(chars[j]); j += 1 }
                out.append(.init(kind: .op(s), line: line, column: col))
                i = j
                continue
            }
            if c == "'" {
                throw PatternError("character literals (`'`) are not supported", column: col, line: line)
            }
            throw PatternError("unexpected character `\(c)`", column: col, line: line)
        }
        out.append(.init(kind: .end, line: line, column: column(i)))
        return out
    }

    // Thread: any
    static func isNameStart(_ c: Character) -> Bool { c == "_" || (c.isASCII && c.isLetter) }
    // Thread: any
    static func isNameCharacter(_ c: Character) -> Bool { c == "_" || c == "'" || (c.isASCII && (c.isLetter || c.isNumber)) }

    /// `digits.fraction × 10^exponent` as an exact fraction when it fits, else the nearest.
    // Thread: any
    static func exactNumber(_ digits: String, _ fraction: String, _ exponent: Int) -> Time {
        let all = (digits + fraction).drop { $0 == "0" }
        let scale = fraction.count - exponent
        if all.count <= 17, let n = Int64(all.isEmpty ? "0" : String(all)), scale >= -18, scale <= 18 {
            var p: Int64 = 1
            for _ in 0..<abs(scale) { p *= 10 }
            if scale >= 0 { return Time(n, p) }
            let (m, o) = n.multipliedReportingOverflow(by: p)
            if !o { return Time(m, 1) }
        }
        return Time(Double(digits + "." + (fraction.isEmpty ? "0" : fraction) + "e\(exponent)") ?? 0)
    }
}
