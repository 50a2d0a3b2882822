import Foundation
import PodiumAudioFile
import PodiumProbe
import PodiumSamples
import Testing

/// Sample banks as a performer lays them out (files made by sox in the test, Debian's Hydrogen
/// kits), indexed, checked and decoded without JACK or Csound.
@Suite("sample banks")
struct SampleBankTests {
    /// A tone file made by sox: `seconds` of a sine at `hz`, at `rate`, in the format its name's ending says.
    static func tone(_ path: String, hz: Double, seconds: Double = 0.2, rate: Int = 44100, channels: Int = 1) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let r = try run("/usr/bin/sox", ["-n", "-r", "\(rate)", "-c", "\(channels)", "-b", "16", path, "synth", "\(seconds)", "sine", "\(hz)", "gain", "-6"])
        try #require(r.status == 0, "sox: \(r.stderr)")
    }

    @Test("a Dirt-Samples folder: a name per sub-folder, its files in sorted order, the index wrapping both ways")
    func dirtFolder() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = dir.appendingPathComponent("mybank").path
        try Self.tone(root + "/bd/b-kick.wav", hz: 100)
        try Self.tone(root + "/bd/a-kick.flac", hz: 200)
        try Self.tone(root + "/bd/c-kick.aiff", hz: 300)
        try Self.tone(root + "/superpiano/x.ogg", hz: 440)
        try "not a sound".write(toFile: root + "/bd/notes.txt", atomically: true, encoding: .utf8)
        let banks = try SampleBank.read(root)
        #expect(banks.count == 1 && banks[0].kind == .folders && banks[0].name == "mybank")
        let bd = try #require(banks[0].sounds["bd"])
        #expect(bd.map { ($0 as NSString).lastPathComponent } == ["a-kick.flac", "b-kick.wav", "c-kick.aiff"])
        let library = SampleLibrary(banks: banks)
        #expect(library.choose("bd")?.path.hasSuffix("a-kick.flac") == true)
        #expect(library.choose("bd", index: 2)?.path.hasSuffix("c-kick.aiff") == true)
        #expect(library.choose("bd", index: 3)?.path.hasSuffix("a-kick.flac") == true, "wraps")
        #expect(library.choose("bd", index: -1)?.path.hasSuffix("c-kick.aiff") == true, "wraps below 0")
        #expect(library.choose("superpiano")?.path.hasSuffix("x.ogg") == true)
        #expect(library.choose("sn") == nil)
        #expect(library.choose("mybank_bd", index: 1)?.path.hasSuffix("b-kick.wav") == true, "Strudel's BANK_NAME")
        // Every file decodes (WAV, FLAC, AIFF, OGG through libsndfile), at the engine's rate.
        for (file, hz) in zip(bd + [library.choose("superpiano")!.path], [200.0, 100, 300, 440]) {
            let d = try SampleDecoder.decode(file, sampleRate: 48000)
            #expect(abs(d.frames - 9600) <= 2, "\(file): \(d.frames) frames at 48 kHz from 0.2 s")
            let samples = (0..<d.frames).map { Float(d.channels[0][$0]) }
            #expect(abs(estimatedFrequency(samples, sampleRate: 48000) - hz) < max(hz * 0.03, 6), "\(file) keeps its pitch through resampling")
        }
    }

    @Test("names that would leave the bank are refused with a message, and nothing outside it is indexed")
    func namesStayInside() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = dir.appendingPathComponent("bank").path
        let outside = dir.appendingPathComponent("outside").path
        try Self.tone(root + "/bd/1.wav", hz: 100)
        try Self.tone(outside + "/secret.wav", hz: 100)
        try Self.tone(outside + "/folder/x.wav", hz: 100)
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: root + "/bd/2.wav", withDestinationPath: outside + "/secret.wav")
        try fm.createSymbolicLink(atPath: root + "/escape", withDestinationPath: outside + "/folder")
        try fm.createDirectory(atPath: root + "/has space", withIntermediateDirectories: true)
        try Self.tone(root + "/has space/1.wav", hz: 100)
        let bank = try #require(try SampleBank.read(root).first)
        #expect(bank.sounds["bd"]?.count == 1, "the link out of the bank is not one of bd's files")
        #expect(bank.sounds["escape"] == nil)
        #expect(bank.sounds.values.joined().allSatisfy { $0.hasPrefix(bank.root + "/") })
        #expect(bank.problems.contains { $0.hasPrefix("bd/2.wav: leaves the bank") }, "\(bank.problems)")
        #expect(bank.problems.contains { $0.hasPrefix("escape: leaves the bank") }, "\(bank.problems)")
        #expect(bank.problems.contains { $0.hasPrefix("has space: not a sound name") }, "\(bank.problems)")

        // strudel.json: `..` and `/` in names, paths out of its folder, and URLs refused.
        try Self.tone(root + "/s/pad.wav", hz: 220)
        let json = #"{"_base": "./s/", "pad": "pad.wav", "../up": ["pad.wav"], "a/b": "pad.wav", "out": "../../outside/secret.wav", "web": "https://example.com/x.wav"}"#
        try json.write(toFile: root + "/strudel.json", atomically: true, encoding: .utf8)
        let strudel = try #require(try SampleBank.read(root).first)
        #expect(strudel.kind == .strudel)
        #expect(strudel.sounds.keys.sorted() == ["pad"], "\(strudel.sounds)")
        #expect(strudel.problems.contains { $0.hasPrefix("../up: not a sound name") }, "\(strudel.problems)")
        #expect(strudel.problems.contains { $0.hasPrefix("a/b: not a sound name") }, "\(strudel.problems)")
        #expect(strudel.problems.contains { $0.hasPrefix("out: ../../outside/secret.wav: leaves the bank") }, "\(strudel.problems)")
        #expect(strudel.problems.contains { $0.contains("https://example.com/x.wav is on the network") }, "\(strudel.problems)")
        // A name a pattern sends (OSC, Tidal) is only looked up in the index: a path never reads a file.
        let library = SampleLibrary(banks: [strudel])
        #expect(library.choose("../../outside/secret") == nil && library.choose("/etc/passwd") == nil)
        let remote = #"{"_base": "https://raw.githubusercontent.com/tidalcycles/Dirt-Samples/master/", "bd": ["bd/x.wav"]}"#
        try remote.write(toFile: root + "/strudel.json", atomically: true, encoding: .utf8)
        #expect(throws: SampleBankError.self) { try SampleBank.read(root) }
    }

    @Test("Debian's Hydrogen kits are banks: instruments named from drumkit.xml, layers loudest first, bd sn hh … on the default kit")
    func hydrogenKits() throws {
        try #require(FileManager.default.fileExists(atPath: SampleLibrary.defaultKits + "/GMRockKit/drumkit.xml"), "needs Debian's hydrogen-data (scripts/setup installs it)")
        let library = SampleLibrary.load([])
        #expect(library.banks.map(\.name).prefix(2) == ["GMRockKit", "TR808EmulationKit"])
        let rock = library.banks[0]
        #expect(rock.kind == .hydrogen)
        #expect(rock.sounds["kick"]?.map { ($0 as NSString).lastPathComponent } == ["Kick-Hardest.wav", "Kick-Hard.wav", "Kick-Med.wav", "Kick-Soft.wav", "Kick-Softest.wav"])
        let expected = ["bd": "kick", "sn": "snare", "hh": "hat_closed", "oh": "hat_open", "cp": "hand_clap", "lt": "floor_tom",
                        "mt": "tom_2", "ht": "tom_1", "cr": "crash", "rd": "ride", "rim": "snare_rimshot", "cb": "cowbell"]
        for (short, name) in expected { #expect(rock.aliases[short] == name, "\(short) → \(rock.aliases[short] ?? "nothing"), not \(name)") }
        #expect(library.choose("bd")?.path.hasSuffix("GMRockKit/Kick-Hardest.wav") == true)
        #expect(library.choose("bd", index: 4)?.path.hasSuffix("GMRockKit/Kick-Softest.wav") == true)
        #expect(library.choose("hh")?.path.hasSuffix("GMRockKit/HatClosed-Hardest.wav") == true)
        // The 808 kit, by Strudel's BANK_NAME or a bank control.
        #expect(library.choose("TR808EmulationKit_bd")?.path.hasSuffix("808_Kick_Long.flac") == true)
        #expect(library.choose("sn", bank: "tr808emulationkit")?.path.hasSuffix("808_Snare_1.flac") == true)
        #expect(library.choose("tr808emulationkit_cp")?.path.hasSuffix("808_Clap.flac") == true)
        // A performer's bank comes first.
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.tone(dir.path + "/mine/bd/0.wav", hz: 60)
        let mine = SampleLibrary.load([dir.path + "/mine"])
        #expect(mine.choose("bd")?.bank == "mine")
        #expect(mine.choose("sn")?.bank == "GMRockKit")
        #expect(SampleLibrary.load([dir.path + "/mine"], defaults: false).choose("sn") == nil)
        // Every file of the default kits decodes.
        for f in library.allFiles { #expect(throws: Never.self) { _ = try SampleDecoder.decode(f, sampleRate: 48000) } }
    }

    @Test("a SuperDirt install's Dirt-Samples ($XDG_DATA_HOME/SuperCollider/downloaded-quarks, ~/.local/share when unset) is a default bank: after the performer's, before the Hydrogen kits; podium samples lists it; --samples naming it does not add it twice; no install, no bank")
    func dirtSamplesDefault() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dirt = dir.path + "/data/SuperCollider/downloaded-quarks/Dirt-Samples"
        try Self.tone(dirt + "/bd/BT0A0A7.wav", hz: 50)
        try Self.tone(dirt + "/arpy/arpy01.wav", hz: 440)
        try Self.tone(dir.path + "/mine/bd/0.wav", hz: 60)
        #expect(SampleLibrary.dirtSamples(environment: ["XDG_DATA_HOME": dir.path + "/data"]) == dirt)
        #expect(SampleLibrary.dirtSamples(environment: ["HOME": dir.path + "/nohome"]) == nil)
        try FileManager.default.createDirectory(atPath: dir.path + "/home/.local/share", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/home/.local/share/SuperCollider", withDestinationPath: dir.path + "/data/SuperCollider")
        #expect(SampleLibrary.dirtSamples(environment: ["HOME": dir.path + "/home"]) == dir.path + "/home/.local/share/SuperCollider/downloaded-quarks/Dirt-Samples")
        let library = SampleLibrary.load([dir.path + "/mine"], dirtSamples: dirt)
        #expect(library.banks.map(\.name).prefix(2) == ["mine", "Dirt-Samples"], "\(library.banks.map(\.name))")
        #expect(library.choose("bd")?.bank == "mine" && library.choose("arpy")?.bank == "Dirt-Samples")
        #expect(SampleLibrary.load([dirt], dirtSamples: dirt).banks.filter { $0.name == "Dirt-Samples" }.count == 1)
        #expect(SampleLibrary.load([], defaults: false, dirtSamples: dirt).isEmpty)
        if FileManager.default.fileExists(atPath: SampleLibrary.defaultKits + "/GMRockKit/drumkit.xml") {
            #expect(library.banks.map(\.name).dropFirst(2).first == "GMRockKit", "\(library.banks.map(\.name))")
        }
        // The command line, as a performer's shell has it.
        let r = try run(Paths.podium, ["samples", "--names-only"], environment: ["XDG_DATA_HOME": dir.path + "/data"])
        #expect(r.stdout.hasPrefix("Dirt-Samples (folders, \(dirt)): 2 names, 2 files"), "\(r.stdout.prefix(300))")
    }

    @Test("bad files get one clear message each (not audio, truncated, 0 frames, 2 GB, 8 channels, 8 kHz) and the rest of the bank plays")
    func badFiles() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = dir.path + "/bank/x"
        try Self.tone(root + "/0-good.wav", hz: 440)
        try "RIFF, but not really".write(toFile: root + "/1-text.wav", atomically: true, encoding: .utf8)
        // Truncated: a 1 s file cut to its first 10000 bytes (the header still says 1 s).
        try Self.tone(root + "/2-cut.wav", hz: 440, seconds: 1)
        let whole = try Data(contentsOf: URL(fileURLWithPath: root + "/2-cut.wav"))
        try whole.prefix(10000).write(to: URL(fileURLWithPath: root + "/2-cut.wav"))
        // No frames.
        try SoundFileWriter(path: root + "/3-empty.wav", sampleRate: 44100, channels: 1, format: .pcm16).close()
        // 2 GB: a header that says 2 GB of 16-bit mono follow, in a sparse file of that size.
        try Self.tone(root + "/4-huge.wav", hz: 440)
        let huge = FileHandle(forUpdatingAtPath: root + "/4-huge.wav")!
        try huge.truncate(atOffset: 2_000_000_044)
        try huge.seek(toOffset: 4)
        huge.write(withUnsafeBytes(of: UInt32(2_000_000_036).littleEndian) { Data($0) })
        try huge.seek(toOffset: 40)
        huge.write(withUnsafeBytes(of: UInt32(2_000_000_000).littleEndian) { Data($0) })
        try huge.close()
        try Self.tone(root + "/5-eight.wav", hz: 440, channels: 8)
        try Self.tone(root + "/6-low.wav", hz: 440, rate: 8000)
        let bank = try #require(try SampleBank.read(dir.path + "/bank").first)
        let files = try #require(bank.sounds["x"])
        #expect(files.count == 7)
        var outcomes: [String: String] = [:]
        for f in files {
            let name = (f as NSString).lastPathComponent
            do {
                let d = try SampleDecoder.decode(f, sampleRate: 48000, maximumBytes: 1 << 30)
                outcomes[name] = "played" + d.notes.map { " [\($0)]" }.joined()
            } catch {
                outcomes[name] = error.reason
            }
        }
        #expect(outcomes["0-good.wav"] == "played")
        #expect(outcomes["1-text.wav"]?.hasPrefix("not a sound file libsndfile reads") == true, "\(outcomes)")
        #expect(outcomes["2-cut.wav"]?.contains("truncated: ") == true && outcomes["2-cut.wav"]?.hasPrefix("played") == true, "\(outcomes)")
        #expect(outcomes["3-empty.wav"] == "no audio (0 frames)", "\(outcomes)")
        #expect(outcomes["4-huge.wav"]?.contains("decoded, more than the 1.0 GB the samples' memory budget has left") == true, "\(outcomes)")
        #expect(outcomes["5-eight.wav"]?.hasPrefix("8 channels: the sampler plays mono and stereo files") == true, "\(outcomes)")
        #expect(outcomes["6-low.wav"]?.contains("8000 Hz, resampled to 48000 Hz") == true && outcomes["6-low.wav"]?.hasPrefix("played") == true, "\(outcomes)")
    }

    @Test("a sample's journal text names the file and its content; replay decodes the same values, and a changed file is refused")
    func descriptor() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.path + "/a b/\"q\".flac"
        try Self.tone(path, hz: 330)
        let d = try SampleDescriptor(file: path, sampleRate: 48000)
        let parsed = try #require(SampleDescriptor.parse(d.text))
        #expect(parsed == d)
        #expect(SampleDescriptor.parse("instr 1\nendin\n") == nil)
        let first = try SampleDecoder.decode(path, sampleRate: 48000)
        let again = try parsed.decodeAgain()
        #expect(first.frames == again.frames && (0...first.frames).allSatisfy { first.channels[0][$0] == again.channels[0][$0] }, "bit for bit")
        try Self.tone(path, hz: 331)
        #expect { try parsed.decodeAgain() } throws: { ($0 as? SampleFileError)?.reason.hasPrefix("changed since the performance") == true }
    }

    @Test("podium samples checks a bank from the command line: its names, each file decoded, exit 1 when one is refused")
    func samplesCommand() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.tone(dir.path + "/b/bd/1.wav", hz: 100)
        try Self.tone(dir.path + "/b/bd/2.wav", hz: 100)
        try Self.tone(dir.path + "/b/hh/1.flac", hz: 100)
        var r = try run(Paths.podium, ["samples", dir.path + "/b"])
        #expect(r.status == 0, "\(r.stderr)")
        let root = try SampleBank.read(dir.path + "/b")[0].root
        #expect(r.stdout.contains("b (folders, \(root)): 2 names, 3 files"), "\(r.stdout)")
        #expect(r.stdout.contains("  bd:2  hh"), "\(r.stdout)")
        #expect(r.stdout.contains("3 files decoded at 48000 Hz") && r.stdout.contains("; 0 refused"), "\(r.stdout)")
        try "junk".write(toFile: dir.path + "/b/hh/2.wav", atomically: true, encoding: .utf8)
        r = try run(Paths.podium, ["samples", dir.path + "/b"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("refused: \(dir.path)/b/hh/2.wav: not a sound file libsndfile reads") || r.stdout.contains("/b/hh/2.wav: not a sound file"), "\(r.stdout)")
        r = try run(Paths.podium, ["samples", dir.path + "/nothing"])
        #expect(r.status == 1 && r.stdout.contains("refused: \(dir.path)/nothing: no such folder"), "\(r.stdout)")
    }
}
