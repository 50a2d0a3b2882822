import PodiumRealtime
import Testing

@Suite("k-cycle runner: momentary channels")
struct MomentaryChannelsTests {
    @Test("channels set for one k-cycle go back to 0 when it is released; beyond capacity they keep their value, in the callback and the replayer alike")
    func releaseAndCapacity() {
        let values = UnsafeMutablePointer<Double>.allocate(capacity: 4)
        values.initialize(repeating: 0, count: 4)
        defer { values.deallocate() }
        var momentary = MomentaryChannels(capacity: 3)
        for i in 0..<4 { momentary.set(values + i, Double(i + 1)) }
        #expect(momentary.count == 3)
        #expect((0..<4).map { values[$0] } == [1, 2, 3, 4])  // all set for this k-cycle
        momentary.release()
        #expect(momentary.count == 0)
        #expect((0..<4).map { values[$0] } == [0, 0, 0, 4])  // the fourth was beyond capacity

        momentary.set(values, 7)
        momentary.forget()  // an engine replaced: its channels are not touched again
        momentary.release()
        #expect(values[0] == 7)
    }
}
