import Foundation

/// Orchestra text is checked before the performing Csound parses it. Measured on Csound
/// 6.18.1 (a C program, no Podium involved):
///   - Its preprocessor reads past the end of string input inside an unclosed `/*` comment or
///     an unclosed macro call `$M(`: a SIGSEGV (fread on a null FILE), even with nothing else
///     running. The csound CLI compiles from a file and reports an error instead.
///   - Several errors (`#ifdef` without `#end`, `#define X` without a body, a missing
///     `#include` file…) leave the parser by `longjmp(csound->exitjmp)`. `csoundPerformKsmps`
///     sets that same jump buffer on the audio thread every k-cycle, so while the engine
///     performs such an error jumps into another thread's stack: "longjmp causes uninitialized
///     stack frame", an abort, in most runs.
/// So: `lexical` finds the common cases itself and names the line and column; `inChild` runs
/// Csound's own parser on the text in a child process (`podium check --stdin`) first, where a
/// crash or a longjmp costs nothing, and the live engine only compiles text that parsed there
/// without either.
public enum OrchestraCheck {
    /// Podium's own reading of the text: comments, strings, `{{ }}`, macro calls and `#ifdef`
    /// blocks must close. Throws a compile failure naming the line and column.
    public static func lexical(_ text: String, source: String) throws {
        if let (line, column, message) = firstLexicalProblem(text) {
            throw EngineError.compile(CompileFailure(source: source, diagnostics: ["error: \(message) (line \(line), column \(column))"]))
        }
    }

    static func firstLexicalProblem(_ text: String) -> (Int, Int, String)? {
        let chars = Array(text.unicodeScalars)
        var i = 0, line = 1, lineStart = 0
        var conditionals: [(Int, Int)] = []
        func column(_ at: Int) -> Int { at - lineStart + 1 }
        func at(_ k: Int) -> Unicode.Scalar? { k < chars.count ? chars[k] : nil }
        while i < chars.count {
            let c = chars[i]
            if c == "\n" { line += 1; lineStart = i + 1; i += 1; continue }
            if c == ";" || (c == "/" && at(i + 1) == "/") {
                while i < chars.count, chars[i] != "\n" { i += 1 }
                continue
            }
            if c == "/" && at(i + 1) == "*" {
                let (l, col) = (line, column(i))
                i += 2
                while i < chars.count, !(chars[i] == "*" && at(i + 1) == "/") {
                    if chars[i] == "\n" { line += 1; lineStart = i + 1 }
                    i += 1
                }
                if i >= chars.count { return (l, col, "a comment opened with /* is not closed with */") }
                i += 2
                continue
            }
            if c == "\"" {
                let (l, col) = (line, column(i))
                i += 1
                while i < chars.count, chars[i] != "\"", chars[i] != "\n" { i += chars[i] == "\\" ? 2 : 1 }
                if i >= chars.count || chars[i] == "\n" { return (l, col, "a string opened with \" is not closed on its line") }
                i += 1
                continue
            }
            if c == "{" && at(i + 1) == "{" {
                let (l, col) = (line, column(i))
                i += 2
                while i < chars.count, !(chars[i] == "}" && at(i + 1) == "}") {
                    if chars[i] == "\n" { line += 1; lineStart = i + 1 }
                    i += 1
                }
                if i >= chars.count { return (l, col, "a string opened with {{ is not closed with }}") }
                i += 2
                continue
            }
            if c == "$" {
                let (l, col) = (line, column(i))
                var k = i + 1
                while let s = at(k), s.properties.isAlphabetic || ("0"..."9").contains(s) || s == "_" { k += 1 }
                if k > i + 1, at(k) == "(" {
                    var depth = 0
                    while k < chars.count {
                        if chars[k] == "(" { depth += 1 } else if chars[k] == ")" { depth -= 1; if depth == 0 { break } }
                        if chars[k] == "\n" { line += 1; lineStart = k + 1 }
                        k += 1
                    }
                    if k >= chars.count { return (l, col, "a macro call opened with ( is not closed with )") }
                }
                i = max(k, i + 1)
                continue
            }
            if c == "#" && column(i) == 1 || c == "#" && chars[lineStart..<i].allSatisfy({ $0 == " " || $0 == "\t" }) {
                var k = i + 1
                while let s = at(k), s.properties.isAlphabetic { k += 1 }
                let word = String(String.UnicodeScalarView(chars[(i + 1)..<k]))
                switch word {
                case "ifdef", "ifndef": conditionals.append((line, column(i)))
                case "end", "endif":
                    if conditionals.popLast() == nil { return (line, column(i), "#\(word) without an #ifdef or #ifndef") }
                case "define":
                    // #define NAME[(args)] #body#: the body must close with #.
                    var m = k
                    while m < chars.count, chars[m] != "#" { if chars[m] == "\n" { line += 1; lineStart = m + 1 }; m += 1 }
                    if m >= chars.count { return (line, column(i), "#define without a #body#") }
                    m += 1
                    while m < chars.count, chars[m] != "#" { if chars[m] == "\n" { line += 1; lineStart = m + 1 }; m += 1 }
                    if m >= chars.count { return (line, column(i), "the body of #define is not closed with #") }
                    k = m + 1
                default: break
                }
                i = max(k, i + 1)
                continue
            }
            i += 1
        }
        if let (l, col) = conditionals.last { return (l, col, "#ifdef or #ifndef without #end") }
        return nil
    }

    /// Whether orchestra text uses an opcode (a whole word outside comments).
    public static func mentions(_ text: String, _ opcode: String) -> Bool {
        for raw in TextLines.containing(opcode, in: text) {
            let line = raw.prefix { $0 != ";" }
            var rest = line[...]
            while let r = rest.range(of: opcode) {
                let before = r.lowerBound == line.startIndex ? nil : line[line.index(before: r.lowerBound)]
                let after = r.upperBound == line.endIndex ? nil : line[r.upperBound]
                func word(_ c: Character?) -> Bool { c.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false }
                if !word(before) && !word(after) { return true }
                rest = line[r.upperBound...]
            }
        }
        return false
    }

    /// What Csound's parser did with the text in a child process.
    public enum Verdict: Equatable, Sendable {
        /// Parsed and compiled (or failed with ordinary errors, which the live compile reports),
        /// with what its global code cost when it merged (seconds; nil: not run) and the
        /// instruments Csound compiled from it (nil: not said).
        case parsed(Double?, InstrumentTable?)
        /// Csound left its parser by longjmp: compiling this while the engine performs would abort.
        case fatal([String])
        /// Its global code fails at init: Csound's lines.
        case initError([String])
        /// The parser crashed (the signal's number).
        case crashed(Int32)
        /// The check passed one of its limits (CompileLimits): what it says.
        case overLimit(String)
    }

    /// A table or array of the text whose constant size passes the limits' table budget:
    /// refused before anything allocates it (TableBudget).
    public static func tables(_ text: String, source: String, limits: CompileLimits) throws {
        guard let (line, bytes, code) = TableBudget.firstOver(text, limit: limits.tableBytes) else { return }
        throw EngineError.compile(CompileFailure(source: source, diagnostics: [
            "error: \(code.prefix(80)) (line \(line)) needs \(mebibytes(bytes)), over the budget of \(mebibytes(Double(limits.tableBytes))) for one table or array (a quarter of --compile-memory-limit \(limits.memoryMiB) MiB); not compiled"]))
    }

    /// The highest instrument number a performance accepts. Csound 6.18's `active 0` (the
    /// host's voice count, `podium_voices`, every k-cycle) walks every number up to the highest
    /// defined: measured 1.4 ns a number, so an `instr 999999` alone took 105 % of a 5.3 ms period
    /// (4 k-cycles) and the stream ran in xruns; 9999 costs 14 µs a k-cycle.
    public static var maximumInstrumentNumber: Int { 9999 }

    /// An instrument number over `maximumInstrumentNumber` among those declared: refused, naming it.
    // Thread: NRT (any)
    public static func instrumentNumbers(_ declared: InstrumentTable, source: String) throws {
        guard let high = declared.numbers.max(), high > maximumInstrumentNumber else { return }
        throw EngineError.compile(CompileFailure(source: source, diagnostics: [
            "error: instr \(high): a performance takes instrument numbers 1 to \(maximumInstrumentNumber) (Csound counts the voices by walking every number up to the highest, every k-cycle); give it a lower number or a name; not compiled"]))
    }

    /// Csound 6.18 grows its table of instruments in blocks of 200 numbers, and a compile merged
    /// into a running performance that raises the highest number past one more block corrupts
    /// its memory: measured, an orchestra whose highest was 2 (table of 200) merged `instr 399`
    /// and played on, `instr 400` crashed it as soon as an instrument using a user-defined
    /// opcode ran (SuperDirt's synths use some; a highest of 250: 599 passed, 601 crashed; of
    /// 500: 799 and 801). Such a compile is refused before Csound sees it.
    public static let instrumentBlock = 200

    /// `declared`'s highest number when it reaches past one more block than `current` (what is
    /// compiled: its numbers, a lower bound of Csound's table) holds: refused, naming the number.
    // Thread: NRT (any)
    public static func instrumentGrowth(_ declared: InstrumentTable, current: InstrumentTable, source: String) throws {
        guard let high = declared.numbers.max() else { return }
        let table = ((current.numbers.max() ?? 0) / instrumentBlock + 1) * instrumentBlock
        guard high >= table + instrumentBlock else { return }
        throw EngineError.compile(CompileFailure(source: source, diagnostics: [
            "error: instr \(high): live code may raise the highest instrument number by one block of \(instrumentBlock) at a time, here to \(table + instrumentBlock - 1) (Csound 6.18 corrupts its memory growing its table further in a running performance); give it a lower number or a name, or put it in the orchestra file; not compiled"]))
    }

    static func mebibytes(_ bytes: Double) -> String {
        bytes >= 1_073_741_824 ? String(format: "%.1f GiB", bytes / 1_073_741_824) : String(format: "%.0f MiB", bytes / 1_048_576)
    }

    /// Csound's line when it could not allocate memory (its `memdie`).
    public static func isMemoryFailure(_ line: String) -> Bool { line.contains("memory allocate failure") }

    /// Runs Csound's parser on `text` in a child process, within `limits`, and refuses what would
    /// crash or abort the performing engine or passes a limit. `options` are Csound options the
    /// engine uses (search paths). Returns what its global code costs when it merges (seconds,
    /// measured in the child; nil: not measured), which the performing engine spends on the audio thread.
    @discardableResult
    public static func inChild(_ text: String, source: String, options: [String] = [], limits: CompileLimits = CompileLimits()) throws -> Double? {
        try checkedInChild(text, source: source, options: options, limits: limits).cost
    }

    /// `inChild`, with the instruments Csound compiled from the text in the child (its includes'
    /// too; nil when the child did not say).
    public static func checkedInChild(_ text: String, source: String, options: [String] = [], limits: CompileLimits = CompileLimits()) throws -> (cost: Double?, instruments: InstrumentTable?) {
        switch try childVerdict(text, options: options, limits: limits) {
        case let .parsed(cost, instruments): return (cost, instruments)
        case let .fatal(lines):
            throw EngineError.compile(CompileFailure(source: source, diagnostics: (lines.isEmpty ? ["error: Csound cannot compile this text"] : lines)
                + ["(not compiled: Csound 6.18 would abort the performance on this error)"]))
        case let .initError(lines):
            throw EngineError.compile(CompileFailure(source: source, diagnostics: lines + ["(not compiled: its global code fails when it runs; the previous version goes on)"]))
        case let .crashed(signal):
            throw EngineError.compile(CompileFailure(source: source, diagnostics: [
                "error: Csound crashes on this text when it compiles or runs its global code (signal \(signal), in a child process); not compiled, the performance goes on"]))
        case let .overLimit(message):
            throw EngineError.compile(CompileFailure(source: source, diagnostics: ["error: \(message); not compiled, the performance goes on"]))
        }
    }

    /// The executable that runs `podium check --stdin`: $PODIUM_EXECUTABLE, else `podium`
    /// beside the running program (the CLI itself, the test runner, the benchmark).
    static var checker: String? {
        if let path = ProcessInfo.processInfo.environment["PODIUM_EXECUTABLE"], FileManager.default.isExecutableFile(atPath: path) { return path }
        guard let me = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        let path = (me as NSString).deletingLastPathComponent + "/podium"
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    static func childVerdict(_ text: String, options: [String], limits: CompileLimits) throws -> Verdict {
        guard let checker else {
            throw EngineError.unreadable(path: "podium", reason: "the podium executable that checks orchestra code is not beside this program (set PODIUM_EXECUTABLE)")
        }
        // `--csound-option=VALUE`: Csound's options start with dashes, which would read as options.
        let result: (exit: ChildProcess.Exit, output: [UInt8])
        do {
            result = try WarmChecker.shared.check(.init(cpuSeconds: limits.cpuSeconds, memoryMiB: limits.memoryMiB,
                                                        wallMilliseconds: Int(limits.wallSeconds * 1000),
                                                        options: options, text: text))
        } catch {
            throw EngineError.unreadable(path: checker, reason: "cannot start the orchestra check: \(error.call) failed (\(String(cString: strerror(error.errno))))")
        }
        let lines = String(decoding: result.output, as: UTF8.self).split(separator: "\n").map(String.init)
        switch result.exit {
        case .timedOut:
            return .overLimit(String(format: "checking this code took longer than %g s (--compile-time-limit)", limits.wallSeconds))
        case .signal(SIGXCPU), .signal(SIGKILL):
            // SIGXCPU at the soft CPU limit; SIGKILL at the hard one, a second later.
            return .overLimit("checking this code took more than \(limits.cpuSeconds) s of CPU time (--compile-cpu-limit): its global code runs that long")
        case let .signal(signal): return .crashed(signal)
        case .status(CheckExit.memory):
            return .overLimit("its global code needs more memory than the check's \(limits.memoryMiB) MiB (--compile-memory-limit)"
                              + (lines.first(where: isMemoryFailure).map { ": Csound: \($0.trimmingCharacters(in: .whitespaces))" } ?? ""))
        case .status(CheckExit.parsed), .status(CheckExit.errors):
            let cost = lines.last { $0.hasPrefix(costLine) }.flatMap { Double($0.dropFirst(costLine.count).split(separator: " ").first ?? "") }
            let instruments = lines.last { $0.hasPrefix(instrumentsLine) }.map { InstrumentTable(checkLine: String($0.dropFirst(instrumentsLine.count))) }
            return .parsed(cost.map { $0 / 1e6 }, instruments)
        case .status(CheckExit.fatal): return .fatal(lines)
        case .status(CheckExit.initError): return .initError(lines)
        case let .status(status):
            // The check itself did not run (a usage error, say): nothing is known of the text.
            throw EngineError.compile(CompileFailure(source: "check", diagnostics: [
                "error: the orchestra check could not run (podium check exited \(status)\(lines.isEmpty ? "" : ": " + lines.joined(separator: " "))); not compiled"]))
        }
    }


    /// How the child reports the cost of the text's global code (`… N µs`).
    public static let costLine = "podium-check: global code"
    /// How the child reports the instruments Csound compiled from the text (`… 1 2 | bass lead`).
    public static let instrumentsLine = "podium-check: instruments"

    /// The child's exit codes.
    public enum CheckExit {
        public static let parsed: Int32 = 0
        public static let errors: Int32 = 1
        public static let fatal: Int32 = 2
        /// Compiled, but its global code fails at init (an ftgen that cannot open its file).
        public static let initError: Int32 = 3
        /// Csound could not allocate what the text asks for within the check's memory limit.
        public static let memory: Int32 = 4
    }
}
