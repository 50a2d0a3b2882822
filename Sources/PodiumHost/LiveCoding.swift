import CAtomics
import CJack
import Foundation
import PodiumEngine
import PodiumRealtime

// Live coding through the driver: channel pointers (cached per engine generation), hot reload,
// evaluation, score text and long string values.

extension JackDriver {
    /// A string channel's storage and lock (cached), and the current generation.
    // Thread: NRT (a producer's thread)
    func stringChannel(_ name: String) throws -> (UnsafeMutableRawPointer, UnsafeMutablePointer<Int32>?, UInt32) {
        try lock.withLock {
            if let s = stringCache[name] { return (s.0, s.1, generation) }
            let s = try _engine!.stringChannelStorage(name)
            stringCache[name] = s
            journal.name(s.0.assumingMemoryBound(to: Double.self), name)
            return (s.0, s.1, generation)
        }
    }

    /// Current generation and a cached pointer to a declared control channel.
    // Thread: NRT (a producer's thread)
    func channel(_ name: String) throws -> (UnsafeMutablePointer<Double>, UInt32) {
        try lock.withLock {
            if let p = channelCache[name] { return (p, generation) }
            let p = try _engine!.controlChannelPointer(name)
            channelCache[name] = p
            journal.name(p, name)
            return (p, generation)
        }
    }

    public var currentGeneration: UInt32 { lock.withLock { generation } }

    /// Starts the record of the longest callback again: a measurement's window (tests, benches).
    // Thread: NRT (any)
    public func resetLongestCallback() {
        for i in [StatIndex.maxCallbackNs, .maxCallbackCPUNs, .maxCallbackStartNs, .maxCallbackCycle, .maxCallbackNotes, .maxCallbackVoices, .maxCallbackMerged, .maxCallbackSlices, .maxCallbackFrames] {
            podium_counter_store(state.pointee.stats + i.rawValue, 0)
        }
    }

    /// The sampler's instrument number (`podium_sampler`), when the performance has sample banks.
    public var samplerInstrument: Double? { lock.withLock { _engine?.samplerInstrument.map(Double.init) } }

    /// The number of an instrument given by name (resolved once its compile has merged).
    // Thread: NRT (owner, a surface's or the file watcher's thread)
    public func instrumentNumber(named name: String) -> Double? {
        lock.withLock { _engine?.instrumentNumber(named: name) }
    }

    /// Compiles `text` on the caller's thread and waits until the audio thread has merged it:
    /// for the compile queue's thread (`CompileQueue`, which every surface goes through) and for
    /// callers that own their thread (tests, tools). Returns the merge marker (see `Applied.compileMerged`).
    // Thread: NRT (the compile queue's, or a caller that may wait)
    /// Journals what a performer evaluated in the editor (`typed` lines: who, and the text).
    // Thread: NRT (any)
    public func noteTyped(who: String, text: String) { journal.typed(who: who, text: text) }

    public func compileAndWait(_ text: String, source: String) throws -> UInt64 {
        try admitCompile(text, source: source)
        return try compileAdmitted(text, source: source)
    }

    /// What is refused at once, before a compile is queued: text Csound's parser must not see
    /// (OrchestraCheck.lexical), a table over the budget (TableBudget), a compile over the budget.
    // Thread: NRT (any)
    func admitCompile(_ text: String, source: String) throws {
        RecentInputs.note("compile \(source): \(text.prefix(120))")
        // Csound's parser must not crash or longjmp while the engine performs: checked first.
        try OrchestraCheck.lexical(text, source: source)
        try OrchestraCheck.tables(text, source: source, limits: jackOptions.compileLimits)
        let declared = InstrumentTable.declared(in: text)
        try OrchestraCheck.instrumentNumbers(declared, source: source)
        if let current = lock.withLock({ _engine?.instruments }) {
            try OrchestraCheck.instrumentGrowth(declared, current: current, source: source)
        }
        // The sampler's instruments (a performance with sample banks) keep their numbers.
        if let first = samplerInstrument.map(Int.init), let taken = declared.numbers.first(where: { $0 == first || $0 == SamplerOrchestra.orbitsNumber(first: first) }) {
            throw EngineError.compile(CompileFailure(source: source, diagnostics: [
                "error: instr \(taken) is the sampler's (\(taken == first ? SamplerOrchestra.instrument : SamplerOrchestra.orbits): this performance has sample banks); give the instrument another number or a name; not compiled"]))
        }
        guard compileBudget.admit() else { throw EngineError.compile(CompileFailure(source: source, diagnostics: [compileBudget.refusal])) }
    }

    /// An admitted compile: checked in a child process within the compile limits, then parsed
    /// on this thread (errors at once, nothing changes) and merged by the audio thread at its next
    /// k-cycle. Returns once the audio thread has merged it (or after a second without a callback,
    /// e.g. while the server is away), so that events posted afterwards find the new instruments:
    /// the callback applies commands before `csoundPerformKsmps` merges pending compiles.
    // Thread: NRT (the compile queue's, or a caller that may wait)
    func compileAdmitted(_ text: String, source: String) throws -> UInt64 {
        let checked = try OrchestraCheck.checkedInChild(text, source: source, options: searchOptions, limits: jackOptions.compileLimits)
        let cost = checked.cost
        // vco2init run again replaces the tables that playing vco2 voices read (a crash).
        if OrchestraCheck.mentions(text, "vco2init"), lock.withLock({ _engine!.uses("vco2") }) {
            throw EngineError.compile(CompileFailure(source: source, diagnostics: [
                "error: vco2init while vco2 tables exist would replace them under the voices reading them; not compiled (run it once, at the start of the orchestra)"]))
        }
        try makeRoom(for: checked.instruments ?? InstrumentTable.declared(in: text), source: source)
        // Big tables are built off the audio thread (StagedCompile.swift).
        if let marker = try compileStaged(text, source: source) { return marker }
        warnIfHeavy(cost, source: source)
        let marker = try lock.withLock {
            let marker = try _engine!.compileOrchestraAsync(text, source: source)
            liveOrchestras.append(text)
            // Journaled under the lock the supervisor takes to note merges: never stamped late.
            journal.compiled(text, source: source, marker: marker, register: true)
            return marker
        }
        waitForMerge(marker)
        updateInstrumentBound(lock.withLock { _engine! })
        return UInt64(marker)
    }

    /// Grows Csound's table of instruments before a compile whose new named instruments would
    /// not fit in it (Csound 6.18 would store them past it: InstrumentTableGrowth.swift): an
    /// empty `instr N` at the table's size per block, merged first, journaled as the host's code
    /// (a replay grows it alike; a rebuilt engine does the same before the same text).
    // Thread: NRT (the compile queue's, or a caller that may wait)
    func makeRoom(for compiled: InstrumentTable, source: String) throws {
        let engine = lock.withLock { _engine! }
        for number in try engine.room(for: compiled, source: source).steps {
            // Merged in order with what follows even if the wait ends first (a server away).
            _ = try evaluate(Engine.roomInstrument(number), timeout: 2)
        }
    }

    /// What a hush releases: the instruments the orchestra defines (named instruments' numbers
    /// are the ones Csound gave them), stored for the audio thread after each engine and each
    /// compile, with the highest number (journaled with a hush).
    // Thread: NRT (the owner, the supervisor, the compile thread)
    func updateInstrumentBound(_ engine: Engine) {
        let numbers = engine.definedInstrumentNumbers()
        hushListLock.withLock {
            let kept = min(numbers.count, RTLimits.hushCapacity)
            // Fewer numbers first, then the slots: a hush meanwhile reads only slots it may.
            if kept < state.pointee.hushCount.load(ordering: .relaxed) { state.pointee.hushCount.store(kept, ordering: .releasing) }
            for (i, n) in numbers.prefix(kept).enumerated() { podium_counter_store(state.pointee.hushNumbers + i, UInt64(n)) }
            state.pointee.hushCount.store(kept, ordering: .releasing)
            state.pointee.instrumentBound.store(numbers.last ?? 0, ordering: .relaxed)
        }
        if numbers.count > RTLimits.hushCapacity {
            onNotice?("the orchestra defines \(numbers.count) instruments: a hush releases the lowest \(RTLimits.hushCapacity) numbers only")
        }
    }

    /// Csound 6.18 runs a compile's global code (ftgen, GEN routines, vco2init) on the audio
    /// thread when it merges: said before it happens when the child's measure of it is over half
    /// a period (a click is likely), so that the performer knows why.
    // Thread: NRT (the compiling thread)
    func warnIfHeavy(_ cost: Double?, source: String) {
        guard let cost else { return }
        let period = Double(stats.lastPeriod) / max(1, engine.sampleRate)
        guard period > 0, cost > period / 2 else { return }
        onNotice?(String(format: "%@: its global code will run on the audio thread when it merges, about %.1f ms against a period of %.1f ms: expect a click",
                         source, cost * 1000, period * 1000))
    }

    /// Where the orchestra's files are found (for the parser's check in a child process).
    var searchOptions: [String] { Engine.searchOptions(forSource: source) }

    // Thread: NRT (owner, a surface's or the file watcher's thread)
    @discardableResult
    func waitForMerge(_ marker: Double, timeout: Double = 1) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let v = try? engine.control("podium.merged"), v >= marker { return true }
            Thread.sleep(forTimeInterval: 0.0005)
        }
        return false
    }

    /// Runs global code on the audio thread (an async compile that is not part of the
    /// orchestra: not recompiled on rebuilds) and waits until it has merged, up to `timeout`.
    /// For questions only the audio thread can answer (`active`, table values…).
    // Thread: NRT (owner, a surface's or the file watcher's thread)
    public func evaluate(_ code: String, timeout: Double = 1) throws -> Bool {
        let marker = try lock.withLock {
            let marker = try _engine!.compileOrchestraAsync(code, source: "podium", register: false)
            journal.compiled(code, source: "podium", marker: marker, register: false)
            return marker
        }
        return waitForMerge(marker, timeout: timeout)
    }

    /// Score text read by the audio thread at its next k-cycle. Returns its marker (`Applied.scoreRead`).
    // Thread: NRT (owner, a surface's or the file watcher's thread)
    public func readScore(_ text: String) -> UInt64 {
        lock.withLock {
            let marker = _engine!.readScoreAsync(text)
            journal.scored(text, marker: marker)
            return UInt64(marker)
        }
    }

    /// Sets a string channel from the non-real-time side: for text longer than the storage the
    /// engine reserved (`Engine.stringCapacity`), which only Csound can grow. (Shorter text goes
    /// through `CommandProducer.setString`, applied on an exact k-cycle.) It waits for a moment
    /// between two callbacks (at most a period) and sets it there; the journal stamps it with
    /// the next k-cycle, exact unless a callback starts during the copy.
    // Thread: NRT (owner, a surface's or the file watcher's thread)
    public func setString(_ name: String, _ value: String) throws {
        try lock.withLock {
            let deadline = Date().addingTimeInterval(0.05)
            while state.pointee.callbackSeq.load(ordering: .acquiring) & 1 == 1 && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.00005)
            }
            // The first k-cycle of the next callback is the first to see it. (A callback that
            // starts during the copy reads the channel microseconds later, inside Csound.)
            let cycle = state.pointee.cycleNow.load(ordering: .acquiring)
            try _engine!.setString(name, value)
            journal.string(name, value, cycle: cycle)
        }
    }
}
