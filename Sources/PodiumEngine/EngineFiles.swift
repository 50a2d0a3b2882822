import Foundation

// An engine's files: where Csound finds what an orchestra names (beside it, as the csound CLI),
// reading orchestra text, and the lines worth showing of a failed compile.
extension Engine {

    /// Adds a file's directory to Csound's search paths for sound files, analysis files and includes.
    public func searchBeside(_ path: String) throws {
        for option in Engine.searchOptions(beside: path) {
            try api.setOption(option)
            appliedOptions.append(option)
        }
    }

    /// The options that make Csound find files beside `path` (as the csound CLI does).
    public static func searchOptions(beside path: String) -> [String] {
        let dir = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path
        return ["SSDIR", "SFDIR", "SADIR", "INCDIR"].map { "--env:\($0)+=\(dir)" }
    }

    /// The options that make Csound find the files of an engine made from `source`.
    public static func searchOptions(forSource source: EngineSource) -> [String] {
        switch source {
        case let .csd(path), let .orchestra(path, _): return searchOptions(beside: path)
        case .text: return []
        }
    }

    /// What Csound's parser makes of orchestra text in this engine (not started): its return
    /// code (0 compiled, negative: errors, positive: it left by longjmp) and its error lines.
    /// For `podium check`, which runs it in a child process (see `OrchestraCheck`).
    // Thread: NRT (owner), before start
    public func parse(_ text: String) -> (code: Int32, diagnostics: [String]) {
        let (rc, lines) = console.capturing { api.compileOrc(text) }
        return (rc, Engine.errors(lines))
    }

    /// A text file, with an error that says what is wrong in a performer's words.
    public static func read(_ path: String) throws(EngineError) -> String {
        var directory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &directory) else { throw EngineError.unreadable(path: path, reason: "no such file") }
        guard !directory.boolValue else { throw EngineError.unreadable(path: path, reason: "it is a directory") }
        guard FileManager.default.isReadableFile(atPath: path) else { throw EngineError.unreadable(path: path, reason: "permission denied") }
        guard let data = FileManager.default.contents(atPath: path) else { throw EngineError.unreadable(path: path, reason: "it cannot be read") }
        // A binary file is refused; text with a stray byte of another encoding (a Latin-1 "é"
        // in a comment) is read with that byte replaced (U+FFFD): Csound itself reads bytes.
        if let nul = data.firstIndex(of: 0) {
            let line = data[..<nul].reduce(1) { $1 == 10 ? $0 + 1 : $0 }
            throw EngineError.unreadable(path: path, reason: "it is not text (a NUL byte on line \(line): a binary file?)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The lines worth showing for a failed compile: errors, and the context Csound prints with them.
    static func errors(_ lines: [ConsoleLine]) -> [String] {
        let texts = lines.map { $0.text.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let noise = ["UnifiedCSD:", "STARTING FILE", "Creating options", "Creating orchestra", "Elapsed time",
                     "end of score", "errors in performance", "--Csound version", "libsndfile", "sr = ", "0dBFS level"]
        return texts.filter { t in !noise.contains { t.contains($0) } }
    }
}
