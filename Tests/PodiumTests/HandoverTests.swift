import CCsound
import Foundation
import PodiumEngine
import PodiumHost
import PodiumProbe
import PodiumRealtime
import Synchronization
import Testing

/// The races the handovers to the audio thread used to have: a callback stalled past the old
/// one-second timeout (the server stopped with SIGSTOP), an offer withdrawn after a timeout,
/// direct swaps while no callback can run, and string stores that find their lock held.
extension JackSuites {
@Suite("Handovers to the audio thread", .serialized)
final class HandoverTests {
    let server: TestJackServer

    static let orchestra = """
    nchnls = 2
    0dbfs = 1
    chn_k "freq", 1
    chn_S "label", 1

    instr 1
      a1 oscili 0.2, chnget:k("freq")
      outs a1, a1
    endin
    """

    init() throws {
        server = try TestJackServer()
    }

    deinit {
        server.resume()
        server.stop()
    }

    func makeDriver() -> JackDriver {
        JackDriver(source: .text(orchestra: HandoverTests.orchestra, score: nil, name: "handover.orc"),
                   jack: JackOptions(clientName: "handover", serverName: server.name, connect: false))
    }

    /// Runs `work` on another thread; the box holds its error (nil: it succeeded) once done.
    final class Background: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        private let result = Mutex<Error??>(nil)
        init(_ work: @escaping @Sendable () throws -> Void) {
            Thread.detachNewThread { [self] in
                do { try work(); result.withLock { $0 = .some(nil) } } catch { result.withLock { $0 = .some(error) } }
                done.signal()
            }
        }
        func finished(within seconds: Double) -> Bool { done.wait(timeout: .now() + seconds) == .success }
        var error: Error? { result.withLock { $0 ?? nil } }
    }

    /// A tap shaped like the engine's channels (as a session's).
    func makeTap(_ driver: JackDriver) -> RecordTap {
        let facts = driver.sessionFacts
        return RecordTap(outputs: facts.outputs, inputs: facts.inputs, sampleRate: facts.sampleRate)
    }

    /// Blocks the tap has received since the last call.
    func drain(_ tap: RecordTap) -> Int {
        var samples: [Float] = []
        var n = 0
        while tap.nextBlock(into: &samples) != nil { n += 1 }
        return n
    }

    @Test("a recording tap offered while the callback stalls past the old 1 s timeout is taken after it resumes, and let go the same way")
    func tapAcrossStall() throws {
        let driver = makeDriver()
        try driver.start()
        defer { driver.stop() }
        #expect(eventually(3) { driver.stats.callbacks > 10 })
        let before = driver.stats
        let tap = makeTap(driver)

        server.pause(settling: { driver.stats.callbacks })
        let start = Background { _ = try driver.feed(tap) }
        #expect(!start.finished(within: 1.5), "waits for the callback instead of taking the tap over itself")
        #expect(drain(tap) == 0)
        server.resume()
        #expect(start.finished(within: 10))
        #expect(start.error == nil)
        #expect(eventually(3) { self.drain(tap) > 0 }, "the callback feeds the tap it took")

        server.pause(settling: { driver.stats.callbacks })
        let stop = Background { _ = try driver.feed(nil) }
        #expect(!stop.finished(within: 1.5), "the tap is not let go before the callback hands it back")
        server.resume()
        #expect(stop.finished(within: 10))
        #expect(stop.error == nil)
        _ = drain(tap)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(drain(tap) == 0, "after feed(nil) returned the callback writes no more blocks")
        let after = driver.stats
        #expect(after.handshakes == before.handshakes + 2)
        #expect(after.withdrawnHandovers == 0)
    }

    @Test("an engine rebuilt while the callback stalls is adopted after it resumes, with its bundle (ksmps, sample rate)")
    func engineAcrossStall() throws {
        let driver = makeDriver()
        try driver.start()
        defer { driver.stop() }
        let producer = driver.makeProducer()
        try producer.set("freq", 330)
        #expect(eventually(3) { (try? driver.engine.control("freq")) == 330 })
        let before = driver.stats

        server.pause(settling: { driver.stats.callbacks })
        let restart = Background { try driver.restartEngine(ksmps: 64) }
        #expect(!restart.finished(within: 1.5), "the rebuild waits for the callback")
        server.resume()
        #expect(restart.finished(within: 20))
        #expect(restart.error == nil)
        #expect(driver.engine.ksmps == 64)
        #expect((try? driver.engine.control("freq")) == 330, "channel values restored on the new engine")
        let start = driver.stats
        #expect(eventually(3) { driver.stats.cycles >= start.cycles + 40 }, "the new engine performs")
        let now = driver.stats
        #expect(now.cycles - start.cycles >= 4 * (now.callbacks - start.callbacks) - 8, "four k-cycles of 64 per 256-frame period")
        #expect(now.lastPeriodIsAligned)
        try producer.set("freq", 440)
        #expect(eventually(3) { (try? driver.engine.control("freq")) == 440 }, "commands reach the new engine")
        let after = driver.stats
        #expect(after.handshakes >= before.handshakes + 2, "bindings let go, then the engine")
        #expect(after.withdrawnHandovers == 0)
    }

    @Test("a handover the callback never takes is withdrawn after the timeout: an error, nothing changed, and never taken later")
    func withdrawn() throws {
        let driver = makeDriver()
        try driver.start()
        defer { driver.stop() }
        driver.handoverTimeout = 0.3
        #expect(eventually(3) { driver.stats.callbacks > 10 })
        let tap = makeTap(driver)

        server.pause(settling: { driver.stats.callbacks })
        #expect(throws: HandoverError.self) { try driver.feed(tap) }
        let bindings = [Binding(source: .midiCC(midiChannel: nil, controller: 7), channel: "freq", output: 100...1000)]
        #expect(throws: HandoverError.self) { try driver.setBindings(bindings) }
        #expect(driver.bindings.isEmpty, "the bindings stay as they were")
        server.resume()
        let callbacks = driver.stats.callbacks
        #expect(eventually(3) { driver.stats.callbacks > callbacks + 20 })
        #expect(drain(tap) == 0, "the withdrawn tap is never taken")
        #expect(driver.stats.withdrawnHandovers == 2)

        driver.handoverTimeout = 10
        try driver.feed(tap)
        #expect(eventually(3) { self.drain(tap) > 0 })
        try driver.feed(nil)
        try driver.setBindings(bindings)
        #expect(driver.bindings.count == 1)
    }

    @Test("with no callback able to run (not started, stopped) handovers swap directly")
    func directSwaps() throws {
        let driver = makeDriver()
        let tap = RecordTap(outputs: 2, inputs: 2, sampleRate: 48000)
        try driver.feed(tap)
        #expect(driver.stats.directSwaps == 1)
        try driver.feed(nil)
        try driver.start()
        #expect(driver.stats.directSwaps == 3, "the first engine is adopted directly before activation")
        #expect(driver.stats.handshakes == 0)
        try driver.feed(tap)
        #expect(driver.stats.handshakes == 1, "while callbacks run: the handshake")
        driver.stop()
        try driver.feed(nil)
        #expect(driver.stats.directSwaps == 4, "after deactivation: directly again")
        #expect(driver.stats.withdrawnHandovers == 0)
    }

    @Test("string stores never wait for a held channel lock: deferred (counted) and the latest value arrives")
    func stringStoresUnderContention() throws {
        let driver = makeDriver()
        try driver.start()
        defer { driver.stop() }
        let producer = driver.makeProducer()
        try producer.setString("label", "first")
        #expect(eventually(3) { (try? driver.engine.string("label")) == "first" })

        let (storage, lock) = try driver.engine.stringChannelStorage("label")
        let channelLock = try #require(lock)
        func stored() -> String {
            String(cString: storage.load(as: UnsafeMutablePointer<CChar>.self))  // read without the lock
        }
        csoundSpinLock(channelLock)  // the non-real-time side holds it (as Csound does while reallocating)
        try producer.setString("label", "second")
        try producer.setString("label", "third")
        let ok = eventually(3) { driver.stats.deferredStrings >= 2 }
        let whileHeld = stored()
        let callbacks = driver.stats.callbacks
        let callbacksRan = eventually(3) { driver.stats.callbacks > callbacks + 5 }
        csoundSpinUnLock(channelLock)
        #expect(ok, "both stores deferred")
        #expect(callbacksRan, "the callback kept running while the lock was held")
        #expect(whileHeld == "first")
        #expect(eventually(3) { (try? driver.engine.string("label")) == "third" }, "the latest value arrives once the lock is free")
        #expect(driver.stats.droppedStrings == 0)

        // Contention on and off while values stream in: the last one wins, nothing is dropped.
        let stopToggling = Atomic<Bool>(false)
        let lockAddress = UInt(bitPattern: channelLock)
        let toggler = Background {
            let l = UnsafeMutablePointer<Int32>(bitPattern: lockAddress)!
            while !stopToggling.load(ordering: .relaxed) {
                csoundSpinLock(l)
                usleep(700)
                csoundSpinUnLock(l)
                usleep(300)
            }
        }
        for i in 0..<200 {
            try producer.setString("label", "value \(i)")
            usleep(500)
        }
        stopToggling.store(true, ordering: .relaxed)
        #expect(toggler.finished(within: 5))
        #expect(eventually(3) { (try? driver.engine.string("label")) == "value 199" })
        #expect(driver.stats.droppedStrings == 0)
        #expect(driver.stats.missingBuffers == 0)
    }
}
}
