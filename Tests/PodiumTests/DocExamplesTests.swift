import Foundation
import PodiumProbe
import Testing

/// The documentation cannot drift: every runnable example of the tutorial plays (or renders, or
/// prints) as it says, and the command-line reference is what the command line defines.
extension JackSuites {
@Suite("Documentation", .serialized)
struct DocExamplesTests {
    static let root = Paths.packageRoot

    @Test("every runnable example in docs/tutorial plays on a dummy JACK server (or renders, or prints what it shows) without an error line, and is not silent")
    func tutorialExamples() throws {
        let r = try run("/bin/bash", [DocExamplesTests.root.appendingPathComponent("docs/tutorial/run-examples.sh").path],
                        environment: ["PODIUM": Paths.podium], timeout: 900)
        let lines = r.stdout.split(separator: "\n")
        let passed = lines.filter { $0.hasPrefix("PASS ") }
        for failure in lines.filter({ $0.hasPrefix("FAIL ") }) { Issue.record("\(failure)\n\(r.stdout)") }
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(passed.count >= 30, "the tutorial's runnable examples: \(passed.count) ran")
    }

    @Test("docs/reference/cli.md is the command line's own definitions (scripts/gen-cli-reference --check)")
    func cliReferenceIsCurrent() throws {
        let r = try run(DocExamplesTests.root.appendingPathComponent("scripts/gen-cli-reference").path, ["--check"],
                        environment: ["PODIUM": Paths.podium], timeout: 60)
        #expect(r.status == 0, "regenerate it: scripts/gen-cli-reference > docs/reference/cli.md\n\(r.stdout)\(r.stderr)")
    }
}
}
