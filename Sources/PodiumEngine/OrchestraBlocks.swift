/// Orchestra text as Csound reads it at the top level: each `instr`/`opcode` definition (to its
/// `endin`/`endop`, or to the end of the text when unterminated) and each global line. The hot
/// reload's diff (`OrchestraDiff`) and the table staging's global code (`TableStaging`) both read
/// orchestras through here.
public enum OrchestraBlocks {
    public struct Block: Equatable, Sendable {
        /// The block's lines (0-based indices into the lines given).
        public var lines: Range<Int>
        /// Its text (a global line trimmed of surrounding spaces).
        public var text: String
        public var isInstrument: Bool
    }

    /// The blocks of `lines`: every definition, and every global line that is neither blank
    /// nor a `;` comment.
    // Thread: NRT (any)
    public static func blocks(_ lines: [Substring]) -> [Block] {
        func firstWord(_ line: Substring) -> Substring { line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "" }
        var result: [Block] = []
        var i = 0
        while i < lines.count {
            let head = firstWord(lines[i])
            if head == "instr" || head == "opcode" {
                let end: Substring = head == "instr" ? "endin" : "endop"
                var j = i
                while j < lines.count, firstWord(lines[j]) != end { j += 1 }
                let upper = min(j + 1, lines.count)
                result.append(Block(lines: i..<upper, text: lines[i..<upper].joined(separator: "\n"), isInstrument: true))
                i = upper
            } else {
                var t = lines[i]
                while let f = t.first, f.isWhitespace { t.removeFirst() }
                while let l = t.last, l.isWhitespace { t.removeLast() }
                if !t.isEmpty && t.first != ";" { result.append(Block(lines: i..<(i + 1), text: String(t), isInstrument: false)) }
                i += 1
            }
        }
        return result
    }
}
