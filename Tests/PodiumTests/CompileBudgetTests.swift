@testable import PodiumHost
import Testing

/// Compiles draw from a budget (each is checked in a child process): a burst, then a steady rate.
@Suite("Compile budget")
struct CompileBudgetTests {
    @Test("a burst of 10 is admitted, the 11th refused and counted; 5 a second come back with time, never more than the burst")
    func burstThenRate() {
        let budget = CompileBudget(perSecond: 5, burst: 10)
        let t0 = ContinuousClock.now
        #expect((0..<10).allSatisfy { _ in budget.admit(now: t0) })
        #expect(!budget.admit(now: t0))
        #expect(budget.refused == 1)
        // 0.2 s later: one compile's worth is back, not two.
        #expect(budget.admit(now: t0 + .milliseconds(200)))
        #expect(!budget.admit(now: t0 + .milliseconds(200)))
        // A long quiet spell refills to the burst only.
        let later = t0 + .seconds(60)
        #expect((0..<10).allSatisfy { _ in budget.admit(now: later) })
        #expect(!budget.admit(now: later))
        #expect(budget.refused == 3)
        #expect(budget.refusal.contains("not compiled"))
    }
}
