import Foundation

/// Tables built off the audio thread. Csound 6.18 runs a live compile's global code — GEN
/// routines included — on the audio thread when it merges: a 2^20-point GEN 10 holds the
/// callback for about 90 ms. For each `giX ftgen …` of a GEN routine that only computes (no
/// file, no other table) in the global code of live code, Podium instead:
///  1. runs the text's global code in an engine of its own, on the compiling thread (`compute`);
///  2. merges a stub that makes each table at its length with no work (GEN -2 with a single
///     value: Csound allocates it zeroed) and publishes the number it got (`stub`);
///  3. has the audio thread copy the computed values in, a slice at a time (`Command.tableFill`);
///  4. merges the rest of the text (`remainder`: the staged lines left blank), whose
///     instruments then read finished tables.
/// scsynth does the same with `/b_gen` (filled in its non-real-time thread, swapped in).
/// A replay computes the tables the same way from the saved text (`compute` is deterministic:
/// a fixed seed) and copies them at the journaled k-cycles.
public enum TableStaging {
    /// One `giX ftgen …` line of the global code (0-based line index).
    public struct Line: Sendable, Equatable {
        public var index: Int
        public var variable: String
        /// The table number as written (`0`: Csound picks one).
        public var number: String
    }

    /// GEN routines that compute from their arguments only (no file, no other table).
    public static let computingGens: Set<Int> = [2, 3, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16, 17, 19, 20, 21, 25, 27]
    /// Tables shorter than this are built on the audio thread as before (their work is small).
    public static let minimumLength = 4096
    /// Tables staged per compile at most (the stub publishes their numbers on host channels).
    public static let maximumTables = 8
    /// The channels the stub writes the tables' numbers to (created before the engine starts).
    public static func channel(_ i: Int) -> String { "podium.stage.\(i)" }
    public static var channels: [String] { (0..<maximumTables).map(channel) }
    /// The values a slice of the audio thread's copy carries at most (128 KB).
    public static let sliceLength = 16_384

    /// The lines of the text's global code that could be staged.
    public static func candidates(_ text: String) -> [Line] {
        var result: [Line] = []
        var inComment = false
        for (i, raw) in globalCode(text).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(raw)
            if inComment {
                guard let end = line.range(of: "*/") else { continue }
                inComment = false
                line = line[end.upperBound...]
            }
            if let start = line.range(of: "/*") {
                if line[start.upperBound...].range(of: "*/") == nil { inComment = true }
                continue  // a line with a block comment is left to Csound
            }
            let code = line.prefix { $0 != ";" }.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = code.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count >= 3, words[1] == "ftgen", let first = words.first, first.hasPrefix("gi"),
                  first.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { continue }
            let args = code[code.range(of: "ftgen")!.upperBound...].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard args.count >= 5, let gen = Int(args[3]), computingGens.contains(abs(gen)), Int(args[0]) != nil else { continue }
            result.append(Line(index: i, variable: String(first), number: args[0]))
        }
        return result
    }

    /// The text with the staged lines left blank (line numbers unchanged).
    public static func remainder(_ text: String, staged: [Int]) -> String {
        let blank = Set(staged)
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .map { blank.contains($0.offset) ? "" : String($0.element) }.joined(separator: "\n")
    }

    /// The text's global code only: instrument and opcode blocks left blank.
    static func globalCode(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var out = lines.map(String.init)
        for b in OrchestraBlocks.blocks(lines) where b.isInstrument { for i in b.lines { out[i] = "" } }
        return out.joined(separator: "\n")
    }

    /// Tables computed by an engine of their own (kept alive as long as this is).
    public final class Computed: @unchecked Sendable {
        let engine: Engine
        /// The staged lines (those long enough), with their tables' values: length + 1 values
        /// each (the guard point included).
        public let lines: [Line]
        public let tables: [(values: UnsafeMutablePointer<Double>, length: Int)]

        init(engine: Engine, lines: [Line], tables: [(values: UnsafeMutablePointer<Double>, length: Int)]) {
            self.engine = engine
            self.lines = lines
            self.tables = tables
        }
    }

    /// Runs the text's global code in an engine of its own (the performing engine's sample
    /// rate and ksmps; seed 1, so a replay computes the same) and keeps the tables of
    /// `candidates` at least `minimumLength` long. Nil when there is nothing to stage or the
    /// code does not run alone (it uses globals of earlier code: then it merges as before).
    // Thread: NRT (the compiling thread, or a replay)
    public static func compute(_ text: String, candidates: [Line], sampleRate: Double, ksmps: Int, searchOptions: [String]) -> Computed? {
        let chosen = Array(candidates.prefix(maximumTables))
        guard !chosen.isEmpty,
              let engine = try? Engine(options: EngineOptions(sampleRate: Int(sampleRate), ksmps: ksmps, extra: ["-n"] + searchOptions))
        else { return nil }
        var code = "seed 1\n" + globalCode(text) + "\n"
        for (i, line) in chosen.enumerated() { code += "chnset \(line.variable), \"\(channel(i))\"\n" }
        guard (try? engine.compileOrchestra(code, source: "staging")) != nil, (try? engine.start()) != nil else { return nil }
        var lines: [Line] = []
        var tables: [(values: UnsafeMutablePointer<Double>, length: Int)] = []
        for (i, line) in chosen.enumerated() {
            guard let number = try? engine.control(channel(i)), number >= 1, number < Double(Int32.max),
                  let table = engine.api.table(Int32(number)), table.length >= minimumLength else { continue }
            lines.append(line)
            tables.append(table)
        }
        return lines.isEmpty ? nil : Computed(engine: engine, lines: lines, tables: tables)
    }

    /// Global code that makes each computed table at its length without computing it, and
    /// writes the number it got to `channel(i)`.
    public static func stub(_ computed: Computed) -> String {
        var code = ""
        for (i, (line, table)) in zip(computed.lines, computed.tables).enumerated() {
            // A power-of-two length keeps its guard point as Csound made it; any other, as given.
            let size = table.length & (table.length - 1) == 0 ? "\(table.length)" : "-\(table.length)"
            code += "\(line.variable) ftgen \(line.number), 0, \(size), -2, 0\n"
            code += "chnset \(line.variable), \"\(channel(i))\"\n"
        }
        return code
    }
}
