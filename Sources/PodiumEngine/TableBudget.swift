/// Tables and arrays too big to build: refused before anything computes or allocates them.
/// `giX ftgen N, 0, SIZE, …` (and `ftgenonce`, `ftgentmp`) takes 8 bytes a point, an array
/// `xArr[] init D1[, D2 …]` 8 bytes an element; when the size is written as a constant
/// (`2^28`) and the whole would pass `CompileLimits.tableBytes`, the compile is refused with
/// the line. (A size computed by the code is known only when it runs: the check child's memory
/// limit bounds it.) `ftgen 0, 0, 2^28, 10, 1` from OSC froze that surface for 24.5 s.
public enum TableBudget {
    /// The first line whose table or array would pass `limit` bytes: (line, bytes, what).
    public static func firstOver(_ text: String, limit: Int) -> (line: Int, bytes: Double, what: String)? {
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = raw.prefix { $0 != ";" }.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            guard let bytes = bytes(Substring(code)), bytes > Double(limit) else { continue }
            return (n + 1, bytes, code.trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// What one line's table or array takes, when its size is a constant.
    static func bytes(_ code: Substring) -> Double? {
        for opcode in ["ftgenonce", "ftgentmp", "ftgen"] {
            guard let after = argumentsAfter(opcode, in: code) else { continue }
            let args = after.split(separator: ",", omittingEmptySubsequences: false)
            guard args.count >= 3, let size = ConstantExpression.value(String(args[2])), size > 0 else { return nil }
            return size * 8
        }
        let words = code.split(whereSeparator: { $0 == " " || $0 == "\t" })
        if words.count >= 2, words[0].hasSuffix("[]"), let after = argumentsAfter("init", in: code) {
            let dims = after.split(separator: ",").map { ConstantExpression.value(String($0)) }
            guard !dims.isEmpty, dims.allSatisfy({ ($0 ?? 0) > 0 }) else { return nil }
            return dims.reduce(8.0) { $0 * $1! }
        }
        return nil
    }

    /// The text after `opcode` used as a whole word (`gi1 ftgen 0, …` or `gi1 = ftgen(0, …)`),
    /// without the call's parentheses.
    static func argumentsAfter(_ opcode: String, in code: Substring) -> Substring? {
        var rest = code[...]
        while let r = rest.range(of: opcode) {
            let before = r.lowerBound == code.startIndex ? nil : code[code.index(before: r.lowerBound)]
            let after = r.upperBound == code.endIndex ? nil : code[r.upperBound]
            func word(_ c: Character?) -> Bool { c.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false }
            if !word(before) && !word(after) {
                var args = code[r.upperBound...].drop { $0 == " " || $0 == "\t" }
                if args.first == "(" { args = args.dropFirst(); if let close = args.lastIndex(of: ")") { args = args[..<close] } }
                return args
            }
            rest = code[r.upperBound...]
        }
        return nil
    }
}
