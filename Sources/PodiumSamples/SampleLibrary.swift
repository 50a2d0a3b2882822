import Foundation

/// The banks a performance plays samples from, in the order names are looked up: the
/// performer's (`--samples`, in the order given), then a SuperDirt install's Dirt-Samples, then
/// the default kits (Debian's
/// `hydrogen-data`: GMRockKit first, whose instruments the short names `bd` `sn` `hh`… play
/// when no bank of the performer's has them; `hydrogen-drumkits`' kits when installed).
///
/// A name is looked up as typed (`bd`, `kick`, `808bd`), as `BANK_NAME` (Strudel's spelling:
/// `TR808EmulationKit_bd`, any case), or in the bank a `bank` control names. Its index (`bd:3`,
/// `n 3`) picks a file, wrapping.
public struct SampleLibrary: Sendable {
    public var banks: [SampleBank]
    /// Banks that could not be read, one message each.
    public var problems: [String]

    /// Where Debian's hydrogen-data (and hydrogen-drumkits) put their kits.
    public static let defaultKits = "/usr/share/hydrogen/data/drumkits"
    /// The kit whose instruments the short names play first.
    public static let defaultKit = "GMRockKit"

    public init(banks: [SampleBank], problems: [String] = []) {
        self.banks = banks
        self.problems = problems
    }

    /// Where SuperDirt's quark installs Dirt-Samples (`Quarks.install("Dirt-Samples")`, which a
    /// Tidal user's SuperDirt did): `$XDG_DATA_HOME/SuperCollider/downloaded-quarks/Dirt-Samples`,
    /// `XDG_DATA_HOME` being `~/.local/share` when unset.
    public static func dirtSamples(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["HOME"].map { $0 + "/.local/share" }
        guard let data else { return nil }
        let path = data + "/SuperCollider/downloaded-quarks/Dirt-Samples"
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue ? path : nil
    }

    /// The performer's banks, then (unless `defaults` is false) the defaults: a SuperDirt
    /// install's Dirt-Samples (the names a Tidal user's sets play), then the default kits. A
    /// path that cannot be read is a problem, not a failure: the other banks play.
    public static func load(_ paths: [String], defaults: Bool = true, defaultKits: String = SampleLibrary.defaultKits,
                            dirtSamples: String? = SampleLibrary.dirtSamples()) -> SampleLibrary {
        var banks: [SampleBank] = [], problems: [String] = []
        for p in paths {
            do { banks += try SampleBank.read(p) } catch { problems.append(error.description) }
        }
        if defaults, let dirt = dirtSamples, !paths.contains(dirt) {
            do { banks += try SampleBank.read(dirt) } catch { problems.append(error.description) }
        }
        if defaults, FileManager.default.fileExists(atPath: defaultKits), let kits = try? SampleBank.read(defaultKits) {
            banks += kits.filter { $0.name == defaultKit } + kits.filter { $0.name != defaultKit }
        }
        return SampleLibrary(banks: banks, problems: problems)
    }

    public var isEmpty: Bool { banks.isEmpty }

    /// One file a name and index chose.
    public struct Choice: Sendable, Equatable, Hashable {
        public var bank: String
        public var sound: String
        public var index: Int
        public var path: String
    }

    /// The file `name` with `index` plays (wrapping), from the bank `bank` names, or else the
    /// first bank that has the name; nil when none has it.
    public func choose(_ name: String, index: Int = 0, bank: String? = nil) -> Choice? {
        if let bank {
            return banks.first { $0.name.caseInsensitiveCompare(bank) == .orderedSame }.flatMap { pick($0, name, index) }
        }
        for b in banks where b.sounds[name] != nil { return pick(b, name, index) }
        for b in banks where b.aliases[name] != nil { return pick(b, name, index) }
        // Strudel's BANK_NAME.
        if let underscore = name.firstIndex(of: "_") {
            let prefix = name[..<underscore], rest = String(name[name.index(after: underscore)...])
            for b in banks where b.name.caseInsensitiveCompare(prefix) == .orderedSame {
                if let c = pick(b, rest, index) { return c }
            }
        }
        return nil
    }

    private func pick(_ bank: SampleBank, _ name: String, _ index: Int) -> Choice? {
        let sound = bank.sounds[name] != nil ? name : bank.aliases[name]
        guard let sound, let files = bank.sounds[sound], !files.isEmpty else { return nil }
        let i = ((index % files.count) + files.count) % files.count
        return Choice(bank: bank.name, sound: sound, index: i, path: files[i])
    }

    /// Every file of every bank (what `--preload` decodes).
    public var allFiles: [String] {
        var seen: Set<String> = [], out: [String] = []
        for b in banks { for name in b.sounds.keys.sorted() { for f in b.sounds[name]! where seen.insert(f).inserted { out.append(f) } } }
        return out
    }

    /// A listing: each bank, its kind and folder, its names with their file counts (and short
    /// names), and what was refused.
    public func listing(problems showProblems: Bool = true) -> String {
        var lines: [String] = []
        if banks.isEmpty { lines.append("no sample banks (podium play --samples DIR; Debian's hydrogen-data gives the default kits)") }
        for b in banks {
            let files = b.sounds.values.reduce(0) { $0 + $1.count }
            lines.append("\(b.name) (\(b.kind.rawValue), \(b.root)): \(b.sounds.count) names, \(files) files")
            let reverse = Dictionary(grouping: b.aliases.keys.sorted(), by: { b.aliases[$0]! })
            let names = b.sounds.keys.sorted().map { n -> String in
                let count = b.sounds[n]!.count
                let short = reverse[n].map { " = " + $0.joined(separator: " ") } ?? ""
                return count > 1 ? "\(n):\(count)\(short)" : "\(n)\(short)"
            }
            lines.append("  " + names.joined(separator: "  "))
            if showProblems { for p in b.problems { lines.append("  refused: \(p)") } }
        }
        if showProblems { for p in problems { lines.append("refused: \(p)") } }
        return lines.joined(separator: "\n")
    }
}
