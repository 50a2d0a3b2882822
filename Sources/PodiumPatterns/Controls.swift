/// Tidal 1.7.10's controls (`Sound.Tidal.Params`): every parameter's name and kind, the
/// aliases, and `control`, which turns a pattern of values into a control pattern as `pF`,
/// `pI`, `pN`, `pS` (and `sound`'s `grp`) do; plus `hurry` and `jux`, which need controls.
public enum Controls {
    /// What a control holds (Tidal's `pS`, `pF`, `pN`, `pI`).
    public enum Kind: Sendable { case string, double, note, int }

    // Thread: any (all of this enum)

    static let doubles: Set<String> = Set("""
    accelerate amp attack bandf bandq begin binshift button0 button1 button10 button11 button12 button13 \
    button14 button15 button2 button3 button4 button5 button6 button7 button8 button9 ccn ccv clhatdecay \
    coarse comb control cps crush ctlNum ctranspose cutoff cutoffegint decay degree delay delayfeedback \
    delaytime detune distort djf dry dur end enhance expression fadeInTime fadeTime frameRate frames freeze \
    freq from fshift fshiftnote fshiftphase gain gate harmonic hatgrain hbrick hcutoff hold hours hresonance \
    imag kcutoff krush lagogo lbrick lclap lclaves lclhat lcrash legato leslie lfo lfocutoffint lfodelay \
    lfoint lfopitchint lfoshape lfosync lhitom lkick llotom lock loop lophat lrate lsize lsnare midibend \
    midichan miditouch minutes modwheel mtranspose nudge octaveR octer octersub octersubsub offset \
    ophatdecay overgain overshape pan panorient panspan pansplay panwidth partials phaserdepth phaserrate \
    pitch1 pitch2 pitch3 polyTouch portamento progNum rate real release resonance ring ringdf ringf room \
    sagogo sclap sclaves scram scrash seconds semitone shape size slide slider0 slider1 slider10 slider11 \
    slider12 slider13 slider14 slider15 slider2 slider3 slider4 slider5 slider6 slider7 slider8 slider9 \
    smear songPtr speed squiz stepsPerOctave stutterdepth stuttertime sustain sustainpedal timescale \
    timescalewin to tomdecay tremolodepth tremolorate triode tsdelay uid val vcfegint vcoegint velocity \
    voice waveloss xsdelay
    """.split(separator: " ").map(String.init))
    static let ints: Set<String> = ["channel", "cut", "nrpn", "octave", "orbit", "nrpnn", "nrpnv"]
    static let strings: Set<String> = ["s", "midicmd", "toArg", "unit", "vowel", "bank"]
    static let notes: Set<String> = ["n", "note", "midinote"]

    /// Params.hs's aliases (`lpf = cutoff` …), and the functions whose map key differs from
    /// their name (`sound`'s key is `s`, `nrpnn`'s `nrpn`).
    static let aliases: [String: String] = [
        "voi": "voice", "vco": "vcoegint", "vcf": "vcfegint", "up": "note", "tremr": "tremolorate",
        "tremdp": "tremolodepth", "tdecay": "tomdecay", "sz": "size", "sus": "sustain", "stt": "stuttertime",
        "std": "stutterdepth", "sld": "slide", "scr": "scrash", "scp": "sclap", "scl": "sclaves", "sag": "sagogo",
        "sound": "s", "rel": "release", "por": "portamento", "pit3": "pitch3", "pit2": "pitch2", "pit1": "pitch1",
        "phasr": "phaserrate", "phasdp": "phaserdepth", "ohdecay": "ophatdecay", "number": "n", "lsn": "lsnare",
        "lpq": "resonance", "lpf": "cutoff", "loh": "lophat", "llt": "llotom", "lht": "lhitom", "lfop": "lfopitchint",
        "lfoi": "lfoint", "lfoc": "lfocutoffint", "lcr": "lcrash", "lcp": "lclap", "lcl": "lclaves", "lch": "lclhat",
        "lbd": "lkick", "lag": "lagogo", "hpq": "hresonance", "hpf": "hcutoff", "hg": "hatgrain", "gat": "gate",
        "fadeOutTime": "fadeTime", "dt": "delaytime", "dfb": "delayfeedback", "det": "detune", "delayt": "delaytime",
        "delayfb": "delayfeedback", "ctfg": "cutoffegint", "ctf": "cutoff", "chdecay": "clhatdecay", "bpq": "bandq",
        "bpf": "bandf", "att": "attack",
    ]

    /// The name a control is sent as (`lpf` → `cutoff`, `sound` → `s`, `up` → `note`).
    public static func canonical(_ name: String) -> String {
        switch name {
        case "nrpnn": return "nrpn"
        case "nrpnv": return "val"
        case "midinote": return "note"
        default: return aliases[name] ?? name
        }
    }

    /// The control's kind, nil for a name Tidal 1.7.10 does not have (`bank` is Strudel's: a sample
    /// bank by name, as `pS "bank"` in Tidal).
    public static func kind(_ name: String) -> Kind? {
        if ints.contains(name) { return .int }
        if notes.contains(name) { return .note }
        let c = aliases[name] ?? name
        if strings.contains(c) { return .string }
        if doubles.contains(c) { return .double }
        if ints.contains(c) { return .int }
        if notes.contains(c) { return .note }
        return nil
    }

    /// A string as Haskell's `read` takes a `Double` (`3`, `-1.5`, `2e3`; not `.5` or `3.`).
    static func readDouble(_ s: Substring) -> Double? {
        var body = s
        if body.first == "-" { body = body.dropFirst() }
        let parts = body.split(separator: "e", maxSplits: 1, omittingEmptySubsequences: false)
        let mantissa = parts[0].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        func digits(_ x: Substring) -> Bool { !x.isEmpty && x.allSatisfy { $0.isASCII && $0.isNumber } }
        guard mantissa.allSatisfy(digits) else { return nil }
        if parts.count == 2 {
            var e = parts[1]
            if e.first == "-" || e.first == "+" { e = e.dropFirst() }
            guard digits(e) else { return nil }
        }
        return Double(s)
    }

    /// A note name as the mini-notation reads one (`c`, `e`, `fs`, `a4`, `bf3`: semitones from
    /// c5), or a number.
    static func readNote(_ s: String) -> Double? {
        if let d = readDouble(Substring(s)) { return d }
        var chars = Substring(s)
        var sign = 1.0
        if chars.first == "-" { sign = -1; chars = chars.dropFirst() }
        let base: [Character: Int] = ["c": 0, "d": 2, "e": 4, "f": 5, "g": 7, "a": 9, "b": 11]
        guard let first = chars.first, var n = base[first] else { return nil }
        chars = chars.dropFirst()
        while let m = chars.first, "sfn".contains(m) {
            n += m == "s" ? 1 : (m == "f" ? -1 : 0)
            chars = chars.dropFirst()
        }
        var octave = 5
        if !chars.isEmpty {
            guard chars.allSatisfy({ $0.isASCII && $0.isNumber }), let o = Int(chars) else { return nil }
            octave = o
        }
        return sign * Double(n + (octave - 5) * 12)
    }

    /// One value as a control of `kind` holds it, nil when it cannot be one.
    public static func convert(_ v: Value, to kind: Kind) -> Value? {
        switch kind {
        case .string:
            if case let .string(s) = v { return .string(s) }
            return .string(v.description)
        case .double:
            if case let .string(s) = v { return readNote(s).map(Value.double) }
            return v.number.map(Value.double)
        case .note:
            if case let .string(s) = v { return readNote(s).map(Value.note) }
            return v.number.map(Value.note)
        case .int:
            if case let .string(s) = v { return readNote(s).map { .int(Int($0.rounded(.down))) } }
            return v.number.map { .int(Int($0.rounded(.down))) }
        }
    }

    /// `sound`'s `grp [mS "s", mF "n"]`: `bd:3` is `s=bd n=3.0`; a part that is not a number is left out.
    static func sound(_ v: Value) -> ControlMap {
        let text = v.string ?? v.description
        let parts = text.split(separator: ":")
        var m: ControlMap = [:]
        if let name = parts.first { m["s"] = .string(String(name)) }
        if parts.count > 1, let n = readDouble(parts[1]) { m["n"] = .double(n) }
        return m
    }
}

/// A control pattern from a pattern of values (Tidal's param functions: `s`, `n`, `speed` …,
/// made with `pS`/`pF`/`pN`/`pI`): each value converted to the control's kind (an int control
/// floors a fraction, a note control reads note names), values that cannot be dropped; a name
/// Tidal does not have is sent as a float, as Tidal's `pF`.
// Thread: any
public func control(_ name: String, _ p: Pattern<Value>) -> Pattern<ControlMap> {
    let key = Controls.canonical(name)
    let kind = Controls.kind(name) ?? .double
    if key == "s" { return p.map(Controls.sound) }
    let shift = name == "midinote"
    return p.withEvents { es in
        es.compactMap { e in
            guard var v = Controls.convert(e.value, to: kind) else { return nil }
            if shift, case let .note(x) = v { v = .note(x - 60) }
            return e.with(value: [key: v])
        }
    }
}

/// Faster by `x` and `speed` multiplied by `x` (Tidal's `hurry`).
// Thread: any
public func hurry(_ x: Pattern<Time>, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    numericOp(.mul, .left, fast(x, p), control("speed", x.map { .double($0.double) }))
}

/// The pattern panned left and `f` of it panned right, by `n` of the full width (Tidal's `juxBy`).
// Thread: any
public func juxBy(_ n: Pattern<Double>, _ f: @escaping @Sendable (Pattern<ControlMap>) -> Pattern<ControlMap>,
                  _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    let centre = numericOp(.add, .left, p, control("pan", .pure(.double(0.5))))
    let half = control("pan", n.map { .double($0 / 2) })
    return stack([numericOp(.sub, .left, centre, half), f(numericOp(.add, .left, centre, half))])
}

/// The pattern hard left and `f` of it hard right (Tidal's `jux`).
// Thread: any
public func jux(_ f: @escaping @Sendable (Pattern<ControlMap>) -> Pattern<ControlMap>, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    juxBy(.pure(1), f, p)
}

/// `count` echoes, each `step` later and quieter by `feedback` (Tidal's `_stut`: `gain` multiplied).
// Thread: any
public func _stut(_ count: Int, _ feedback: Double, _ step: Time, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    let c = Double(count)
    let echoes = count < 2 ? [] : (1..<count).map { x -> Pattern<ControlMap> in
        let gain = ((c - Double(x)) / c) * (1 - feedback) + feedback
        return numericOp(.mul, .left, p, control("gain", .pure(.double(gain)))).rotR(Time(Int64(x)) * step)
    }
    return stack([p] + echoes)
}

/// Tidal's `stut`, all three arguments patterned.
// Thread: any
public func stut(_ count: Pattern<Int>, _ feedback: Pattern<Double>, _ step: Pattern<Time>, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    tParam3(_stut, count, feedback, step, p)
}

/// `f` applied again to each of `count - 1` echoes, `step` apart (Tidal's `_stutWith`).
// Thread: any
public func _stutWith<T>(_ count: Int, _ step: Time, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    if count <= 1 { return p }
    return f(_stutWith(count - 1, step, f, p).rotR(step)).overlay(p)
}

/// Tidal's `stutWith` (`stut'`; `echoWith` in later Tidal): structure of the count from the left.
// Thread: any
public func stutWith<T>(_ count: Pattern<Int>, _ step: Pattern<Time>, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    innerJoin(appLeft(count, step) { n, t in _stutWith(n, t, f, p) })
}
