/// Tidal's `let` bindings and `do` blocks, as performers write them in a set:
///
///     let melody = "0 2 4 <7 9>"
///     do
///       d1 $ n (scale "major" melody) # s "superpiano"
///       d2 $ s "bd*4"
///
/// A binding names a value (a pattern, a number, a function as `fast 2`); the name stands for
/// its expression in every statement after it, as in GHCi. A function of its own arguments
/// (`let chopped n = chop n . (# legato 1)`) is the lambda `\n -> …`.

// Thread: any (all of this file)

extension PatternLanguage {
    /// `let name = expression`, checked: the name is new to Tidal's statements and the
    /// expression evaluates with the bindings made before it.
    func letBinding(_ lines: [Substring], row: Int, indent: Int) throws(PatternError) -> PatternStatement {
        let first = lines[row].dropFirst(indent + 3)
        let spaces = first.prefix { $0 == " " || $0 == "\t" }.count
        let afterLet = first.dropFirst(spaces)
        let name = String(afterLet.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "'" })
        let nameColumn = indent + 3 + spaces + 1
        guard spaces > 0, let initial = name.first, initial.isLowercase || initial == "_" else {
            throw PatternError("`let` needs a name and a value: `let pat = \"bd sn\"`", column: nameColumn, line: row + 1)
        }
        var rest = afterLet.dropFirst(name.count)
        var gap = rest.prefix { $0 == " " || $0 == "\t" }.count
        // `let f x y = …`: its arguments' names, before `=`.
        var arguments: [String] = []
        while let c = rest.dropFirst(gap).first, c.isLowercase || c == "_" {
            let argument = rest.dropFirst(gap).prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "'" }
            if argument != "_", arguments.contains(String(argument)) || argument == name {
                throw PatternError("`\(argument)` is named twice in `let \(name) …`", column: nameColumn + afterLet.count - rest.count + gap, line: row + 1)
            }
            arguments.append(String(argument))
            rest = rest.dropFirst(gap + argument.count)
            gap = rest.prefix { $0 == " " || $0 == "\t" }.count
        }
        let consumed = afterLet.count - rest.count  // the name and the arguments
        guard rest.dropFirst(gap).first == "=", rest.dropFirst(gap + 1).first != "=" else {
            let column = nameColumn + consumed + gap
            throw PatternError("`let \(name)\(arguments.map { " " + $0 }.joined())` needs `=` and a value: `let \(name) = \"bd sn\"`, `let double f = f . f`",
                               column: column, line: row + 1)
        }
        if Builtins.statementWords.contains(name) || PatternLanguage.transitionArguments[name] != nil {
            throw PatternError("`\(name)` is one of Tidal's statements: choose another name", column: nameColumn, line: row + 1)
        }
        // The value's text: the rest of the line after `=`, and the lines after it.
        let valueColumn = nameColumn + consumed + gap + 1
        // A function's arguments become a lambda's, before the value on its first line.
        let lambda = arguments.isEmpty ? "" : "\\" + arguments.joined(separator: " ") + " -> "
        let body = ([String(rest.dropFirst(gap + 1))] + lines[(row + 1)...].map(String.init)).joined(separator: "\n")
        let text = lambda + body
        guard !body.allSatisfy(\.isWhitespace) else {
            throw PatternError("`let \(name) =` needs a value", column: valueColumn, line: row + 1)
        }
        do {
            var others = self
            others.bindings[name] = nil
            let ev = ExpressionEvaluator(extraControls: extraControls, bindings: others.bindings)
            let expression = try ExpressionParser.parse(text)
            let value = try ev.evaluate(expression)
            // A string's mini-notation is read when its kind is known: read it now as words,
            // so that its syntax errors are said here, not where it is used.
            if case .string = expression { _ = try ev.coerce(value, to: .string, "the value") }
        } catch {
            // Where the value is in the statement: its first line starts after `=`.
            var e = error
            if e.line == 1 { e.column += valueColumn - 1 - lambda.count }
            e.line += row
            throw e
        }
        return .binding(name: name, text: text)
    }

    /// `do` and its statements, each indented under it (or the first on `do`'s own line).
    static func doBlock(_ lines: [Substring], row: Int, indent: Int) throws(PatternError) -> PatternStatement {
        let rest = lines[row].dropFirst(indent + 2)
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else {
            throw PatternError("`do` begins a block: `do` alone on its line, each statement indented under it", column: indent + 1, line: row + 1)
        }
        // The body's lines, the first one being what follows `do` on its line, if anything.
        var body: [String] = []
        var firstLine = row + 2
        let after = rest.drop { $0 == " " || $0 == "\t" }
        if !after.isEmpty {
            body.append(String(repeating: " ", count: lines[row].count - after.count) + after)
            firstLine = row + 1
        }
        body += lines[(row + 1)...].map(String.init)
        let margins = body.filter { !$0.allSatisfy(\.isWhitespace) }.map { $0.prefix { $0 == " " || $0 == "\t" }.count }
        guard let margin = margins.min() else {
            throw PatternError("`do` needs statements under it, indented", column: indent + 1, line: row + 1)
        }
        guard margin > indent else {
            throw PatternError("a `do` block's statements are indented further than `do`", column: margin + 1, line: row + 2)
        }
        return .block(body: body.map { $0.allSatisfy(\.isWhitespace) ? "" : String($0.dropFirst(margin)) }.joined(separator: "\n"), firstLine: firstLine, margin: margin)
    }
}

extension ExpressionEvaluator {
    /// A `let` name's value: its expression evaluated with the bindings made before it (not
    /// with itself: `let x = x` is unknown, not a loop). An error inside it is said at the use.
    func bound(_ name: String, _ pos: SourcePosition) throws(PatternError) -> RuntimeValue {
        var inner = self
        inner.values = [:]  // (a `let` is the statement's: it sees no lambda's parameters)
        let text = inner.bindings.removeValue(forKey: name) ?? ""
        do {
            return try inner.evaluate(try ExpressionParser.parse(text))
        } catch {
            throw PatternError("in `\(name)` (let \(name) = …): \(error.message)", column: pos.column, line: pos.line)
        }
    }
}
