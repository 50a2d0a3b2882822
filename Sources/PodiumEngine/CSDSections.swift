import Foundation

/// The sections of a `.csd` file.
public struct CSDSections: Sendable {
    public var options: String = ""
    public var orchestra: String = ""
    public var score: String = ""

    public init(_ text: String) {
        options = CSDSections.section("CsOptions", in: text)
        orchestra = CSDSections.section("CsInstruments", in: text)
        score = CSDSections.section("CsScore", in: text)
    }

    static func section(_ tag: String, in text: String) -> String {
        guard let open = text.range(of: "<\(tag)"),
              let openEnd = text[open.upperBound...].firstIndex(of: ">"),
              let close = text.range(of: "</\(tag)>", range: openEnd..<text.endIndex) else { return "" }
        return String(text[text.index(after: openEnd)..<close.lowerBound])
    }
}

/// A CSD's structure, checked before Csound reads it: Csound 6.18 answers an empty file, a
/// missing `</CsInstruments>` or no `<CsInstruments>` with "parser: failed to open input file
/// (null)" or nothing at all. Each gets its own words and line here.
extension CSDSections {
    /// Throws a compile error naming what is wrong with the CSD's sections (nil: nothing).
    // Thread: any
    public static func check(_ text: String, source: String) throws(EngineError) {
        func fail(_ message: String, line: Int? = nil) -> EngineError {
            .compile(CompileFailure(source: source, diagnostics: ["error: \(message)" + (line.map { " (line \($0))" } ?? "")]))
        }
        if text.allSatisfy(\.isWhitespace) { throw fail("the file is empty: a CSD holds <CsoundSynthesizer> with <CsInstruments> (the orchestra) inside") }
        guard let start = lineOf("<CsoundSynthesizer>", in: text) else {
            throw fail("not a CSD file: no <CsoundSynthesizer> tag (an orchestra alone goes in a .orc file)")
        }
        guard let open = lineOf("<CsInstruments>", in: text) else {
            throw fail("no <CsInstruments> section: the orchestra goes between <CsInstruments> and </CsInstruments>", line: start)
        }
        guard lineOf("</CsInstruments>", in: text) != nil else {
            throw fail("<CsInstruments> is never closed: </CsInstruments> is missing", line: open)
        }
        if lineOf("</CsoundSynthesizer>", in: text) == nil {
            throw fail("<CsoundSynthesizer> is never closed: </CsoundSynthesizer> is missing", line: start)
        }
    }

    /// The orchestra of a file to compile into a running engine: a CSD's `<CsInstruments>`
    /// checked and placed at its own lines (blank lines before it), so that errors name the
    /// file's lines; any other file as it is.
    // Thread: any
    public static func orchestra(ofFile path: String) throws(EngineError) -> String {
        let text = try Engine.read(path)
        guard path.hasSuffix(".csd") else { return text }
        try check(text, source: path)
        guard let open = text.range(of: "<CsInstruments>"), let close = text.range(of: "</CsInstruments>") else { return "" }
        let before = text[..<open.upperBound].filter { $0 == "\n" }.count
        return String(repeating: "\n", count: before) + text[open.upperBound..<close.lowerBound]
    }

    /// The 1-based line a tag first appears on (nil: nowhere).
    public static func lineOf(_ tag: String, in text: String) -> Int? {
        guard let r = text.range(of: tag) else { return nil }
        return text[..<r.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    }
}

extension CompileFailure {
    /// The same failure with every line number Csound named moved by `delta` (in the message
    /// lines too). Csound 6.18 adds a CSD's `<CsInstruments>` line to the line numbers of every
    /// later compile into the same engine: those are moved back to the compiled text's own lines.
    public func shifted(by delta: Int) -> CompileFailure {
        guard delta != 0 else { return self }
        let moved = diagnostics.map { text -> String in
            var out = ""
            var rest = Substring(text)
            while let range = rest.range(of: "line", options: .caseInsensitive) {
                out += rest[..<range.upperBound]
                var tail = rest[range.upperBound...]
                let separator = tail.prefix { $0 == ":" || $0 == " " }
                tail = tail.dropFirst(separator.count)
                let digits = tail.prefix { $0.isNumber }
                out += separator
                if let n = Int(digits) { out += String(max(1, n + delta)) } else { out += digits }
                rest = tail.dropFirst(digits.count)
            }
            return out + rest
        }
        return CompileFailure(source: source, diagnostics: moved)
    }
}
