import CAtomics
import CJack
import CThreads
import Foundation
import PodiumEngine
import PodiumRealtime
import Synchronization

// The supervisor thread (`podium-supervisor`, NRT): drains what the audio thread applied into
// the journal and the console, rebuilds the engine when the period stops dividing by ksmps,
// and reconnects when the server goes away.

extension JackDriver {
    // Thread: NRT (supervisor)
    func supervise() {
        // Below the JACK threads (which run without real-time priority under jackd -r):
        // console floods and journaling wait, the audio does not.
        _ = podium_nice_current_thread(5)
        var lastSync = ContinuousClock.now
        while running.load(ordering: .acquiring) {
            // Everything the audio thread applied before this cycle is in the applied ring now.
            let through = state.pointee.cycleNow.load(ordering: .acquiring) - 1
            drainSideRings()
            if ContinuousClock.now - lastSync >= .seconds(1), through >= 0 {
                lastSync = ContinuousClock.now
                journal.sync(through: through)
                refreshLinkLatency()
                refreshMIDIClockOffset()
            }
            if state.pointee.serverGone.load(ordering: .acquiring) { reconnect() }
            let misaligned = state.pointee.misalignedPeriod.load(ordering: .acquiring)
            if misaligned != 0 { realign(period: misaligned) }
            restartIfRequested()
            releaseStalledTransportStart()
            ensureMasterRolls()
            connectLatePlayback()
            Thread.sleep(forTimeInterval: 0.01)
        }
        drainSideRings()
        restartIfRequested()  // a request that came as it stopped still gets its answer
        supervisorDone.signal()
    }

    /// Outputs the start or a reconnection could not connect (no playback port yet) are connected
    /// to the first playback ports that appear, looked for every 100 ms; an output the performer
    /// connected meanwhile ends the wait (their routing is kept).
    // Thread: NRT (supervisor)
    func connectLatePlayback() {
        let pairs: [(String, String)]? = lock.withLock {
            guard awaitingPlayback, let api else { return nil }
            guard ContinuousClock.now - lastPlaybackLook >= .milliseconds(100) else { return nil }
            lastPlaybackLook = .now
            if outPorts.contains(where: api.isConnected) { awaitingPlayback = false; return nil }
            let playback = api.physicalPorts(input: true)
            guard !playback.isEmpty else { return nil }
            awaitingPlayback = false
            return outPorts.enumerated().map { (api.portName($1), playback[$0 % playback.count]) }
        }
        guard let pairs else { return }
        var made: [String] = []
        for (from, to) in pairs {
            let failure: Error?? = lock.withLock {
                guard let api else { return .some(nil) }
                do { try api.connect(from, to); return .none } catch { return .some(error) }
            }
            switch failure {
            case .none: made.append("\(from) → \(to)")
            case .some(let error?): onNotice?("could not connect \(from) to \(to): \(error)")
            case .some(nil): return  // the server went away meanwhile: the reconnection connects
            }
        }
        guard !made.isEmpty else { return }
        onNotice?("playback ports appeared: connected \(made.joined(separator: ", "))")
        // On PipeWire the client now moves to the sink's driver, whose transport is its own.
        if jackOptions.transport == .master {
            lock.withLock { masterStartUntil = .now + .seconds(2); masterLastStart = .now - .seconds(1) }
        }
    }

    /// Master transport: a start JACK holds in `Starting` for a client that cannot answer is
    /// released by a locate to the same frame (TransportStartWatch.swift), whoever asked for it.
    // Thread: NRT (supervisor)
    func releaseStalledTransportStart() {
        guard jackOptions.transport == .master else { return }
        let frame: UInt32?? = lock.withLock { api.map { $0.transportStartingFrame } }
        guard let frame else { return }  // no client (reconnecting)
        guard let n = transportStartWatch.relocation(starting: frame != nil, now: .now), let frame else { return }
        // Asked again just before the locate: a transport that began to roll meanwhile (a loaded
        // machine can delay this thread between the two) must not be sent back to that frame.
        let located: Bool = lock.withLock {
            guard let api, api.transportStartingFrame == frame else { return false }
            api.locateTransport(frame)
            return true
        }
        guard located else { return }
        if n == 1 {
            onNotice?("JACK transport: the start waited for a client that cannot answer JACK's sync (one opened while it started); located at frame \(frame) again so that it rolls")
        }
    }

    /// Master transport: a start that left the transport stopped is made again, for two seconds
    /// after it (every 100 ms). On PipeWire each driver has its own transport, and a client moves
    /// to the sink's driver a moment after its ports connect: a start made before the move
    /// started the old driver's. A stop afterwards (Podium's or another client's) is left alone.
    // Thread: NRT (supervisor)
    func ensureMasterRolls() {
        guard jackOptions.transport == .master else { return }
        lock.withLock {
            guard let until = masterStartUntil, let api else { return }
            guard ContinuousClock.now < until else { masterStartUntil = nil; return }
            guard api.transportIsStopped else { return }
            guard ContinuousClock.now - masterLastStart >= .milliseconds(100) else { return }
            api.startTransport()
            masterLastStart = .now
        }
    }

    /// MIDI clock out: ticks go out the output's audio latency less midi_out's after their beat's
    /// frame, so a device's beat meets Podium's sound (MIDIClockOut.swift).
    // Thread: NRT (supervisor)
    func refreshMIDIClockOffset() {
        guard jackOptions.midiClock == .out else { return }
        let frames: Int64? = lock.withLock {
            guard let api, let midiOutPort else { return nil }
            let audio = outPorts.map(api.playbackLatency).max() ?? 0
            return Int64(audio - api.playbackLatency(midiOutPort))
        }
        if let frames { state.pointee.midiClockOffset.store(frames, ordering: .relaxed) }
    }

    // Thread: NRT (supervisor; the owner once it has stopped)
    func drainSideRings() {
        reportOutputGuard()
        reportLoadGuard()
        while let a = appliedRing.pop() {
            if a.kind == .midi { noteMIDI(a.command) }
            if a.kind == .hush { onHush?() }
            if a.kind == .noteRefused {
                onRefused?(a)
                continue
            }
            if a.kind == .tableRefused {
                let p = a.command.fields
                onNotice?("f \(InputCheck.describe(p[0])) refused: table \(InputCheck.describe(p[0])) exists with \(InputCheck.describe(a.command.value)) points, and Csound would free it under the notes reading it; use another table number or the same size")
                continue
            }
            if a.kind == .compileMerged || a.kind == .scoreRead {
                lock.withLock { journal.applied(a) }
            } else {
                journal.applied(a)
            }
            onApplied?(a)
        }
        journal.flush()
        if let lines = lock.withLock({ _engine?.console.drain() }) { for l in lines { onConsole?(l) } }
    }

    /// Says when the DSP load guard refused notes: at most once in 5 seconds, with the count.
    // Thread: NRT (supervisor)
    func reportLoadGuard() {
        let refused = podium_counter_load(state.pointee.stats + StatIndex.loadLimited.rawValue)
        guard refused > reportedLoadLimited, ContinuousClock.now - lastLoadNotice > .seconds(5) else { return }
        let limit = jackOptions.loadLimit.map { String(format: "%.0f %%", $0 * 100) } ?? "?"
        onNotice?("DSP load over \(limit) of the period: new notes wait for others to end (\(refused - reportedLoadLimited) refused; --load-limit changes the limit)")
        reportedLoadLimited = refused
        lastLoadNotice = .now
    }

    /// Says once that the output guard silenced a non-finite k-cycle, and once that it clipped.
    // Thread: NRT (supervisor)
    func reportOutputGuard() {
        if state.pointee.sawNonFinite.exchange(false, ordering: .relaxed), !reportedNonFinite {
            reportedNonFinite = true
            onNotice?("the orchestra computed a NaN or an infinite sample: each such k-cycle is silenced (counted in :status)")
        }
        if state.pointee.sawClipping.exchange(false, ordering: .relaxed), !reportedClipping {
            reportedClipping = true
            let limit = jackOptions.outputLimit.map { String(format: "%.1f dBFS", 20 * log10($0)) } ?? "none"
            onNotice?("output clipped at the safety limit (\(limit)); clipped samples are counted in :status")
        }
    }

    /// After a fatal signal: waits (at most half a second) for the supervisor to journal what
    /// the audio thread applied, then notes that the journal is complete through the last
    /// k-cycle. Returns false when the supervisor did not drain (the journal then claims nothing).
    // Thread: the crash guard's
    public func journalAfterCrash() -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(500)
        while state.pointee.applied.hasRecord {
            if ContinuousClock.now > deadline { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        Thread.sleep(forTimeInterval: 0.02)  // the drain that emptied it hands its lines to the journal
        journal.sync(through: state.pointee.cycleNow.load(ordering: .acquiring) - 1)
        return true
    }

    /// The period no longer divides by ksmps: rebuild the engine at an aligned ksmps,
    /// recompiling the orchestra and restoring channel values.
    // Thread: NRT (supervisor)
    func realign(period: Int) {
        let oldKsmps = lock.withLock { _engine!.ksmps }
        let ksmps = Alignment.realign(ksmps: oldKsmps, newPeriod: period)
        onNotice?("JACK period is now \(period), which ksmps \(oldKsmps) does not divide: restarting the engine at ksmps \(ksmps)")
        do {
            try rebuild(sampleRate: Int(lock.withLock { _engine!.sampleRate }), ksmps: ksmps)
            onNotice?("engine restarted at ksmps \(ksmps); channel values restored")
        } catch {
            onNotice?("engine restart failed: \(error); output stays silent")
        }
    }

    /// The server went away: close the client here (never in JACK's shutdown callback),
    /// keep the engine, and poll until a server is back.
    // Thread: NRT (supervisor)
    func reconnect() {
        onNotice?("JACK server went away: the engine keeps its state; waiting for a server")
        lock.withLock {
            if api != nil { parkCallback() }
            api?.close()
            api = nil
            inPorts = []
            outPorts = []
        }
        // Closed: no callback runs now, so handovers swap directly until the next activation.
        state.pointee.callbacksMayRun.store(false, ordering: .releasing)
        state.pointee.client = nil
        state.pointee.midiPort = nil
        state.pointee.midiOutPort = nil
        state.pointee.inCount = 0
        state.pointee.outCount = 0
        while running.load(ordering: .acquiring) {
            Thread.sleep(forTimeInterval: jackOptions.reconnectInterval)
            drainSideRings()
            guard let api = try? JackAPI.open(name: jackOptions.clientName, server: jackOptions.serverName) else { continue }
            do {
                let engine = lock.withLock { _engine! }
                let sr = api.sampleRate, period = api.bufferSize
                if sr != Int(engine.sampleRate) || period % engine.ksmps != 0 {
                    try rebuild(sampleRate: sr, ksmps: Alignment.realign(ksmps: engine.ksmps, newPeriod: period))
                }
                try attach(api)
                onNotice?("reconnected to JACK: \(description)")
                return
            } catch {
                onNotice?("reconnecting to JACK failed: \(error); trying again")
                api.close()
            }
        }
    }
}
