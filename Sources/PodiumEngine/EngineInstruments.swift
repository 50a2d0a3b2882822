import Synchronization

// What an engine defines: its instruments and the words its code uses, learnt from what Csound
// compiled (CompiledOrchestra.swift), and the numbers Csound gave named instruments.
extension Engine {
    /// Instruments defined by every orchestra compiled so far (numbers and names): a copy.
    // Thread: any
    public var instruments: InstrumentTable { compiled.withLock { learnPending(&$0); return $0.instruments } }
    /// Whether an orchestra compiled so far defines instrument `number` (a note's check: no copy).
    // Thread: any
    public func defines(number: Double) -> Bool { compiled.withLock { learnPending(&$0); return $0.instruments.defines(number: number) } }
    /// Whether an orchestra compiled so far defines the named instrument.
    // Thread: any
    public func defines(name: String) -> Bool { compiled.withLock { learnPending(&$0); return $0.instruments.defines(name: name) } }
    /// Whether the compiled orchestras use a word (an opcode, `vco2`), as Csound parsed them:
    /// included files count, comments do not.
    // Thread: any
    public func uses(_ identifier: String) -> Bool { compiled.withLock { learnPending(&$0); return $0.identifiers.contains(identifier) } }

    /// Remembers orchestra text that compiled (sessions keep it).
    func keep(_ text: String) { compiled.withLock { $0.orchestraTexts.append(text) } }

    /// Adds what compiled text defines, as Csound parsed it (`CompiledOrchestra`: its includes'
    /// instruments too); its own `instr` lines only when the parse tree could not be read.
    @discardableResult
    func learn(_ text: String, parsed: CompiledOrchestra?) -> CompiledOrchestra {
        let found = parsed ?? CompiledOrchestra.declared(in: text)
        compiled.withLock {
            $0.instruments.add(found)
            $0.identifiers.formUnion(found.identifiers)
        }
        return found
    }

    /// A whole orchestra, before start: learnt in a scratch Csound (`CsoundAPI.compiledOrchestra`)
    /// when first asked, or at start (`podium check`'s child never asks).
    func learn(whole text: String) { compiled.withLock { $0.unlearnt.append(text) } }

    func learnPending(_ c: inout Compiled) {
        while !c.unlearnt.isEmpty {
            let text = c.unlearnt.removeFirst()
            let found = CsoundAPI.compiledOrchestra(text, options: appliedOptions) ?? CompiledOrchestra.declared(in: text)
            c.instruments.add(found)
            c.identifiers.formUnion(found.identifiers)
        }
    }

    /// The number Csound gave a named instrument (nil until a compile that defines it has merged).
    // Thread: NRT
    public func instrumentNumber(named name: String) -> Double? {
        guard defines(name: name) else { return nil }
        let (p, rc) = api.channelPointer("podium.instr.\(name)", type: 0)
        _ = p
        guard rc & 15 == 1, let ptr = api.channelPointer("podium.instr.\(name)", type: rc).0 else { return nil }
        let n = CsoundAPI.load(ptr)
        return n > 0 ? n : nil
    }

    /// Every instrument number the orchestra defines now, named instruments' included (the
    /// numbers Csound gave them), ascending: what a hush releases.
    // Thread: NRT
    public func definedInstrumentNumbers() -> [Int] {
        let table = instruments
        let named = table.names.compactMap { instrumentNumber(named: $0) }.map(Int.init)
        return Set(table.numbers).union(named).sorted()
    }
}
