import Foundation

/// Debian's Tidal 1.7.10 as the oracle for patterns: one `ghci -v0` reads the prelude
/// (`tidal-oracle.ghci`: `evs N PATTERN` prints the onsets of the first N cycles as
/// `podium pattern` does) and every case, and answers each case's lines (nil: Tidal refused it).
enum TidalOracle {
    static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/ghci") }

    static var prelude: String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("tidal-oracle.ghci")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }

    /// Each case's lines as Tidal prints them, in the order given.
    static func events(_ cases: [(expression: String, cycles: Int)]) throws -> [[String]?] {
        var script = prelude
        for (i, c) in cases.enumerated() {
            script += "putStrLn \"@@BEGIN \(i)\"\n"
            script += "evs \(c.cycles) $ (\(c.expression))\n"
            script += "putStrLn \"@@END \(i)\"\n"
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ghci")
        process.arguments = ["-v0", "-ignore-dot-ghci"]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let bytes = Data(script.utf8)
        let writer = Thread {
            input.fileHandleForWriting.write(bytes)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let errorData = Box()
        let errorReader = Thread { errorData.data = errors.fileHandleForReading.readDataToEndOfFile() }
        errorReader.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        var results = [[String]?](repeating: nil, count: cases.count)
        var current: Int?
        var lines: [String] = []
        var failed = Set<Int>()
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("@@BEGIN ") { current = Int(line.dropFirst(8)); lines = []; continue }
            if line.hasPrefix("@@END "), let c = current {
                if !failed.contains(c) { results[c] = lines }
                current = nil
                continue
            }
            if current != nil { lines.append(String(line)) }
        }
        // A case whose expression did not type-check prints nothing between its markers and an
        // error on stderr; its lines stay empty, which a caller checks against its own refusal.
        _ = errorData
        return results
    }

    final class Box: @unchecked Sendable { var data = Data() }

    /// A line with its numbers in one spelling (Tidal prints `3.0`, Podium `3`), so lines are
    /// compared by value.
    static func normalize(_ line: String) -> String {
        line.split(separator: " ").map { token -> String in
            guard let eq = token.firstIndex(of: "=") else { return String(token) }
            let key = token[..<eq], value = token[token.index(after: eq)...]
            if let d = Double(value) {
                let r = (d * 1e9).rounded() / 1e9
                return "\(key)=\(r == r.rounded() && abs(r) < 1e15 ? String(Int64(r)) : String(r))"
            }
            return String(token)
        }.joined(separator: " ")
    }

    /// The two lists of lines hold the same events (in any order among equal starts).
    static func same(_ a: [String], _ b: [String]) -> Bool {
        a.map(normalize).sorted() == b.map(normalize).sorted()
    }
}
