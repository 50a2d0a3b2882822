/// What changed between two versions of an orchestra, as text Csound can compile on its own:
/// changed or new `instr`/`opcode` blocks and new global lines, every other line left blank so
/// Csound's line numbers stay those of the file. Unchanged instruments are not recompiled, and
/// global code that did not change (tables, `init`s) does not run again.
public enum OrchestraDiff {
    struct Block: Equatable {
        var lines: Range<Int>
        var text: String
        var isInstrument: Bool
    }

    /// Splits orchestra text (with its first line at `firstLine`, 0-based) into blocks:
    /// each instrument/opcode definition, and each global line.
    static func blocks(_ lines: [Substring]) -> [Block] {
        var result: [Block] = []
        var i = 0
        while i < lines.count {
            let head = lines[i].split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? ""
            if head == "instr" || head == "opcode" {
                let end = head == "instr" ? "endin" : "endop"
                var j = i
                while j < lines.count, (lines[j].split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") != Substring(end) { j += 1 }
                let upper = min(j + 1, lines.count)
                result.append(Block(lines: i..<upper, text: lines[i..<upper].joined(separator: "\n"), isInstrument: true))
                i = upper
            } else {
                let t = lines[i].trimmingWhitespace()
                if !t.isEmpty && !t.hasPrefix(";") { result.append(Block(lines: i..<(i + 1), text: String(t), isInstrument: false)) }
                i += 1
            }
        }
        return result
    }

    /// The text to compile to go from `old` to `new` (nil: nothing to compile). Header
    /// statements (sr, kr, ksmps, nchnls, 0dbfs) cannot change in a running engine and are left out.
    public static func changes(from old: String, to new: String) -> String? {
        let oldBlocks = Set(blocks(old.split(separator: "\n", omittingEmptySubsequences: false)).map(\.text))
        let newLines = new.split(separator: "\n", omittingEmptySubsequences: false)
        var output = [String](repeating: "", count: newLines.count)
        var any = false
        let header = ["sr", "kr", "ksmps", "nchnls", "nchnls_i", "0dbfs", "A4"]
        for b in blocks(newLines) where !oldBlocks.contains(b.text) {
            if !b.isInstrument, let word = b.text.split(whereSeparator: { $0 == " " || $0 == "=" || $0 == "\t" }).first, header.contains(String(word)) { continue }
            for l in b.lines { output[l] = String(newLines[l]) }
            any = true
        }
        return any ? output.joined(separator: "\n") + "\n" : nil
    }
}
