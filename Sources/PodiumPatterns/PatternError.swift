/// A pattern the engine refuses, with where: the 1-based column (and line, for a block) of the
/// character at fault, counted in the text the performer typed.
public struct PatternError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var column: Int
    public var line: Int

    // Thread: any
    public init(_ message: String, column: Int, line: Int = 1) {
        self.message = message; self.column = column; self.line = line
    }

    public var description: String { line > 1 ? "line \(line), column \(column): \(message)" : "column \(column): \(message)" }
}
