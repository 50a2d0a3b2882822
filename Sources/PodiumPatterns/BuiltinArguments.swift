/// What a built-in function takes, one parameter at a time.
enum Parameter: Sendable {
    /// A pattern of this kind (`fast`'s first: `.time`; `every`'s first: `.int`).
    case pattern(PatternKind)
    /// The pattern being transformed: any kind, the same as the result's.
    case same
    /// A function from a pattern to a pattern of the result's kind (`every 3 (fast 2)`).
    case function
    /// A list of patterns of the result's kind (`stack [ … ]`).
    case list
    /// A list of (weight, pattern) pairs (`timecat [(1, s "bd*4"), (1, s "hh27*8")]`).
    case weightedList
    /// A string literal (`pF "name"`).
    case text
    /// A plain number (a literal, or arithmetic on literals).
    case number
    /// A pair of plain numbers (`zoom (0.25, 0.75)`).
    case pair
    /// A list of plain values of the result's kind (`choose ["bd", "sn"]`, `fit 1 [0, 2, 7]`).
    case values
    /// A list of plain numbers (`spaceOut [1, 0.5]`, `toScale [0, 2, 7]`).
    case numbers
    /// A list of functions (`layer [rev, fast 2]`, `jux' [id, rev]`).
    case functions
    /// A list of (plain value, weight) pairs (`wchoose [("bd", 1), ("sn", 0.5)]`).
    case weightedValues
    /// A list of (pattern, weight) pairs (`wrandcat [(s "bd*2", 1), (s "hh*4", 2)]`).
    case patternWeights
    /// A function given each value of the next parameter's list, then the pattern (`spread`'s
    /// `fast` in `spread fast [1, 2]`, or `($)` for a list of functions).
    case spreader
    /// The list `spreader`'s function is given, one value at a time.
    case spreadValues
    /// A name for Tidal's bookkeeping (`qtrigger 1`): any literal, not used.
    case key
    /// A list of (start, stop, pattern) (`seqP [(0, 4, s "bd*2"), (2, 6, s "hh*4")]`).
    case triples
    /// A list of (name, pattern) pairs (`ur`'s and `inhabit`'s `[("a", s "bd*4")]`).
    case namedPatterns
    /// A list of (name, function) pairs (`ur`'s `[("double", fast 2)]`).
    case namedFunctions
    /// A list of lists of plain numbers (`markovPat`'s transition matrix `[[3, 5], [1, 1]]`).
    case matrix
    /// A list of (name, plain value) pairs (`swap`'s `[("a", "bd"), ("b", "sn")]`), the values of
    /// the result's kind.
    case valuePairs
    /// A list of pairs of strings, read as written (`steps`' `[("bd", "x~x~")]`).
    case textPairs
    /// A test of a number (`when`'s `(> 3)`, `even`, `((== 0) . (`mod` 4))`, `(`elem` [1, 3])`).
    case predicate
    /// A function of two patterns (`snowball`'s `(+)`, `(#)`, `overlay`).
    case combiner
    /// A function from a time to a number (`sig fromRational`, `sig ((* 2) . fromRational)`).
    case numberFunction
    /// A pattern of values, each given to the `spreader` before it, the result bound with the
    /// pattern after it (`spread'`'s `"1 2"` in `spread' fast "1 2" $ s "bd sn"`).
    case bindValues
    /// A test of two values (`contrastBy`'s `(>=)`, `\a v -> v > a`).
    case valueTest
    /// A map of control names to (low, high) pairs (`contrastRange`'s
    /// `(pure $ Map.fromList [("n", (VN 0, VN 3))])`).
    case ranges
    /// A function of a list of events that reorders, repeats or drops them (`arpWith`'s
    /// `reverse`, `take 2`, `\x -> x ++ reverse x`).
    case listFunction
}

/// A built-in's arguments, each ready for the function it runs.
enum BuiltinArgument {
    case pattern(Pattern<ControlMap>)
    case function(@Sendable (Pattern<ControlMap>) -> Pattern<ControlMap>)
    case patterns([Pattern<ControlMap>])
    case weighted([(Time, Pattern<ControlMap>)])
    case text(String)
    case number(Time)
    case pair(Time, Time)
    case values([ControlMap])
    case numbers([Time])
    case functions([@Sendable (Pattern<ControlMap>) -> Pattern<ControlMap>])
    case weightedValues([(ControlMap, Double)])
    case patternWeights([(Pattern<ControlMap>, Double)])
    /// `spread`'s patterns: the function given each value, then the pattern.
    case applied([Pattern<ControlMap>])
    case triples([(Time, Time, Pattern<ControlMap>)])
    case namedPatterns([(String, Pattern<ControlMap>)])
    case namedFunctions([(String, @Sendable (Pattern<ControlMap>) -> Pattern<ControlMap>)])
    case matrix([[Double]])
    case valuePairs([(String, ControlMap)])
    case textPairs([(String, String)])
    case predicate(@Sendable (Time) -> Bool)
    case numberFunction(@Sendable (Time) -> Double)
    case combiner(@Sendable (Pattern<ControlMap>, Pattern<ControlMap>) -> Pattern<ControlMap>)
    case valueTest(@Sendable (Value, Value) -> Bool)
    case ranges([String: (Value, Value)])
    /// For a list of this many events, the events it gives, by their place in the list.
    case listFunction(@Sendable (Int) -> [Int])
    /// Taken with the next parameter (`spreader`).
    case none
}

/// The arguments, read by position and as the type the transformation wants.
struct BuiltinArguments {
    var items: [BuiltinArgument]
    /// Where the function's name is (for errors the transformation raises).
    var position: SourcePosition
    /// Where the statement's pattern takes over (the triggers'); nil: cycle 0.
    var trigger: TriggerStart? = nil
    /// The performance's controller values (`cF` …); nil outside one (their defaults).
    var controllers: ControllerValues? = nil

    // Thread: any (all of this type)
    func p(_ i: Int) -> Pattern<ControlMap> { if case let .pattern(p) = items[i] { return p }; return .silence }
    func f(_ i: Int) -> @Sendable (Pattern<ControlMap>) -> Pattern<ControlMap> {
        if case let .function(f) = items[i] { return f }; return { $0 }
    }
    func list(_ i: Int) -> [Pattern<ControlMap>] { if case let .patterns(p) = items[i] { return p }; return [] }
    func weighted(_ i: Int) -> [(Time, Pattern<ControlMap>)] { if case let .weighted(p) = items[i] { return p }; return [] }
    func text(_ i: Int) -> String { if case let .text(s) = items[i] { return s }; return "" }
    func number(_ i: Int) -> Time { if case let .number(t) = items[i] { return t }; return .zero }
    func pair(_ i: Int) -> (Time, Time) { if case let .pair(s, e) = items[i] { return (s, e) }; return (.zero, .zero) }
    func plainValues(_ i: Int) -> [ControlMap] { if case let .values(v) = items[i] { return v }; return [] }
    func numbers(_ i: Int) -> [Time] { if case let .numbers(v) = items[i] { return v }; return [] }
    func matrix(_ i: Int) -> [[Double]] { if case let .matrix(v) = items[i] { return v }; return [] }
    func valuePairs(_ i: Int) -> [(String, ControlMap)] { if case let .valuePairs(v) = items[i] { return v }; return [] }
    func textPairs(_ i: Int) -> [(String, String)] { if case let .textPairs(v) = items[i] { return v }; return [] }
    func predicate(_ i: Int) -> @Sendable (Time) -> Bool { if case let .predicate(f) = items[i] { return f }; return { _ in false } }
    func numberFunction(_ i: Int) -> @Sendable (Time) -> Double { if case let .numberFunction(f) = items[i] { return f }; return { _ in 0 } }
    func combiner(_ i: Int) -> @Sendable (Pattern<ControlMap>, Pattern<ControlMap>) -> Pattern<ControlMap> {
        if case let .combiner(f) = items[i] { return f }; return { a, _ in a }
    }
    func valueTest(_ i: Int) -> @Sendable (Value, Value) -> Bool { if case let .valueTest(f) = items[i] { return f }; return { _, _ in false } }
    func ranges(_ i: Int) -> [String: (Value, Value)] { if case let .ranges(r) = items[i] { return r }; return [:] }
    func listFunction(_ i: Int) -> @Sendable (Int) -> [Int] { if case let .listFunction(f) = items[i] { return f }; return { Array(0..<$0) } }
    /// A list of plain numbers as whole numbers (floored, clamped).
    func ints(_ i: Int) -> [Int] { numbers(i).map { Int(clamping: $0.floorInt) } }
    func fs(_ i: Int) -> [@Sendable (Pattern<ControlMap>) -> Pattern<ControlMap>] { if case let .functions(f) = items[i] { return f }; return [] }
    func weightedValues(_ i: Int) -> [(ControlMap, Double)] { if case let .weightedValues(v) = items[i] { return v }; return [] }
    func patternWeights(_ i: Int) -> [(Pattern<ControlMap>, Double)] { if case let .patternWeights(v) = items[i] { return v }; return [] }
    func applied(_ i: Int) -> [Pattern<ControlMap>] { if case let .applied(v) = items[i] { return v }; return [] }
    func triples(_ i: Int) -> [(Time, Time, Pattern<ControlMap>)] { if case let .triples(v) = items[i] { return v }; return [] }
    func namedPatterns(_ i: Int) -> [(String, Pattern<ControlMap>)] { if case let .namedPatterns(v) = items[i] { return v }; return [] }
    func namedFunctions(_ i: Int) -> [(String, @Sendable (Pattern<ControlMap>) -> Pattern<ControlMap>)] {
        if case let .namedFunctions(v) = items[i] { return v }; return []
    }
    /// A plain-valued argument as a pattern of the value itself.
    func values(_ i: Int) -> Pattern<Value> { p(i).map { $0[plainValueKey] ?? .int(0) } }
    func time(_ i: Int) -> Pattern<Time> { p(i).map { Builtins.time($0[plainValueKey]) } }
    func int(_ i: Int) -> Pattern<Int> { p(i).map { Builtins.int($0[plainValueKey]) } }
    func double(_ i: Int) -> Pattern<Double> { p(i).map { $0[plainValueKey]?.number ?? 0 } }
    func bool(_ i: Int) -> Pattern<Bool> {
        p(i).map { v in if case let .bool(b) = v[plainValueKey] { return b }; return (v[plainValueKey]?.number ?? 0) != 0 }
    }
}
