import PodiumRealtime

/// How many p-fields an instrument reads, from its orchestra text (`p5`, `p(5)` is not
/// counted: a computed index cannot be read without running it). The chord and scale helpers
/// give an instrument every p-field it reads, so that Csound does not warn once per note
/// ("instr 1 uses 5 p-fields but is given 4") for fields the demo treats as optional (0: default).
public enum PFields {
    /// The highest p-field number the last definition of `instrument` mentions (nil: not found).
    // Thread: any
    public static func used(by instrument: ScoreLine.Instrument, in orchestras: [String]) -> Int? {
        let wanted: String
        switch instrument {
        case let .number(n): wanted = String(Int(n.magnitude))
        case let .name(s): wanted = s
        }
        var found: Int?
        for text in orchestras {
            var inside = false
            var highest = 3
            for raw in text.split(whereSeparator: \.isNewline) {
                var line = Substring(raw)
                if let c = line.firstIndex(of: ";") { line = line[..<c] }
                if let c = line.range(of: "//") { line = line[..<c.lowerBound] }
                let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
                if words.first == "instr" {
                    inside = words.dropFirst().contains { $0.drop(while: { $0 == "+" }) == Substring(wanted) }
                    highest = 3
                } else if inside, words.first == "endin" {
                    found = highest
                    inside = false
                } else if inside {
                    highest = max(highest, highestPField(in: line))
                }
            }
        }
        return found
    }

    /// The highest `pN` token in a line of code (3 when there is none).
    static func highestPField(in line: Substring) -> Int {
        var highest = 3
        let chars = Array(line.utf8)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            let startsWord = i == 0 || !isIdentifier(chars[i - 1])
            if c == UInt8(ascii: "p"), startsWord {
                var j = i + 1
                var n = 0
                while j < chars.count, chars[j] >= 48, chars[j] <= 57, n < 10_000 { n = n * 10 + Int(chars[j] - 48); j += 1 }
                if j > i + 1, j == chars.count || !isIdentifier(chars[j]) { highest = max(highest, n) }
                i = j
            } else {
                i += 1
            }
        }
        return highest
    }

    static func isIdentifier(_ c: UInt8) -> Bool {
        (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 95
    }

    /// The statement with zeros for the p-fields its instrument reads but was not given.
    public static func padded(_ statement: ScoreLine, orchestras: [String]) -> ScoreLine {
        guard case let .event(instrument, fields) = statement,
              let used = used(by: instrument, in: orchestras), used > fields.count + 1, used <= Command.maxPFields else { return statement }
        return .event(instrument: instrument, fields: fields + Array(repeating: 0, count: used - fields.count - 1))
    }
}
