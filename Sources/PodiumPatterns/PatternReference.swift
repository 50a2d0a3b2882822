/// The language as its reference and `:help` show it: each function's signature in Tidal's
/// notation, made from the built-in's own parameter list (`BuiltinsTable.swift`), and each
/// control's kind (`Controls`): generated from the tables the language runs on, so they cannot
/// drift from it.
public enum PatternReference {
    // Thread: any (all of this enum)

    /// Every function name the language takes, sorted.
    public static var functionNames: [String] { (Array(Builtins.table.keys) + Array(Builtins.constants.keys) + Array(haskellSignatures.keys)).sorted() }

    /// The Haskell names the evaluator knows beside Tidal's (`ExpressionHaskell.swift`).
    static let haskellSignatures: [String: String] = [
        "flip": "flip :: (a -> b -> c) -> b -> a -> c",
        "Arc": "Arc :: Time -> Time -> Arc",
        "Just": "Just :: a -> Maybe a",
        "Nothing": "Nothing :: Maybe a",
        "take": "take :: Int -> [a] -> [a]",
        "map": "map :: (a -> b) -> [a] -> [b]",
        "scaleList": "scaleList :: String",
        "fmap": "fmap :: (a -> b) -> Pattern a -> Pattern b",
        "lindenmayer": "lindenmayer :: Int -> String -> String -> String",
        "lindenmayerI": "lindenmayerI :: Num b => Int -> String -> String -> [b]",
        "reverse": "reverse :: [a] -> [a]",
        "init": "init :: [a] -> [a]",
        "tail": "tail :: [a] -> [a]",
        "drop": "drop :: Int -> [a] -> [a]",
        "concat": "concat :: [[a]] -> [a]",
        "++": "(++) :: [a] -> [a] -> [a]",
        "pure": "pure :: a -> Pattern a",
        "return": "return :: a -> Pattern a",
        "VF": "VF :: Double -> Value",
        "VN": "VN :: Note -> Value",
        "VI": "VI :: Int -> Value",
        "VR": "VR :: Rational -> Value",
        "VS": "VS :: String -> Value",
        "Map.fromList": "Map.fromList :: [(String, a)] -> Map String a",
        "Map.singleton": "Map.singleton :: String -> a -> Map String a",
    ]

    /// Names Tidal has that the language refuses by name ("… is not supported yet").
    public static var unsupportedNames: [String] { Builtins.unsupported.sorted() }

    /// `every :: Pattern Int -> (Pattern a -> Pattern a) -> Pattern a -> Pattern a`; nil for a
    /// name that is not a function.
    public static func signature(_ name: String) -> String? {
        if let h = haskellSignatures[name] { return h }
        // Signals and silence: patterns of whichever kind the context asks for.
        if Builtins.constants[name] != nil {
            if name == "True" || name == "False" { return "\(name) :: Bool" }
            return "\(name) :: " + (name == "silence" ? "Pattern a" : name == "brand" ? "Pattern Bool" : "Pattern n")
        }
        guard let b = Builtins.table[name] else { return nil }
        let result: String
        switch b.result {
        case .same: result = "Pattern a"
        case let .fixed(k): result = pattern(k)
        case .numeric: result = "Pattern n"
        }
        let display = name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "'" || $0 == "_" }) ? name : "(\(name))"
        return "\(display) :: " + (b.parameters.map(parameter) + [result]).joined(separator: " -> ")
    }

    /// What the most used functions do, in a line (the signature says what they take).
    public static let summaries: [String: String] = [
        "fast": "plays the pattern N times as fast (fast 2: twice a cycle)",
        "slow": "plays the pattern N times as slow (slow 2: over two cycles)",
        "hurry": "fast, and speed (pitch) up by the same factor",
        "scale": "scale degrees as semitones: n (scale \"major\" \"0 .. 7\"); 76 scales by Tidal's names",
        "arp": "a chord's notes one after another: arp \"updown\" \"c'maj e'min\"",
        "chop": "cuts each sample event into N parts over its span (begin and end)",
        "striate": "plays the pattern N times a cycle, each time the next of N parts of every sample",
        "loopAt": "fits a sample to N cycles: slows the pattern and sets speed and unit \"c\"",
        "stut": "N echoes, each later by the time and quieter by the feedback: stut 3 0.5 (1/8)",
        "rev": "plays each cycle backwards",
        "every": "every N cycles (from the first), applies the function: every 3 (fast 2)",
        "every'": "every N cycles, offset by O, applies the function",
        "whenmod": "when the cycle modulo A is at least B, applies the function",
        "when": "applies the function in the cycles whose number passes the test: when (> 3), when even, when ((== 0) . (`mod` 4))",
        "whenT": "applies the function where the time passes the test: whenT ((< 0.5) . cyclePos)",
        "ifp": "the first function in the cycles whose number passes the test, the second in the others",
        "snowball": "N cycles: the pattern, then each combined ((+), (#)) with the function applied once more",
        "spread'": "gives the function each value of a pattern, in its place: spread' fast \"1 2\"",
        "fmap": "the function applied to every value of the pattern, as <$>: fmap (\\x -> x * 2 + 1) sine",
        "map": "the function applied to each of a list's values: fastcat $ map (\\x -> n x # s \"superpiano\") [\"0 4\", \"7\"]",
        "lindenmayer": "the Nth generation of an L-system (rules \"a:ab,b:a\"), for step': take 16 $ lindenmayer 5 \"0:1~,1:0~2\" \"0\"",
        "sometimes": "applies the function to about half of the events (seeded: the same every time)",
        "sometimesBy": "applies the function to events with the given probability",
        "often": "applies the function to about 75 % of the events",
        "rarely": "applies the function to about 25 % of the events",
        "degrade": "drops about half of the events at random (as ? in mini-notation)",
        "degradeBy": "drops events with the given probability",
        "jux": "plays the function's version on the right and the original on the left (pan)",
        "superimpose": "plays the function's version on top of the original",
        "off": "plays the function's version on top, shifted later by the time",
        "iter": "shifts the start by 1/N of a cycle more each cycle",
        "ply": "repeats each event N times within its own time",
        "chunk": "applies the function to one 1/N part of the cycle, a different one each cycle",
        "euclid": "distributes K onsets over N steps (Bjorklund), as bd(3,8)",
        "stack": "plays the patterns at once",
        "cat": "plays one pattern per cycle, in turn",
        "fastcat": "squeezes the patterns into one cycle",
        "segment": "samples a continuous pattern N times a cycle",
        "range": "scales a 0–1 pattern (a signal) to the range low–high",
        "sine": "a sine wave from 0 to 1 over a cycle (continuous: give it structure with segment or #)",
        "rand": "a random number from 0 to 1 (continuous, seeded by time: the same every time)",
        "irand": "a random whole number from 0 to N−1",
        "struct": "takes its rhythm from a boolean pattern (\"t ~ t t\")",
        "mask": "keeps only the events where a boolean pattern is true",
        "<~": "shifts the pattern earlier by the time (0.25 <~ p)",
        "~>": "shifts the pattern later by the time",
        "linger": "repeats the first part of each cycle (linger 0.25: the first quarter)",
        "palindrome": "plays the pattern forwards, then backwards, in alternate cycles",
        "brak": "squashes every other cycle into half a cycle, shifted (a breakbeat feel)",
        "swingBy": "delays every other of N subdivisions by the amount",
        "step": "one sound per character: step \"bd\" \"x~x1\" (x the name, a digit its index bd:1, else a rest)",
        "pick": "a name and an index as \"bd:3\", over patterns: s (pick <$> \"bd sn\" <*> \"<0 1> 2\"), s (fmap (pick \"drum\") \"0 1 2\")",
        "samples": "names with an index: sound (samples \"bd sn\" \"<0 3>\") plays bd:0 sn:0, then bd:3 sn:3",
        "substruct": "each true event of the boolean pattern replaced by the whole pattern squeezed into it",
        "stretch": "each cycle zoomed to the span its events take, so that they fill the cycle",
        "soak": "the pattern, then f of it, then f of that… one a cycle: soak 4 (fast 2)",
        "gap": "chops each event in N parts and plays every other one",
        "smash": "striates in N parts, then plays them slowed by each factor in turn: smash 3 [2, 3, 4]",
        "distrib": "Euclidean rhythms within Euclidean rhythms: distrib [3, 5, 8] keeps 3 of the 5 of 8 steps",
        "degradeOverBy": "drops events at random as degradeBy does, the same for N cycles at a time",
        "tabby": "two patterns woven over and under, N threads a cycle: tabby 4 p1 p2 (over N cycles)",
        "permstep": "the values N steps a cycle, in shares the pattern chooses (0: the most even): permstep 8 [\"bd\", \"sn\"] (slow 4 saw)",
        "markovPat": "N steps a cycle walking a Markov chain from a state: markovPat 8 1 [[3,5,2], [4,4,2], [0,1,0]] (rows normalised)",
        "swap": "each value looked up by name: s (swap [(\"a\", \"bd\"), (\"b\", \"sn\")] \"a b\"); others are dropped",
        "smooth": "glides between a pattern's values: # cutoff (smooth \"200 800\")",
        "steps": "step for each (name, steps) pair, together: s (steps [(\"bd\", \"x~x~\"), (\"sn\", \"~x\")])",
        "fit'": "cuts the pattern into N parts by a pattern of part numbers and plays them in another order: fit' 1 2 \"0 1\" \"1 0\" $ s \"bd sn\"",
        "cF": "a controller's value set from outside (Tidal's /ctrl on the OSC port, a TouchOSC control, a stage-page widget), read at each query; the default until set: # lpf (cF 1000 \"cut\")",
        "cI": "cF as a whole number (floored): n (\"0 4\" + cI 0 \"shift\")",
        "cN": "cF as a note",
        "cR": "cF as a time (a fraction)",
        "cT": "cF as a time (a fraction)",
        "cS": "a controller's string value: # vowel (cS \"a\" \"v\")",
        "cB": "a controller's boolean (Tidal's /ctrl sends none: a stage page or OSC bool): struct (cB True \"on\") …",
        "True": "Haskell's boolean, where one is expected: cB True \"on\"",
        "False": "Haskell's boolean, where one is expected: cB False \"alt\"",
        "cF_": "cF without a default: silence until the controller is set",
        "cF0": "cF with the default 0",
        "sec": "seconds as cycles at the current tempo (cps × the value): # delaytime (sec 0.25)",
        "msec": "milliseconds as cycles at the current tempo: # legato (msec 500)",
        "perlinWith": "smooth noise following a pattern of numbers (random at whole numbers, eased between)",
        "perlin2With": "2D Perlin noise from 0 to 1: perlin2With (cosine*2) (sine*2) repeats each cycle without reversing",
        "perlin2": "perlin2With with the cycle as its first input",
        "run": "0 1 2 … N−1 in one cycle",
        "silence": "no events",
        "spread": "the function given each value in turn, one a cycle: spread fast [1, 2]; spread ($) [rev, fast 2]",
        "fastspread": "spread, all the values within each cycle",
        "layer": "plays every function's version at once: layer [rev, fast 2]",
        "choose": "one of the values at random (continuous: give it structure with segment)",
        "wchoose": "one of the values at random, by weight: wchoose [(\"bd\", 1), (\"sn\", 0.5)]",
        "fix": "applies the function to the events whose controls match: fix (fast 2) (s \"hh\")",
        "toScale": "degrees through a list of semitones: toScale [0, 2, 7] \"0 1 2 3\"",
        "stitch": "takes its rhythm from a boolean pattern, the first pattern at true, the second at false",
        "wedge": "the first pattern in the first part of each cycle, the second in the rest",
        "repeatCycles": "plays each cycle N times before moving on",
        "stripe": "plays the pattern N times a cycle, each at a random speed",
        "jux'": "each function's version at its own place across the stereo field",
        "squeeze": "the numbered pattern from the list, squeezed into each event",
        "fit": "values from a list by step numbers, moved on N each cycle",
        "mono": "one event at a time: overlapping events cut",
        "press": "each event moved halfway into its own time (syncopation)",
        "bite": "plays the numbered one of N parts of each cycle in each event",
        "ghost": "adds two quieter, shorter, higher copies after each event (ghost notes)",
        "arpWith": "a chord's notes one after another in the order a list function gives: arpWith reverse, arpWith (\\x -> x ++ reverse x)",
        "contrastBy": "one function for the events whose controls pass a test against a map's, another for the rest: contrastBy (>=) (# crush 4) id (n 3)",
        "contrastRange": "one function for the events whose controls are within ranges, another for the rest: (pure $ Map.fromList [(\"n\", (VN 0, VN 3))])",
        "fixRange": "a function for the events whose controls are within ranges: fixRange (# crush 4) (pure $ Map.singleton \"n\" (VN 0, VN 3))",
        "unfixRange": "a function for the events whose controls are outside ranges (fixRange's other side)",
        "flatpat": "a pattern of lists played as its values together: n (flatpat $ listToPat [[0, 4, 7], [2, 5]])",
        "triggerWith": "starts the pattern at a function of the evaluation's cycle: triggerWith (fromIntegral . floor) 1",
    ]

    /// `speed`: "a number (Tidal's pF)"; nil for a name that is not a control.
    public static func control(_ name: String) -> String? {
        guard let kind = Controls.kind(name) else { return nil }
        switch kind {
        case .string: return "a string control (Tidal's pS \"\(name)\")"
        case .double: return "a number control (Tidal's pF \"\(name)\")"
        case .note: return "a note control (Tidal's pN \"\(name)\": a number, or a note name such as c5 or e)"
        case .int: return "a whole-number control (Tidal's pI \"\(name)\")"
        }
    }

    static func pattern(_ k: PatternKind) -> String {
        switch k {
        case .control: return "ControlPattern"
        case .string: return "Pattern String"
        case .double: return "Pattern Double"
        case .note: return "Pattern Note"
        case .int: return "Pattern Int"
        case .time: return "Pattern Time"
        case .bool: return "Pattern Bool"
        }
    }

    static func parameter(_ p: Parameter) -> String {
        switch p {
        case let .pattern(k): return pattern(k)
        case .same: return "Pattern a"
        case .function: return "(Pattern a -> Pattern a)"
        case .list: return "[Pattern a]"
        case .weightedList: return "[(Time, Pattern a)]"
        case .text: return "String"
        case .number: return "Time"
        case .pair: return "(Time, Time)"
        case .values: return "[a]"
        case .numbers: return "[Time]"
        case .matrix: return "[[Double]]"
        case .valuePairs: return "[(String, a)]"
        case .textPairs: return "[(String, String)]"
        case .functions: return "[Pattern a -> Pattern a]"
        case .weightedValues: return "[(a, Double)]"
        case .patternWeights: return "[(Pattern a, Double)]"
        case .spreader: return "(b -> Pattern a -> Pattern a)"
        case .spreadValues: return "[b]"
        case .key: return "k"
        case .triples: return "[(Time, Time, Pattern a)]"
        case .namedPatterns: return "[(String, Pattern a)]"
        case .namedFunctions: return "[(String, Pattern a -> Pattern a)]"
        case .predicate: return "(Int -> Bool)"
        case .numberFunction: return "(Time -> a)"
        case .combiner: return "(Pattern a -> Pattern a -> Pattern a)"
        case .bindValues: return "Pattern b"
        case .valueTest: return "(a -> Value -> Bool)"
        case .ranges: return "Pattern (Map String (Value, Value))"
        case .listFunction: return "([EventF (ArcF Time) a] -> [EventF (ArcF Time) a])"
        }
    }
}
