import Foundation

/// One bank of samples by name, indexed (nothing decoded): a Dirt-Samples folder (a sub-folder
/// per name, its sound files in sorted order), a Strudel `strudel.json` with local paths, or a
/// Hydrogen drum kit (`drumkit.xml`: each instrument a name, its velocity layers loudest first,
/// and the short names live coders type, `bd` `sn` `hh`…, on its instruments).
///
/// Every file is checked to lie inside the bank's folder once symlinks are resolved: a name
/// that would leave it (`..`, `/`, a link out) is refused with a message, and nothing outside
/// the banks is ever read.
public struct SampleBank: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case folders = "folders", strudel = "strudel.json", hydrogen = "Hydrogen kit"
    }

    public var name: String
    /// The folder, symlinks resolved.
    public var root: String
    public var kind: Kind
    /// Name → its files (absolute, resolved), in the order `n` picks them.
    public var sounds: [String: [String]]
    /// Short names (`bd`) → a sound of this bank (`kick`).
    public var aliases: [String: String] = [:]
    /// What was refused while indexing, one message each.
    public var problems: [String] = []

    /// File name endings libsndfile reads.
    public static let extensions: Set<String> = ["wav", "wave", "flac", "aif", "aiff", "aifc", "ogg", "oga", "opus", "mp3", "caf", "w64", "rf64"]

    /// The banks at `path`: a folder of Hydrogen kits gives one bank per kit.
    public static func read(_ path: String) throws(SampleBankError) -> [SampleBank] {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDir) else { throw SampleBankError("\(path): no such folder") }
        if !isDir.boolValue {
            guard path.hasSuffix(".json") else { throw SampleBankError("\(path): not a folder of samples or a strudel.json") }
            return [try strudel(path)]
        }
        let root = resolved(path)
        if fm.fileExists(atPath: root + "/strudel.json") { return [try strudel(root + "/strudel.json")] }
        if fm.fileExists(atPath: root + "/drumkit.xml") { return [try hydrogen(root)] }
        let entries = (try? fm.contentsOfDirectory(atPath: root))?.sorted() ?? []
        let kits = entries.filter { fm.fileExists(atPath: root + "/" + $0 + "/drumkit.xml") }
        if !kits.isEmpty {
            var banks: [SampleBank] = []
            for kit in kits {
                do { banks.append(try hydrogen(root + "/" + kit)) } catch { continue }
            }
            guard !banks.isEmpty else { throw SampleBankError("\(path): no drum kit in it could be read") }
            return banks
        }
        return [try folders(root)]
    }

    /// A Dirt-Samples style folder.
    static func folders(_ root: String) throws(SampleBankError) -> SampleBank {
        let fm = FileManager.default
        var bank = SampleBank(name: (root as NSString).lastPathComponent, root: root, kind: .folders, sounds: [:])
        guard let entries = try? fm.contentsOfDirectory(atPath: root) else { throw SampleBankError("\(root): cannot be read") }
        for entry in entries.sorted() where !entry.hasPrefix(".") {
            let folder = root + "/" + entry
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: folder, isDirectory: &isDir), isDir.boolValue else { continue }
            guard let inside = bank.inside(folder, shown: entry) else { continue }
            guard validName(entry) else {
                bank.problems.append("\(entry): not a sound name a pattern can type (letters, digits, _ - . only); skipped")
                continue
            }
            let files = ((try? fm.contentsOfDirectory(atPath: inside)) ?? []).filter { !$0.hasPrefix(".") && isSoundFile($0) }.sorted()
            var paths: [String] = []
            for f in files { if let p = bank.inside(inside + "/" + f, shown: entry + "/" + f) { paths.append(p) } }
            if !paths.isEmpty { bank.sounds[entry] = paths }
        }
        guard !bank.sounds.isEmpty else { throw SampleBankError("\(root): no sub-folder with sound files in it (a bank is a folder per name: bd/, sn/, …)") }
        return bank
    }

    /// A Strudel `strudel.json`: `{"_base": "…", "bd": ["bd/1.wav", …], "piano": {"c3": "…"}}`,
    /// with paths inside the folder it lies in.
    static func strudel(_ file: String) throws(SampleBankError) -> SampleBank {
        let dir = resolved((file as NSString).deletingLastPathComponent.isEmpty ? "." : (file as NSString).deletingLastPathComponent)
        guard let data = FileManager.default.contents(atPath: file),
              let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw SampleBankError("\(file): not a JSON object of names and files")
        }
        var bank = SampleBank(name: (dir as NSString).lastPathComponent, root: dir, kind: .strudel, sounds: [:])
        var base = dir
        if let b = json["_base"] as? String, !b.isEmpty {
            if b.hasPrefix("http:") || b.hasPrefix("https:") || b.hasPrefix("github:") {
                throw SampleBankError("\(file): _base \(b) is on the network; Podium plays local files only (download the bank, then give its folder)")
            }
            let local = b.hasPrefix("file://") ? String(b.dropFirst("file://".count)) : b
            base = local.hasPrefix("/") ? local : dir + "/" + local
        }
        for key in json.keys.sorted() where !key.hasPrefix("_") {
            guard validName(key) else {
                bank.problems.append("\(key): not a sound name a pattern can type (letters, digits, _ - . only; no / or ..); skipped")
                continue
            }
            var relative: [String] = []
            switch json[key] {
            case let s as String: relative = [s]
            case let a as [Any]: relative = a.compactMap { $0 as? String }
            case let o as [String: Any]: relative = o.keys.sorted().flatMap { k -> [String] in
                    if let s = o[k] as? String { return [s] }
                    return (o[k] as? [Any])?.compactMap { $0 as? String } ?? []
                }
            default: break
            }
            var paths: [String] = []
            for r in relative {
                if r.hasPrefix("http:") || r.hasPrefix("https:") {
                    bank.problems.append("\(key): \(r) is on the network; skipped (Podium plays local files only)")
                    continue
                }
                let p = r.hasPrefix("/") ? r : base + "/" + r
                if let inside = bank.inside(p, shown: "\(key): \(r)") { paths.append(inside) }
            }
            if !paths.isEmpty { bank.sounds[key] = paths }
        }
        guard !bank.sounds.isEmpty else { throw SampleBankError("\(file): no sound in it names a local file inside \(dir)") }
        return bank
    }

    /// A Hydrogen drum kit's folder.
    static func hydrogen(_ root: String) throws(SampleBankError) -> SampleBank {
        guard let data = FileManager.default.contents(atPath: root + "/drumkit.xml"),
              let kit = HydrogenKit.parse(String(decoding: data, as: UTF8.self)) else {
            throw SampleBankError("\(root)/drumkit.xml: no instrument with a sample in it")
        }
        let folder = (root as NSString).lastPathComponent
        var bank = SampleBank(name: folder, root: root, kind: .hydrogen, sounds: [:])
        for instrument in kit.instruments {
            let name = slug(instrument.name)
            guard !name.isEmpty, bank.sounds[name] == nil else { continue }
            var paths: [String] = []
            for f in instrument.files {
                guard !f.contains("/") else {
                    bank.problems.append("\(instrument.name): \(f) is not a file of the kit's folder; skipped")
                    continue
                }
                if let p = bank.inside(root + "/" + f, shown: "\(instrument.name): \(f)") { paths.append(p) }
            }
            if !paths.isEmpty { bank.sounds[name] = paths }
        }
        bank.aliases = DrumNames.aliases(for: kit.instruments.map(\.name)).filter { bank.sounds[$0.value] != nil && bank.sounds[$0.key] == nil }
        guard !bank.sounds.isEmpty else { throw SampleBankError("\(root): none of the kit's samples is there") }
        return bank
    }

    /// `path` with its symlinks resolved, when it exists and lies inside the bank's folder; else
    /// nil, with the reason among the bank's problems.
    mutating func inside(_ path: String, shown: String) -> String? {
        guard FileManager.default.fileExists(atPath: path) else {
            problems.append("\(shown): no such file; skipped")
            return nil
        }
        let real = SampleBank.resolved(path)
        guard real.hasPrefix(root + "/") else {
            problems.append("\(shown): leaves the bank (it is \(real), outside \(root)); skipped")
            return nil
        }
        return real
    }

    static func resolved(_ path: String) -> String {
        guard let r = realpath(path, nil) else { return URL(fileURLWithPath: path).standardizedFileURL.path }
        defer { free(r) }
        return String(cString: r)
    }

    static func isSoundFile(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return extensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// A name a pattern can type and that stays a name (no path).
    public static func validName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("..")
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == ".") }
    }

    /// A kit instrument's name as a sound name: "Hand Clap" → `hand_clap`.
    public static func slug(_ name: String) -> String {
        var out = ""
        for c in name.lowercased() {
            if c.isASCII && (c.isLetter || c.isNumber) { out.append(c) } else if !out.isEmpty && out.last != "_" { out.append("_") }
        }
        while out.last == "_" { out.removeLast() }
        return out
    }
}

/// A bank that cannot be used at all (one that can, with some files refused, lists them in
/// `SampleBank.problems`).
public struct SampleBankError: Error, CustomStringConvertible, Equatable, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
