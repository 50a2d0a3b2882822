import Foundation

/// A Hydrogen drum kit's `drumkit.xml`: its name, and each instrument's name with the files of
/// its velocity layers. Only these few elements are read (the file's schema is fixed and
/// simple; nothing else in it matters to the sampler).
struct HydrogenKit: Equatable {
    struct Instrument: Equatable {
        var name: String
        /// Layer files, loudest first (the layer Hydrogen plays at the highest velocity).
        var files: [String]
    }
    var name: String
    var instruments: [Instrument]

    /// Parses `drumkit.xml`'s text; nil when it holds no kit.
    static func parse(_ xml: String) -> HydrogenKit? {
        guard let list = section(xml, "instrumentList") else { return nil }
        let kitName = element(String(xml[..<(xml.range(of: "<instrumentList")?.lowerBound ?? xml.endIndex)]), "name") ?? ""
        var instruments: [Instrument] = []
        for block in sections(list, "instrument") {
            guard let name = element(block, "name"), !name.isEmpty else { continue }
            var layers: [(file: String, max: Double)] = []
            for layer in sections(block, "layer") {
                guard let file = element(layer, "filename"), !file.isEmpty else { continue }
                layers.append((file, element(layer, "max").flatMap(Double.init) ?? 1))
            }
            // Older kits name one file per instrument, outside any layer.
            if layers.isEmpty, let file = element(block, "filename"), !file.isEmpty { layers.append((file, 1)) }
            guard !layers.isEmpty else { continue }
            let ordered = layers.enumerated().sorted { ($0.element.max, $0.offset) > ($1.element.max, $1.offset) }.map(\.element.file)
            instruments.append(Instrument(name: name, files: ordered))
        }
        return instruments.isEmpty ? nil : HydrogenKit(name: kitName, instruments: instruments)
    }

    /// The inner texts of every `<tag>…</tag>` (not nested in one another).
    static func sections(_ text: Substring, _ tag: String) -> [Substring] {
        var found: [Substring] = []
        var rest = text
        while let open = rest.range(of: "<\(tag)"), let gt = rest[open.upperBound...].firstIndex(of: ">") {
            let next = rest[open.upperBound]
            guard next == ">" || next == " " else { rest = rest[open.upperBound...]; continue }
            let content = rest.index(after: gt)
            guard let close = rest[content...].range(of: "</\(tag)>") else { break }
            found.append(rest[content..<close.lowerBound])
            rest = rest[close.upperBound...]
        }
        return found
    }

    static func section(_ text: String, _ tag: String) -> Substring? { sections(text[...], tag).first }

    /// The first `<tag>value</tag>`'s value, entities decoded.
    static func element<S: StringProtocol>(_ text: S, _ tag: String) -> String? {
        guard let open = text.range(of: "<\(tag)>"), let close = text[open.upperBound...].range(of: "</\(tag)>") else { return nil }
        return unescape(String(text[open.upperBound..<close.lowerBound])).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func unescape(_ s: String) -> String {
        guard s.contains("&") else { return s }
        return s.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
