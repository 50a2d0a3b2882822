// Csound 6.18's table of instruments and the named instruments of live code.
//
// Csound numbers a named instrument with the first number free in its table, starting at 1. In a
// compile merged into a running performance (csound_orc_compile.c, `engineState_merge`), it
// stores a named instrument at that number in the performance's table *without growing it*
// (`current_state->instrtxtp[i] = current`), where numbered instruments go through
// `insert_instrtxt`, which grows it. The table holds `maxinsno + 1` entries, in blocks of 200;
// UDOs are stored after it. So live code whose new named instruments pass the free numbers of the
// table writes past it: measured, 15 named instruments and then 190 more compiled live, twice,
// ended in "double free or corruption". A numbered instrument at the table's size grows it by a
// block, safely (`OrchestraCheck.instrumentGrowth` allows one block at a time), and that is how
// the engine makes room before such a compile (`LiveCoding.makeRoom`).
extension InstrumentTable {
    init(_ compiled: CompiledOrchestra) {
        self.init()
        add(compiled)
    }

    /// The instruments a check line names (`1 2 | bass lead`, `OrchestraCheck.instrumentsLine`).
    public init(checkLine: String) {
        self.init()
        let parts = checkLine.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        let numbers = parts.first.map { $0.split(separator: " ").compactMap { Int($0) } } ?? []
        let names = parts.count > 1 ? parts[1].split(separator: " ").map(String.init) : []
        add(CompiledOrchestra(numbers: Set(numbers), names: names))
    }

    /// This table as a check line says it.
    public var checkLine: String {
        numbers.sorted().map(String.init).joined(separator: " ") + " | " + names.joined(separator: " ")
    }
}

/// The size of a performance's table of instruments and what live code's named instruments need of it.
public enum InstrumentTableGrowth {
    /// Csound's block (MAXINSNO).
    public static let block = OrchestraCheck.instrumentBlock

    /// The size of Csound's table (its `maxinsno`) given the numbers it holds: a numbered instrument
    /// grows it when its number reaches the size (`insert_instrtxt`), a named one of the first
    /// compile when its number passes it; `known`: a size the engine grew it to (`makeRoom`).
    public static func tableSize(numbered: Set<Int>, named: [Int], known: Int = 0) -> Int {
        let byNumbers = ((numbered.max() ?? 0) / block + 1) * block
        let byNames = ((named.max() ?? 0) + block - 1) / block * block
        return max(block, byNumbers, byNames, known)
    }

    /// How many new named instruments a table of `size` takes: the numbers 1 to size − 1 that
    /// nothing holds (`occupied`, with the compile's own numbered instruments). The last entry,
    /// `size` itself, is left: Csound's merge orders instruments up to `size` − 1 only.
    public static func free(size: Int, occupied: Set<Int>) -> Int {
        guard size > 1 else { return 0 }
        return (1..<size).reduce(0) { occupied.contains($1) ? $0 : $0 + 1 }
    }

    /// What a compile needs of the table: `steps`, the sizes at which an empty instrument grows
    /// it by a block first, so that the compile's new named instruments fit; and `anchor`, an empty
    /// instrument put before the compile's own code when the table is past one block.
    ///
    /// The anchor: Csound compiles live code into a table of its own, 200 numbers to start with,
    /// and writes a named instrument that is defined again at the number it already has, past that
    /// table when the number is 200 or more (`named_instr_assign_numbers`, `no != 0`). A numbered
    /// instrument in the compile's top block, first in its text, makes the compile's table as large
    /// as the performance's: one of the host's empty instruments, or a free number made one.
    public struct Room: Equatable, Sendable {
        public var steps: [Int] = []
        public var anchor: Int?
        public init(steps: [Int] = [], anchor: Int? = nil) {
            self.steps = steps
            self.anchor = anchor
        }
    }

    /// The room `compiled` needs beside what the table holds (`occupied`, the host's empty
    /// instruments `placeholders` among them) in a table of `size`; `current`: the names compiled
    /// so far; `namedPastFirstBlock`: whether a named instrument holds a number of 200 or more
    /// (which the compile may define again: the anchor). Nil when it would need a number past
    /// `OrchestraCheck.maximumInstrumentNumber`.
    public static func room(for compiled: InstrumentTable, names current: Set<String>, occupied: Set<Int>,
                            placeholders: Set<Int>, size: Int, namedPastFirstBlock: Bool) -> Room? {
        let new = compiled.names.filter { !current.contains($0) }.count
        var taken = occupied.union(placeholders).union(compiled.numbers)
        var placeholders = placeholders.subtracting(compiled.numbers)
        var size = size, steps: [Int] = []
        while true {
            var anchor: Int?
            if namedPastFirstBlock, size > block {
                let top = (size - block)..<size
                anchor = placeholders.filter(top.contains).max() ?? top.reversed().first { !taken.contains($0) }
            }
            let anchored = anchor != nil || !namedPastFirstBlock || size == block
            if anchored, free(size: size, occupied: taken.union(anchor.map { [$0] } ?? [])) >= new {
                return Room(steps: steps, anchor: anchor)
            }
            // `instr size` grows the table to size + block, and holds that number itself.
            guard size + block <= OrchestraCheck.maximumInstrumentNumber + 1 else { return nil }
            steps.append(size)
            taken.insert(size)
            placeholders.insert(size)
            size += block
        }
    }

    /// The number of an empty instrument as the host writes it (`Engine.roomInstrument`), else nil.
    public static func roomNumber(in code: String) -> Int? {
        guard code.hasPrefix("instr "), code.hasSuffix("\nendin\n") else { return nil }
        let middle = code.dropFirst("instr ".count).dropLast("\nendin\n".count)
        return Int(middle)
    }
}
