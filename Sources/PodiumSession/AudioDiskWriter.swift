import Foundation
import PodiumAudioFile
import PodiumRealtime
import Synchronization

/// The disk thread of a recording (JACK's capture_client.c): drains the audio thread's ring
/// into `audio.wav` (and `input.wav`), updating the headers about once a second so a crash
/// loses at most the last second. All file I/O happens here; the audio thread never waits.
///
/// A disk that fills stops the audio, never the take: below `reserveBytes` free (checked with
/// each header update) or on a failed write, the files keep what was written and the thread
/// goes on draining the ring, counting the take's frames (`performedFrames`), so that the
/// session knows where the take was meant to end and replay renders it there from the journal,
/// which the reserve leaves room for (a failed journal write would end the session's record).
final class AudioDiskWriter: @unchecked Sendable {
    let tap: RecordTap
    /// Free space the audio leaves on the session's disk for its journal, console.log and session.json.
    static let reserveBytes: Int64 = 16 << 20
    private let directory: URL
    private let output: SoundFileWriter
    private let input: SoundFileWriter?
    private let running = Atomic<Bool>(true)
    private let done = DispatchSemaphore(value: 0)
    /// Set on the disk thread; read after `finish()`.
    private(set) var firstCycle: Int64?
    private(set) var gapCycles: Int64 = 0
    private(set) var failure: String?
    private(set) var restarts = 0
    /// Frames of the take as performed: written, lost to overruns (silence) and, after a
    /// failure, not written. Read after `finish()`.
    private(set) var performedFrames: Int64 = 0
    var onFailure: (@Sendable (String) -> Void)?

    init(tap: RecordTap, directory: URL, audio: String = "audio.wav", input inputName: String = "input.wav") throws {
        self.tap = tap
        self.directory = directory
        output = try SoundFileWriter(path: directory.appendingPathComponent(audio).path, sampleRate: tap.sampleRate,
                                     channels: tap.outputs, format: .float)
        input = tap.inputs > 0 ? try SoundFileWriter(path: directory.appendingPathComponent(inputName).path,
                                                     sampleRate: tap.sampleRate, channels: tap.inputs, format: .float) : nil
        output.updateHeader()
        input?.updateHeader()
    }

    var frames: Int64 { output.framesWritten }

    // Thread: NRT (owner)
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "podium-disk"
        thread.start()
    }

    /// Writes what is left in the ring, closes the files.
    // Thread: NRT (owner), after the audio thread stopped feeding the tap
    func finish() {
        running.store(false, ordering: .releasing)
        done.wait()
    }

    // Thread: NRT (podium-disk)
    private func run() {
        var block: [Float] = []
        var outs: [Float] = [], ins: [Float] = []
        var expected: Int64 = 0
        var generation: UInt32 = 0
        var lastHeader = ContinuousClock.now
        while true {
            let stopping = !running.load(ordering: .acquiring)
            var wrote = false
            while let header = tap.nextBlock(into: &block) {
                wrote = true
                let frames = Int(header.frames)
                if firstCycle == nil {
                    firstCycle = header.cycle
                    generation = header.generation
                    expected = header.cycle
                }
                if header.generation != generation {
                    generation = header.generation  // the engine restarted: its cycles count from 0
                    restarts += 1
                    expected = header.cycle
                }
                let missing = header.cycle > expected ? Int(header.cycle - expected) : 0
                performedFrames += Int64((missing + 1) * frames)
                expected = header.cycle + 1
                guard failure == nil else { continue }  // counted, not written
                if missing > 0 {
                    // The ring was full for a while: keep the timeline, fill with silence.
                    gapCycles += Int64(missing)
                    write(outs: [Float](repeating: 0, count: missing * frames * tap.outputs),
                          ins: [Float](repeating: 0, count: missing * frames * tap.inputs), frames: missing * frames)
                }
                split(block, frames: frames, outs: &outs, ins: &ins)
                write(outs: outs, ins: ins, frames: frames)
            }
            if ContinuousClock.now - lastHeader >= .seconds(1) {
                lastHeader = ContinuousClock.now
                output.updateHeader()
                input?.updateHeader()
                if failure == nil, let free = SessionFiles.freeBytes(directory.path), free < AudioDiskWriter.reserveBytes {
                    fail("only \(free >> 20) MiB left on the session's disk: the audio stops here, leaving room for the journal (the take goes on in it)")
                }
            }
            if stopping { break }
            if !wrote { Thread.sleep(forTimeInterval: 0.01) }
        }
        output.close()
        input?.close()
        done.signal()
    }

    private func split(_ block: [Float], frames: Int, outs: inout [Float], ins: inout [Float]) {
        let channels = tap.outputs + tap.inputs
        outs.removeAll(keepingCapacity: true)
        ins.removeAll(keepingCapacity: true)
        for f in 0..<frames {
            let base = f * channels
            for c in 0..<tap.outputs { outs.append(block[base + c]) }
            for c in 0..<tap.inputs { ins.append(block[base + tap.outputs + c]) }
        }
    }

    private func write(outs: [Float], ins: [Float], frames: Int) {
        do {
            try outs.withUnsafeBufferPointer { try output.write(floats: $0.baseAddress!, frames: frames) }
            if let input { try ins.withUnsafeBufferPointer { try input.write(floats: $0.baseAddress!, frames: frames) } }
        } catch {
            // A full disk: stop writing (the performance goes on); keep what was written.
            fail("\(error)")
        }
    }

    private func fail(_ why: String) {
        failure = why
        output.updateHeader()
        input?.updateHeader()
        onFailure?(why)
    }
}
