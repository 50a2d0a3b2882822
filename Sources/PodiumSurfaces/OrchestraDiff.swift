import PodiumEngine

/// What changed between two versions of an orchestra, as text Csound can compile on its own:
/// changed or new `instr`/`opcode` blocks and new global lines, every other line left blank so
/// Csound's line numbers stay those of the file. Unchanged instruments are not recompiled, and
/// global code that did not change (tables, `init`s) does not run again.
public enum OrchestraDiff {
    /// The text to compile to go from `old` to `new` (nil: nothing to compile). Header
    /// statements (sr, kr, ksmps, nchnls, 0dbfs) cannot change in a running engine and are left out.
    public static func changes(from old: String, to new: String) -> String? {
        let oldBlocks = Set(OrchestraBlocks.blocks(old.split(separator: "\n", omittingEmptySubsequences: false)).map(\.text))
        let newLines = new.split(separator: "\n", omittingEmptySubsequences: false)
        var output = [String](repeating: "", count: newLines.count)
        var any = false
        let header = ["sr", "kr", "ksmps", "nchnls", "nchnls_i", "0dbfs", "A4"]
        for b in OrchestraBlocks.blocks(newLines) where !oldBlocks.contains(b.text) {
            if !b.isInstrument, let word = b.text.split(whereSeparator: { $0 == " " || $0 == "=" || $0 == "\t" }).first, header.contains(String(word)) { continue }
            for l in b.lines { output[l] = String(newLines[l]) }
            any = true
        }
        return any ? output.joined(separator: "\n") + "\n" : nil
    }
}
