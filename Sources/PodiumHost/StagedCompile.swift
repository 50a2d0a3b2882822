import CAtomics
import CJack
import Foundation
import PodiumEngine
import PodiumRealtime

// Live code whose global code builds big tables (ftgen of a computing GEN routine): the tables
// are computed off the audio thread and copied in by slices; the rest merges after them
// (TableStaging explains the steps). A global `giX ftgen` of a computing GEN routine of
// `TableStaging.minimumLength` (4096) points or more is staged: the stub merges the table zeroed
// at its length with no work (`LargeAllocations` keeps glibc's blocks of 256 KiB and more on
// `mmap`, so the stub is fresh zero pages rather than an 8 MB clear on the audio thread), and the
// callback copies the values in by slices (`Command.tableFill`, two 16k-value slices a callback).
// An `f` statement to apply now of such a GEN routine and size goes the same way (up to 2^20
// points). A sample's tables take the same path from values decoded on `podium-samples`
// (`stageValues`). Journaled as `eval` (the stub), `stage` and `compile … staged` lines (a
// sample's `stage` lines name its `SampleDescriptor`: path, content hash, rate); a replay
// computes the tables again (seed 1), or decodes the sample again, and copies them at the same
// k-cycles.

extension JackDriver {
    /// Compiles `text` with its big tables built off the audio thread; returns the marker of
    /// the compile that merged the rest. Nil when nothing in it can be staged (the caller
    /// compiles it as usual).
    // Thread: NRT (owner, a surface's or the file watcher's thread)
    func compileStaged(_ text: String, source: String) throws -> UInt64? {
        guard jackOptions.stageTables, state.pointee.callbacksMayRun.load(ordering: .acquiring) else { return nil }
        let candidates = TableStaging.candidates(text)
        guard !candidates.isEmpty else { return nil }
        return try stagingLock.withLock { () throws -> UInt64? in
            guard let computed = computeTables(text, candidates) else { return nil }
            try copyIn(computed, from: text, source: source)
            // 3. The rest of the text, whose instruments read the finished tables.
            let rest = TableStaging.remainder(text, staged: computed.lines.map(\.index))
            let marker = try lock.withLock {
                let marker = try _engine!.compileOrchestraAsync(rest, source: source)
                liveOrchestras.append(text)  // a rebuilt engine compiles it whole, before it performs
                journal.compiled(text, source: source, marker: marker, register: true, staged: true)
                return marker
            }
            waitForMerge(marker)
            updateInstrumentBound(lock.withLock { _engine! })
            return UInt64(marker)
        }
    }

    /// An f statement from a surface (`f N 0 SIZE GEN …`, to apply now) whose GEN routine
    /// computes at least `TableStaging.minimumLength` points: built off the audio thread as an
    /// ftgen of live code is. False when it cannot be staged (the caller posts it to the audio
    /// thread). A table that exists with another length is refused, as on the audio thread
    /// (Csound would free it under the notes reading it).
    // Thread: NRT (a surface's thread)
    public func stageTableStatement(_ fields: [Double]) throws -> Bool {
        guard jackOptions.stageTables, state.pointee.callbacksMayRun.load(ordering: .acquiring), fields.count >= 5,
              fields[2] >= Double(TableStaging.minimumLength) else { return false }
        let number = InstrumentTable.format(fields[0])
        let text = "giPodiumF ftgen \(number), 0, " + fields[2...].map(InstrumentTable.format).joined(separator: ", ") + "\n"
        let candidates = TableStaging.candidates(text)
        guard !candidates.isEmpty else { return false }
        return try stagingLock.withLock { () throws -> Bool in
            guard let computed = computeTables(text, candidates) else { return false }
            let probe = TableStaging.channel(0)
            guard try evaluate("iPodiumLength = -1\nif ftexists(\(number)) == 1 then\n iPodiumLength = ftlen(\(number))\nendif\nchnset iPodiumLength, \"\(probe)\"\n") else {
                throw InputError("f \(number): the audio thread did not answer (is the JACK server there?)")
            }
            let existing = try engine.control(probe)
            if existing >= 0 && existing != Double(computed.tables[0].length) {
                throw InputError("f \(number) refused: table \(number) exists with \(InstrumentTable.format(existing)) points, and Csound would free it under the notes reading it; use another table number or the same size")
            }
            try copyIn(computed, from: text, source: "f \(number)")
            return true
        }
    }

    /// Step 0: the tables computed by an engine of their own, at the performing engine's rate.
    // Thread: NRT (the staging thread, under `stagingLock`)
    private func computeTables(_ text: String, _ candidates: [TableStaging.Line]) -> TableStaging.Computed? {
        let (sampleRate, ksmps) = lock.withLock { (_engine!.sampleRate, _engine!.ksmps) }
        return TableStaging.compute(text, candidates: candidates, sampleRate: sampleRate, ksmps: ksmps, searchOptions: searchOptions)
    }

    /// Steps 1 and 2 of staging (`TableStaging`): the stub merges, then the audio thread copies
    /// the computed values in; returns once it has taken every slice.
    // Thread: NRT (the staging thread, under `stagingLock`)
    private func copyIn(_ computed: TableStaging.Computed, from text: String, source: String) throws {
        _ = try copyIn(computed.tables, stub: TableStaging.stub(computed), named: computed.tables.indices.map { (text, $0) }, source: source)
        // The engine that computed the tables lives until the callback has taken every slice.
        withExtendedLifetime(computed) {}
    }

    /// Tables whose values were made off the audio thread (samples' channels, decoded and
    /// resampled): made at their lengths by one stub, then copied in by the audio thread a
    /// slice at a time, as staged tables are. `named` says what each is in the journal: a text
    /// and the index of the table it makes (a replay makes the same values from it:
    /// `SampleDescriptor`). At most `TableStaging.maximumTables` at once. Returns the tables'
    /// numbers; the values may be freed when it returns.
    // Thread: NRT (the sample loader)
    public func stageValues(_ tables: [(values: UnsafeMutablePointer<Double>, length: Int)], named: [(text: String, index: Int)], source: String) throws -> [Int32] {
        guard state.pointee.callbacksMayRun.load(ordering: .acquiring) else {
            throw EngineError.compile(CompileFailure(source: source, diagnostics: ["error: the audio thread is not running (is the JACK server there?); not loaded"]))
        }
        precondition(tables.count <= TableStaging.maximumTables)
        var stub = ""
        for (i, t) in tables.enumerated() {
            stub += "giPodiumValues ftgen 0, 0, -\(t.length), -2, 0\nchnset giPodiumValues, \"\(TableStaging.channel(i))\"\n"
        }
        return try stagingLock.withLock { try copyIn(tables, stub: stub, named: named, source: source) }
    }

    /// Makes the tables by `stub` (which publishes their numbers on `TableStaging.channel(i)`),
    /// then has the audio thread copy each table's values in; returns their numbers once it has
    /// taken every slice.
    // Thread: NRT (the staging thread, under `stagingLock`)
    private func copyIn(_ tables: [(values: UnsafeMutablePointer<Double>, length: Int)], stub: String,
                        named: [(text: String, index: Int)], source: String) throws -> [Int32] {
        // 1. Each table made at its length, zeroed, without computing: its number published.
        let stubMarker = try lock.withLock {
            let marker = try _engine!.compileOrchestraAsync(stub, source: source, register: false)
            journal.compiled(stub, source: "podium", marker: marker, register: false)
            return marker
        }
        guard waitForMerge(stubMarker, timeout: 10) else {
            throw EngineError.compile(CompileFailure(source: source, diagnostics: ["error: the audio thread did not take the tables in (is the JACK server there?); not compiled"]))
        }
        // 2. The values copied in by the audio thread, a slice at a time.
        let producer = stagingProducer ?? makeProducer()
        stagingProducer = producer
        let first = podium_counter_load(state.pointee.stats + StatIndex.stagedSlices.rawValue)
        var slices: UInt64 = 0
        var numbers: [Int32] = []
        for (i, table) in tables.enumerated() {
            let number = try engine.control(TableStaging.channel(i))
            guard number >= 1, number < Double(Int32.max) else {
                throw EngineError.compile(CompileFailure(source: source, diagnostics: ["error: the audio thread gave table number \(number) for a table built off it; not compiled"]))
            }
            numbers.append(Int32(number))
            stagingTag += 1
            journal.staging(named[i].text, table: named[i].index, tag: stagingTag)
            var offset = 0
            while offset < table.length + 1 {
                let count = min(TableStaging.sliceLength, table.length + 1 - offset)
                try post(.tableFill(table: Int32(number), values: table.values, offset: offset, count: count, tag: stagingTag), through: producer)
                offset += count
                slices += 1
            }
        }
        let refused = stats.refusedTables
        let deadline = ContinuousClock.now + .seconds(10)
        while podium_counter_load_acquire(state.pointee.stats + StatIndex.stagedSlices.rawValue) &- first < slices {
            guard ContinuousClock.now < deadline else {
                throw EngineError.compile(CompileFailure(source: source, diagnostics: ["error: the audio thread did not copy the tables in within 10 s; not compiled"]))
            }
            Thread.sleep(forTimeInterval: 0.002)
        }
        guard stats.refusedTables == refused else {
            throw EngineError.compile(CompileFailure(source: source, diagnostics: ["error: a table built for this code was gone before it was copied in; not compiled"]))
        }
        return numbers
    }

    /// Posts a driver-made command, waiting for room in the ring (the callback takes two
    /// slices a period).
    // Thread: NRT (the staging thread)
    private func post(_ command: Command, through producer: CommandProducer) throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while try producer.post(command) == nil {
            guard ContinuousClock.now < deadline else {
                throw EngineError.compile(CompileFailure(source: "staging", diagnostics: ["error: the audio thread took no table slices for 10 s; not compiled"]))
            }
            Thread.sleep(forTimeInterval: 0.002)
        }
    }
}
