import PodiumPatterns

/// A pattern's refusal as a performer reads it: the line at fault with a caret under the column.
///
///     d1 $ s "bd*2 [sn"
///                  ^ column 14: unclosed "["
public enum PatternErrorText {
    // Thread: any
    public static func show(_ e: PatternError, in text: String, source: String? = nil) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let where_ = (source.map { "\($0):" } ?? "") + (lines.count > 1 || source != nil ? "\(e.line):" : "") + "\(e.column): "
        guard e.line >= 1, e.line <= lines.count else { return where_ + e.message }
        let line = lines[e.line - 1]
        let caret = String(repeating: " ", count: max(0, min(e.column - 1, line.count))) + "^"
        return "\(line)\n\(caret) \(where_)\(e.message)"
    }
}
