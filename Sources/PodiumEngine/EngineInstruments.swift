import Synchronization

// What an engine defines: its instruments and the words its code uses, learnt from what Csound
// compiled (CompiledOrchestra.swift), and the numbers Csound gave named instruments.
extension Engine {
    /// Instruments defined by every orchestra compiled so far (numbers and names): a copy.
    // Thread: any
    public var instruments: InstrumentTable { compiled.withLock { learnPending(&$0); return $0.instruments } }
    /// The instruments learnt so far, without learning what compiled since (each text a compile
    /// in a scratch Csound): for an answer that must be quick (`/podium/status` during a flood).
    // Thread: any
    public var instrumentsLearnt: InstrumentTable { compiled.withLock { $0.instruments } }
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
            // A number the performer defines is theirs, no longer an empty instrument of the host's.
            $0.roomInstruments.subtract(found.numbers)
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
        return exportedNumber(name)
    }

    /// The number a `podium.instr.NAME` channel holds (nil: none yet).
    // Thread: NRT
    func exportedNumber(_ name: String) -> Double? {
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

    /// What Csound's table of instruments holds now: the numbered instruments, and the numbers
    /// Csound gave named ones, the host's own included (`podium_voices`, `podium_score_marker`),
    /// which a live compile's new names must not be given (InstrumentTableGrowth).
    // Thread: NRT
    public func heldInstrumentNumbers() -> (numbered: Set<Int>, named: [Int]) {
        let table = instruments
        let host = [(try? control(Engine.voicesInstrumentChannel)).flatMap { $0 > 0 ? $0 : nil }, exportedNumber(Engine.markerName)]
        let named = (table.names.compactMap { instrumentNumber(named: $0) } + host.compactMap { $0 }).map(Int.init)
        return (table.numbers, named)
    }

    /// What `compiled` needs of Csound's table of instruments before it merges: the empty
    /// instruments that grow the table by a block each (its new named instruments fit), and the
    /// anchor the compile starts with (InstrumentTableGrowth.swift says why). Refused past the
    /// highest number a performance takes.
    // Thread: NRT (the compiling thread)
    public func room(for compiled: InstrumentTable, source: String) throws -> InstrumentTableGrowth.Room {
        let held = heldInstrumentNumbers()
        let (grown, placeholders) = self.compiled.withLock { ($0.tableGrown, $0.roomInstruments) }
        let occupied = held.numbered.union(held.named)
        let size = InstrumentTableGrowth.tableSize(numbered: held.numbered.union(placeholders), named: held.named, known: grown)
        // The names Csound has numbered: the orchestra's, and the host's once compiled.
        var names = Set(instruments.names)
        if exportedNumber(Engine.markerName) != nil { names.insert(Engine.markerName) }
        if let voices = try? control(Engine.voicesInstrumentChannel), voices > 0 { names.insert("podium_voices") }
        guard let room = InstrumentTableGrowth.room(for: compiled, names: names, occupied: occupied, placeholders: placeholders, size: size,
                                                    namedPastFirstBlock: held.named.contains { $0 >= InstrumentTableGrowth.block }) else {
            throw EngineError.compile(CompileFailure(source: source, diagnostics: [
                "error: this code names \(compiled.names.filter { !names.contains($0) }.count) new instruments, more than a performance's \(OrchestraCheck.maximumInstrumentNumber) instrument numbers hold beside the \(occupied.count) taken; not compiled"]))
        }
        return room
    }

    /// Empty instruments of the host's at every number up to `top` that no instrument holds (the
    /// orchestra's named ones included), in one compile.
    // Thread: NRT (owner)
    func holdNumbers(upTo top: Int) throws {
        let held = heldInstrumentNumbers()
        let taken = held.numbered.union(held.named)
        let free = (1...max(1, top)).filter { !taken.contains($0) }
        guard !free.isEmpty else { return }
        _ = try checked(source: "podium host code") { api.compileOrc(free.map(Engine.roomInstrument).joined()) }
        for n in free { noteRoomInstrument(n) }
    }

    /// The first number from `start` on that nothing holds (the host's names and empty
    /// instruments included), with its orbits' number (`SamplerOrchestra.orbitsNumber`) free too:
    /// the sampler's.
    // Thread: NRT (owner)
    func freeSamplerPair(from start: Int) -> Int {
        let held = heldInstrumentNumbers()
        let taken = held.numbered.union(held.named).union(compiled.withLock { $0.roomInstruments })
        var n = start
        while taken.contains(n) || taken.contains(SamplerOrchestra.orbitsNumber(first: n)) { n += 1 }
        return n
    }

    /// An empty instrument that grows Csound's table of instruments to `number` + one block.
    public static func roomInstrument(_ number: Int) -> String { "instr \(number)\nendin\n" }

    /// Notes an empty instrument of the host's (`roomInstrument`) compiled at `number`.
    // Thread: NRT (the compiling thread)
    func noteRoomInstrument(_ number: Int) {
        compiled.withLock {
            $0.tableGrown = max($0.tableGrown, (number / InstrumentTableGrowth.block + 1) * InstrumentTableGrowth.block)
            $0.roomInstruments.insert(number)
        }
    }

    /// The anchor a compile of what `defined` holds starts with (nil: none needed), noted as the
    /// host's; never a number the compile defines (`instr N` twice in one compile is an error).
    // Thread: NRT (the compiling thread)
    func anchor(for defined: InstrumentTable) -> Int? {
        guard let anchor = try? room(for: defined, source: "").anchor else { return nil }
        noteRoomInstrument(anchor)
        return anchor
    }

    /// What `text` defines as Csound compiles it: its `instr` lines, and its includes' (learnt in
    /// a scratch Csound) when it includes files.
    // Thread: NRT (any)
    public func definedInstruments(in text: String) -> InstrumentTable { definedInstruments(in: text, included: included(text)) }

    /// What `text` compiles to in a scratch Csound when it includes files (nil otherwise).
    // Thread: NRT (any)
    func included(_ text: String) -> CompiledOrchestra? {
        OrchestraCheck.mentions(text, "#include") ? CsoundAPI.compiledOrchestra(text, options: appliedOptions) : nil
    }

    /// `text`'s `instr` lines with what its includes define (`included`).
    func definedInstruments(in text: String, included: CompiledOrchestra?) -> InstrumentTable {
        let declared = InstrumentTable.declared(in: text)
        guard let included else { return declared }
        var table = InstrumentTable(included)
        table.add(CompiledOrchestra(numbers: declared.numbers, names: declared.names))
        return table
    }
}
