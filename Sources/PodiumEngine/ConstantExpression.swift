import Foundation

/// A constant arithmetic expression as Csound writes one (`2^28`, `4096*4`, `(1+2)*3`):
/// numbers, `+ - * / % ^`, unary minus and parentheses, grouped as Csound groups them. Nil for anything else (a variable, a
/// function call): such a value is known only when Csound computes it.
public enum ConstantExpression {
    public static func value(_ text: String) -> Double? {
        var p = Parser(chars: Array(text.unicodeScalars.filter { $0 != " " && $0 != "\t" }))
        guard let v = p.sum(), p.i == p.chars.count, !v.isNaN else { return nil }
        return v
    }

    private struct Parser {
        let chars: [Unicode.Scalar]
        var i = 0
        var depth = 0

        mutating func sum() -> Double? {
            guard var v = product() else { return nil }
            while i < chars.count, chars[i] == "+" || chars[i] == "-" {
                let op = chars[i]; i += 1
                guard let r = product() else { return nil }
                v = op == "+" ? v + r : v - r
            }
            return v
        }

        mutating func product() -> Double? {
            guard var v = power() else { return nil }
            while i < chars.count, chars[i] == "*" || chars[i] == "/" || chars[i] == "%" {
                let op = chars[i]; i += 1
                guard let r = power() else { return nil }
                v = op == "*" ? v * r : op == "/" ? v / r : v.truncatingRemainder(dividingBy: r)
            }
            return v
        }

        /// `^` groups to the left, as in Csound (2^3^2 is 64), below unary minus (-2^2 is 4).
        mutating func power() -> Double? {
            guard var v = unary() else { return nil }
            while i < chars.count, chars[i] == "^" {
                i += 1
                guard let exponent = unary() else { return nil }
                v = pow(v, exponent)
            }
            return v
        }

        mutating func unary() -> Double? {
            if i < chars.count, chars[i] == "-" { i += 1; return unary().map { -$0 } }
            if i < chars.count, chars[i] == "+" { i += 1; return unary() }
            if i < chars.count, chars[i] == "(" {
                guard depth < 64 else { return nil }
                i += 1; depth += 1
                guard let v = sum(), i < chars.count, chars[i] == ")" else { return nil }
                i += 1; depth -= 1
                return v
            }
            let start = i
            while i < chars.count, ("0"..."9").contains(chars[i]) || chars[i] == "." { i += 1 }
            if i < chars.count, chars[i] == "e" || chars[i] == "E", i > start {
                var k = i + 1
                if k < chars.count, chars[k] == "-" || chars[k] == "+" { k += 1 }
                if k < chars.count, ("0"..."9").contains(chars[k]) {
                    i = k
                    while i < chars.count, ("0"..."9").contains(chars[i]) { i += 1 }
                }
            }
            guard i > start else { return nil }
            return Double(String(String.UnicodeScalarView(chars[start..<i])))
        }
    }
}
