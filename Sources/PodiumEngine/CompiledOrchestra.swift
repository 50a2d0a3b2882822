import CCsound
import CThreads

/// What an orchestra text defines as Csound's own parser reads it: `#include`d files and macros
/// expanded, comments gone. Csound 6.18's API lists no instruments, and a library of instruments
/// lives in the files an orchestra includes; so the engine asks the parser (`csoundParseOrc`,
/// public in csound.h with its `TREE`) and walks the tree, instead of reading `instr` lines.
public struct CompiledOrchestra: Sendable, Equatable {
    public var numbers: Set<Int> = []
    /// Named instruments, in the order they are defined.
    public var names: [String] = []
    /// Every identifier the code uses (opcodes, variables, labels): `uses("vco2")`.
    public var identifiers: Set<String> = []

    public func uses(_ identifier: String) -> Bool { identifiers.contains(identifier) }

    /// Read from text's own `instr` lines: only when Csound's parse tree cannot be read.
    static func declared(in text: String) -> CompiledOrchestra {
        let t = InstrumentTable.declared(in: text)
        return CompiledOrchestra(numbers: t.numbers, names: t.names)
    }
}

/// The parser's node kinds for what the walk looks for. They are Bison's token numbers of
/// Csound's grammar (csound_orcparse.h, not installed), so they are read once from a parse of
/// known text: `instr 1`, `instr name`, `instr 2, 3`.
struct ParseTreeKinds: Sendable {
    let instr: Int32
    let integer: Int32
    let identifier: Int32
    let list: Int32

    /// Read from a scratch Csound (never the performing one): nil if this Csound's tree does
    /// not look as expected, and then nothing is decided from a tree.
    // Thread: NRT (any; once per process)
    static let calibrated: ParseTreeKinds? = {
        _ = CsoundAPI.initialized  // no signal handlers, no atexit: the host's
        guard let cs = csoundCreate(nil) else { return nil }
        defer { csoundDestroy(cs) }
        csoundSetMessageStringCallback(cs) { _, _, _ in }
        guard let root = CsoundAPI.parser.withLock({ _ in csoundParseOrc(cs, "instr 1\nendin\ninstr podium_probe\nendin\ninstr 2, 3\nendin\n") }) else { return nil }
        defer { csoundDeleteTree(cs, root) }
        var statements: [UnsafeMutablePointer<TREE>] = []
        var node = root.pointee.next
        while let n = node { statements.append(n); node = n.pointee.next }
        guard statements.count == 3, let one = statements[0].pointee.left, let named = statements[1].pointee.left,
              let list = statements[2].pointee.left,
              Set(statements.map(\.pointee.type)).count == 1,
              one.pointee.value?.pointee.value == 1,
              named.pointee.value.map({ String(cString: $0.pointee.lexeme) }) == "podium_probe"
        else { return nil }
        let kinds = ParseTreeKinds(instr: statements[0].pointee.type, integer: one.pointee.type,
                                   identifier: named.pointee.type, list: list.pointee.type)
        return Set([kinds.integer, kinds.identifier, kinds.list]).count == 3 ? kinds : nil
    }()
}

extension CsoundAPI {
    /// Live code, as `csoundCompileOrcAsync` compiles it (Engine/csound_orc_compile.c:
    /// parse, compile the tree, delete it; its global code runs at the merge, inside
    /// csoundPerformKsmps's own guard), with the tree read in between: what the text defines,
    /// its includes' instruments too. Parsing twice is not an option: a parse registers the
    /// text's UDOs again, uncompiled ("cannot find instr 201 (udo …)" at their next init).
    ///
    /// Csound's own call guards the parse with a setjmp; this one cannot (the jmp_buf is in
    /// csoundCore.h, which hosts must not include), so it is only for text whose preprocessing
    /// cannot longjmp: live code after the child's check refused what would (`OrchestraCheck
    /// .inChild`: an unmatched `#ifdef`, a missing `#include`), text that compiled before
    /// (a replay). Runs at SCHED_FIFO 1, as `compileOrcAsync` and for its reason.
    /// Returns Csound's code and, when it parsed, what the text defines (nil: the tree's kinds
    /// could not be read, `ParseTreeKinds`).
    // Thread: NRT (engine owner)
    func compileParsedAsync(_ text: String) -> (code: Int32, found: CompiledOrchestra?) {
        let saved = podium_fifo_begin()
        defer { podium_fifo_end(saved) }
        let kinds = ParseTreeKinds.calibrated  // (made with the lock, before it is taken here)
        return CsoundAPI.parser.withLock { _ in
            guard let root = csoundParseOrc(raw, text) else { return (CSOUND_ERROR.rawValue, nil) }
            defer { csoundDeleteTree(raw, root) }
            let found = kinds.map { CsoundAPI.walk(root, kinds: $0) }
            return (csoundCompileTreeAsync(raw, root), found)
        }
    }

    /// What a whole orchestra defines, learnt in a scratch Csound (same options, never started,
    /// destroyed at once): compiled there first, guarded, so that its parse cannot longjmp; a
    /// first compile runs no global code. Nil when it does not compile there.
    // Thread: NRT (any)
    static func compiledOrchestra(_ text: String, options: [String]) -> CompiledOrchestra? {
        _ = CsoundAPI.initialized
        guard let kinds = ParseTreeKinds.calibrated, let cs = csoundCreate(nil) else { return nil }
        defer { csoundDestroy(cs) }
        csoundSetMessageStringCallback(cs) { _, _, _ in }
        for option in options { _ = csoundSetOption(cs, option) }
        guard let root = CsoundAPI.parser.withLock({ _ in csoundCompileOrc(cs, text) == 0 ? csoundParseOrc(cs, text) : nil }) else { return nil }
        defer { csoundDeleteTree(cs, root) }
        return walk(root, kinds: kinds)
    }

    static func walk(_ root: UnsafeMutablePointer<TREE>, kinds: ParseTreeKinds) -> CompiledOrchestra {
        var result = CompiledOrchestra()
        // Iterative: a long orchestra is a long `next` chain.
        var stack: [UnsafeMutablePointer<TREE>] = [root]
        while let node = stack.popLast() {
            let t = node.pointee
            // Opcodes are the lexer's own kinds (T_OPCODE…), variables identifiers: every word
            // counts, not strings (their lexeme keeps its quotes) or numbers.
            if let token = t.value, let lexeme = token.pointee.lexeme, isWord(lexeme) {
                result.identifiers.insert(String(cString: lexeme))
            }
            if t.type == kinds.instr, let target = t.left { addInstruments(target, kinds: kinds, to: &result) }
            for child in [t.left, t.right, t.next] { if let child { stack.append(child) } }
        }
        return result
    }

    private static func isWord(_ s: UnsafePointer<CChar>) -> Bool {
        func letter(_ c: UInt8) -> Bool { (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 95 }
        let first = UInt8(bitPattern: s[0])
        return letter(first)
    }

    /// `instr 1`, `instr name` (`+name`), `instr a, 2, b`: as csound_orc_compile.c reads them.
    private static func addInstruments(_ target: UnsafeMutablePointer<TREE>, kinds: ParseTreeKinds, to result: inout CompiledOrchestra) {
        func add(_ item: UnsafeMutablePointer<TREE>) {
            guard let token = item.pointee.value else { return }
            if item.pointee.type == kinds.integer {
                result.numbers.insert(Int(token.pointee.value))
            } else if item.pointee.type == kinds.identifier, let lexeme = token.pointee.lexeme {
                let name = String(cString: lexeme)
                if !result.names.contains(name) { result.names.append(name) }
            }
        }
        guard target.pointee.type == kinds.list else { return add(target) }
        var item: UnsafeMutablePointer<TREE>? = target
        while let i = item {
            add(i.pointee.left ?? i)
            item = i.pointee.right
        }
    }
}
