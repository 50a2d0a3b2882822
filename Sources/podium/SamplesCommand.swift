import ArgumentParser
import Foundation
import PodiumAudioFile
import PodiumSamples

/// `podium samples [DIR …]`: checks sample banks as a performance reads them — every name, and
/// every file decoded and resampled as it would be played — and says what would be refused.
struct Samples: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "samples",
        abstract: "Check sample banks: their names, and each file decoded as a performance plays it.",
        discussion: """
        A bank is a folder per name (Dirt-Samples: bd/, sn/, …, files in sorted order), a \
        strudel.json with local paths, a Hydrogen drum kit (drumkit.xml) or a folder of kits. \
        With no DIR, the defaults: a SuperDirt install's Dirt-Samples \
        ($XDG_DATA_HOME/SuperCollider/downloaded-quarks/Dirt-Samples, ~/.local/share when unset), then \
        the default kits (Debian's hydrogen-data). Exits 1 when a bank cannot be \
        read or a file would be refused; prints one line per problem.
        """)

    @Argument(help: "Banks to check, in the order podium play --samples would look names up.")
    var banks: [String] = []

    @Option(name: .long, help: "The engine's sample rate to decode at (JACK's, when playing).")
    var rate = 48000

    @Flag(name: .long, help: "Only read the banks' names (decode no file).")
    var namesOnly = false

    // Thread: main
    func run() throws {
        guard (8000...384_000).contains(rate) else { throw ValidationError("--rate: \(rate) Hz is not a rate (8000 to 384000)") }
        let library = SampleLibrary.load(banks, defaults: banks.isEmpty)
        print(library.listing())
        var refused = library.problems.count + library.banks.reduce(0) { $0 + $1.problems.count }
        if library.isEmpty { throw ExitCode(1) }
        guard !namesOnly else { throw ExitCode(refused == 0 ? 0 : 1) }
        let began = ContinuousClock.now
        var bytes = 0, files = 0, seconds = 0.0
        for path in library.allFiles {
            do {
                let d = try SampleDecoder.decode(path, sampleRate: rate)
                for note in d.notes { print("note: \(note)") }
                bytes += d.bytes
                seconds += d.seconds
                files += 1
            } catch {
                print("refused: \(error.description)")
                refused += 1
            }
        }
        let spent = began.duration(to: .now)
        print("\(files) files decoded at \(rate) Hz: \(String(format: "%.1f", seconds)) s of audio, \(SampleDecoder.megabytes(bytes)) as Csound tables, in \(spent.formatted(.units(allowed: [.seconds, .milliseconds], width: .narrow))); \(refused) refused")
        if refused > 0 { throw ExitCode(1) }
    }
}
