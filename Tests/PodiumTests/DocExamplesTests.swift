import Foundation
import PodiumProbe
import Testing

/// The documentation cannot drift: every runnable example of the tutorial plays (or renders, or
/// prints) as it says, and the command-line reference is what the command line defines.
extension JackSuites {
@Suite("Documentation", .serialized)
struct DocExamplesTests {
    static let root = Paths.packageRoot

    @Test("every runnable example in the README and docs/tutorial plays on a dummy JACK server (or renders, or prints what it shows) without an error line, and is not silent")
    func tutorialExamples() throws {
        let tutorial = DocExamplesTests.root.appendingPathComponent("docs/tutorial")
        let chapters = try FileManager.default.contentsOfDirectory(atPath: tutorial.path)
            .filter { $0.first?.isNumber == true && $0.hasSuffix(".md") }.sorted().map { tutorial.appendingPathComponent($0).path }
        #expect(chapters.count >= 10, "\(chapters)")
        // The README's examples too: the first pattern and the first hot swap.
        let r = try run("/bin/bash", [tutorial.appendingPathComponent("run-examples.sh").path,
                                      DocExamplesTests.root.appendingPathComponent("README.md").path] + chapters,
                        // Two workers, two dummy servers: the JACK suites run in three processes side by
                        // side (scripts/test), and JACK2 keeps at most 8 servers at a time.
                        environment: ["PODIUM": Paths.podium, "JOBS": "2"], timeout: 900)
        let lines = r.stdout.split(separator: "\n")
        let passed = lines.filter { $0.hasPrefix("PASS ") }
        for failure in lines.filter({ $0.hasPrefix("FAIL ") }) { Issue.record("\(failure)\n\(r.stdout)") }
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(passed.count >= 32, "the runnable examples: \(passed.count) ran")
    }

    @Test("docs/reference/cli.md is the command line's own definitions (scripts/gen-cli-reference --check)")
    func cliReferenceIsCurrent() throws {
        let r = try run(DocExamplesTests.root.appendingPathComponent("scripts/gen-cli-reference").path, ["--check"],
                        environment: ["PODIUM": Paths.podium], timeout: 60)
        #expect(r.status == 0, "regenerate it: scripts/gen-cli-reference > docs/reference/cli.md\n\(r.stdout)\(r.stderr)")
    }
}
}
