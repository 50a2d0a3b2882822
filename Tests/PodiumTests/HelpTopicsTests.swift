import PodiumPatterns
import PodiumSurfaces
import Testing

/// `:help TOPIC` and the reference's generated tables read the language's own tables.
@Suite("Help topics")
struct HelpTopicsTests {
    @Test("every function the language takes has a signature; the summaries name only functions it has; a control, an unsupported name and a misspelling are answered")
    func topics() {
        for name in PatternReference.functionNames {
            #expect(PatternReference.signature(name)?.contains(" :: ") == true, "\(name)")
        }
        for name in PatternReference.summaries.keys {
            #expect(PatternReference.functionNames.contains(name), "summary of \(name), which the language does not have")
        }
        #expect(HelpTopics.help("every").contains("every :: Pattern Int -> (Pattern a -> Pattern a) -> Pattern a -> Pattern a"))
        #expect(HelpTopics.help("every").contains("every N cycles"))
        #expect(HelpTopics.help("sine").contains("sine :: Pattern n"))
        #expect(HelpTopics.help("speed").contains("a number control"))
        #expect(HelpTopics.help("rolled").contains("does not support it yet"))
        #expect(HelpTopics.help("/podium/hush").contains("silence now"))
        #expect(HelpTopics.help(":quit").contains("Ctrl-D"))
        #expect(HelpTopics.help("sometims").contains("did you mean") && HelpTopics.help("sometims").contains("sometimes"))
    }
}
