import Foundation
import PodiumEngine
import PodiumHost
import PodiumPatterns
import PodiumSamples

// A pattern's events that name a sample (no instrument of that name): notes of the sampler
// (SampleNotes), on the same beat-stamped path as instruments' notes. An event whose file is
// still loading waits, and is posted once it is ready if its onset is still ahead.
extension PatternPlayer {
    struct WaitingSample {
        var event: Event<ControlMap>
        var choice: SampleLibrary.Choice
        var slot: String
        var version: Int
    }

    /// Events that may wait for their file at once (more are counted as late).
    static let maximumWaiting = 256

    // Thread: podium-loops
    func postSample(_ e: Event<ControlMap>, sound: (name: String, index: Int), samples: SampleStore, slot: String, version: Int,
                    producer: CommandProducer, quantum: Double, tempo: Double) -> (sent: Bool, problem: String?, id: UInt64?) {
        let n = e.value["n"]?.number ?? 0
        let index = sound.index &+ (n.isFinite ? Int(flooring: n) : 0)
        let (lookup, choice) = samples.lookup(sound.name, index: index, bank: e.value["bank"]?.string)
        switch lookup {
        case .unknown:
            return (false, once(version, "\(slot): no instrument \"\(sound.name)\" in the orchestra, and no sample of that name (:samples lists the banks' names)"), nil)
        case .failed:
            return (false, nil, nil)
        case .loading:
            if waiting.count < PatternPlayer.maximumWaiting, let choice {
                waiting.append(WaitingSample(event: e, choice: choice, slot: slot, version: version))
            } else if let choice {
                late(WaitingSample(event: e, choice: choice, slot: slot, version: version))
            }
            return (false, nil, nil)
        case let .ready(loaded):
            return postLoaded(e, loaded, slot: slot, version: version, producer: producer, quantum: quantum, tempo: tempo)
        }
    }

    /// An event not played: its file was still loading at its onset. Counted by the store (which
    /// tells the terminal once per file), and the slot's warning for the page.
    // Thread: podium-loops
    private func late(_ w: WaitingSample) {
        samples?.countLate(w.choice)
        notePlayWarning("\(w.choice.sound):\(w.choice.index) was still loading at its onset (it plays once loaded)", slot: w.slot)
    }

    /// Waiting events whose file is ready: posted if their onset is still ahead, else counted.
    // Thread: podium-loops
    func postWaiting(producer: CommandProducer, nowBeat: Double, tempo: Double, quantum: Double) {
        guard let samples else { waiting.removeAll(); return }
        var still: [WaitingSample] = []
        var problems: [String] = []
        for w in waiting {
            let beat = w.event.wholeStart.double * quantum
            let (lookup, _) = samples.lookup(w.choice.sound, index: w.choice.index, bank: w.choice.bank)
            switch lookup {
            case let .ready(loaded):
                if beat > nowBeat {
                    if let p = postLoaded(w.event, loaded, slot: w.slot, version: w.version, producer: producer, quantum: quantum, tempo: tempo).problem { problems.append(p) }
                } else {
                    late(w)
                }
            case .loading:
                if beat > nowBeat { still.append(w) } else { late(w) }
            case .failed, .unknown:
                break
            }
        }
        waiting = still
        for p in problems where !p.isEmpty { notePlayWarning(p); onProblem?(p) }
    }

    // Thread: podium-loops
    private func postLoaded(_ e: Event<ControlMap>, _ loaded: SampleStore.Loaded, slot: String, version: Int,
                            producer: CommandProducer, quantum: Double, tempo: Double) -> (sent: Bool, problem: String?, id: UInt64?) {
        guard let p1 = driver.samplerInstrument else {
            return (false, once(version, "\(slot): the sampler's instruments are not in this performance (start it with sample banks)"), nil)
        }
        let secondsPerCycle = 60 * quantum / max(tempo, 1e-9)
        let whole = e.wholeOrPart
        let unknown = SampleNotes.fields(e.value, sample: (loaded.tables, loaded.frames, loaded.sampleRate, loaded.id),
                                         delta: (whole.stop - whole.start).double * secondsPerCycle, cps: 1 / secondsPerCycle,
                                         into: &fieldBuffer)
        guard fieldBuffer[1] > 0 else { return (false, nil, nil) }
        fieldBuffer[1] *= tempo / 60  // seconds → beats (the audio thread turns them back at the tempo it starts with)
        var problem: String?
        if let extra = unknown.first {
            problem = once(version, "\(slot): the sampler has no control `\(extra)` (SampleNotes lists the ones it reads)")
        }
        do {
            let posted = try fieldBuffer.withUnsafeBufferPointer { f throws(InputError) in
                try producer.event(p1: p1, f, quantize: .beat(e.wholeStart.double * quantum))
            }
            if posted == nil { return (false, once(version, "\(slot): the command ring is full: notes not played"), nil) }
            return (true, problem, posted)
        } catch {
            return (false, once(version, "\(slot): \(error.description)"), nil)
        }
    }
}
