import Foundation

/// The instruments' p-field layouts (`PatternNotes.layouts`) of the orchestra texts compiled so
/// far, worked out once per text as texts are added: the sampler's and SuperDirt's synths make
/// 59 KB at the start, which took 157 ms to read (a debug build) — on the scheduler's thread
/// that skipped the notes of the first tick after every compile. A text compiled later wins
/// over an earlier one for the instruments it defines. Shared by the scheduler and the answers
/// to definitions (`PatternAudit.swift`).
final class LayoutCache: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var layouts: [String: [String]] = [:]

    /// The layouts of `texts` (the engine's `orchestraTexts`: only ever appended to, or
    /// started again by a rebuild).
    // Thread: any
    func layouts(for texts: [String]) -> [String: [String]] {
        lock.withLock {
            if texts.count < count { count = 0; layouts = [:] }
            for text in texts[count...] {
                layouts.merge(PatternNotes.layouts(in: [text])) { _, later in later }
            }
            count = texts.count
            return layouts
        }
    }
}
