/// The sampler: Csound instruments that play a sample's tables with Tidal's controls, as
/// SuperDirt does (compiled into a performance with sample banks, after its orchestra:
/// `EngineOptions.sampler`). Samples reach it as tables made off the audio thread
/// (`JackDriver.stageValues`), one per channel, at the engine's rate. Its p-fields are
/// `SamplerOrchestra.fields`; the text's header explains each.
public enum SamplerOrchestra {
    /// p4 onwards, in order (what `SampleNotes` fills from an event's controls).
    public static let fields = ["table", "table2", "speed", "begin", "end", "amp", "pan", "accelerate",
                                "cutoff", "resonance", "hcutoff", "hresonance", "crush", "coarse", "shape",
                                "cut", "orbit", "room", "size", "delay", "delaytime", "delayfeedback", "sample",
                                // More of SuperDirt's per-event effects (SamplerEffectsExtra.swift and the files it names), p27 on.
                                "vowel", "tremolorate", "tremolodepth", "djf", "bandf", "bandq", "attack", "hold",
                                "release", "ring", "ringf", "ringdf", "distort", "triode", "krush", "kcutoff", "octer",
                                "octersub", "octersubsub", "fshift", "fshiftnote", "fshiftphase", "phaserrate",
                                "phaserdepth", "squiz", "waveloss", "freq",
                                // The spectral ones, p54 on.
                                "xsdelay", "tsdelay", "freeze", "comb", "smear", "scram", "binshift", "hbrick",
                                "lbrick", "real", "imag", "enhance",
                                // The grain ones (SamplerEffectsGrain.swift), p66 on.
                                "psrate", "psdisp", "tilt", "plat",
                                // The orbit's leslie (SamplerOrbitLeslie.swift), p70 on.
                                "leslie", "lrate", "lsize"]
    public static let instrument = "podium_sampler"
    /// The held instrument with every orbit's reverb and delay.
    public static let orbits = "podium_orbits"

    /// podium_orbits' number: `orbitsOffset` past the sampler's, so that Csound, which runs
    /// instruments by number each k-cycle, runs it after the notes of SuperDirt's synths and of
    /// named instruments compiled later (Csound gives a name the lowest number free): their sends
    /// and the dry sound they route through an orbit's leslie reach it in the same k-cycle, not
    /// one later (the synths were numbered after it, 64 samples late through the leslie). Next to
    /// the sampler's when an orchestra's numbers leave no room below Csound's maximum.
    public static let orbitsOffset = 200
    public static func orbitsNumber(first: Int) -> Int {
        first + orbitsOffset <= OrchestraCheck.maximumInstrumentNumber ? first + orbitsOffset : first + 1
    }

    /// Csound gives a named instrument the first free number (from 1), which a live coder's next
    /// `instr 3` would take over: the sampler's two are numbered instead, `first` and
    /// `orbitsNumber(first:)`, above the orchestra's own and at least 100 (`firstNumber`); a
    /// compile that defines either number is refused, by name.
    public static func text(first n: Int) -> String {
        text.replacingOccurrences(of: "instr podium_sampler", with: "instr \(n)")
            .replacingOccurrences(of: "instr podium_orbits", with: "instr \(orbitsNumber(first: n))")
            .replacingOccurrences(of: "\"podium_orbits\"", with: "\(orbitsNumber(first: n))")
            .replacingOccurrences(of: "\"podium_sampler\"", with: "\(n)")
            // Instances made now, not in the callback when polyphony first grows (each takes
            // about 0.5 MB of Csound's instance memory).
            + "\nprealloc \(n), \(preallocated)\nprealloc \(orbitsNumber(first: n)), 1\n"
    }
    /// Sampler voices made when the engine starts.
    public static let preallocated = 16

    /// The sampler's first number after an orchestra's instruments.
    public static func firstNumber(after orchestra: InstrumentTable) -> Int { max(orchestra.numbers.max() ?? 0, 99) + 1 }

    /// The whole part, in order: its setup (below), the effects (`SamplerEffects.swift`), the
    /// instruments (`SamplerInstruments.swift`).
    public static let text = setup + "\n" + extraEffects + "\n" + effects + "\n" + instruments

    /// The header (what each p-field means), configuration and global state.
    static let setup = #"""
        /*
          podium-sampler.orc -- SuperDirt-style sample player for Podium (Csound 6.18)
          ===========================================================================
          Compiled after the user's orchestra (no header here); levels scale by 0dbfs.
          Samples: one table per channel, ftlen = frames, already resampled to sr
          (GEN -2); tables are used by number, ftsr/ftchnls are not used.
          Behaviour follows SuperDirt 1.7.4 (classes/DirtEvent.sc, DirtOrbit.sc,
          synths/core-synths.scd, core-modules.scd, core-synths-global.scd).

          podium_sampler (instr; one note per Tidal/SuperDirt event)
            p3   duration in s (Podium: remaining length at speed, or sustain/legato).
                 The note ends earlier, with a fade reaching 0 exactly there, when the
                 play position leaves [begin, end] (e.g. because of accelerate).
            p4   left table          p5  right table (= p4, or <= 0, for a mono file)
            p6   speed (1 normal, 2 octave up, < 0 backwards from end to begin, 0 silent)
            p7   begin  p8 end       fractions 0..1 of the sample (end <= begin: silent)
            p9   amp, linear (Podium: 0.4 * gain^4); multiplied by 0dbfs
            p10  pan 0..1 (0.5 centre; folded like SuperDirt); equal power, as SC's
                 Pan2 (mono file) and Balance2 (stereo file)
            p11  accelerate: speed goes linearly from speed to speed * (1 + accelerate)
                 over p3 (SuperDirt: Line.kr(speed, endSpeed, sustain))
            p12  cutoff Hz (0 off)   p13 resonance 0..1    exact port of SC RLPF
            p14  hcutoff Hz (0 off)  p15 hresonance 0..1   exact port of SC RHPF
            p16  crush (0 off)       p17 coarse (<= 1 off)  p18 shape (0 off, 0..1)
                 applied like SuperDirt: after panning, before the gain, in the order
                 shape, hpf, crush, coarse, lpf
            p19  cut group: 0 none; N > 0 stops every sounding note of group |N| on
                 this orbit; N < 0 only those of the same sample (p26). 2 ms fade.
            p20  orbit (integer; wrapped modulo giPodiumOrbits, negatives too)
            p21  room: this note's send to the orbit reverb (0..1)
            p22  size: orbit reverb size 0..1, set by the latest note with room > 0
            p23  delay: this note's send to the orbit delay (0..1)
            p24  delaytime (s, 0..4)  p25 delayfeedback (0..0.9): orbit delay,
                 set by the latest note with delay > 0
            p26  sample identity (any number; for negative cut groups)
            p27  vowel: 1 a, 2 e, 3 i, 4 o, 5 u (0 off)
            p28  tremolorate Hz (0 off)  p29 tremolodepth
            p30  djf + 1 (0 off: djf 0 is sent as 1)
            p31  bandf Hz (0 off)        p32 bandq
            p33  attack + 1 s   p34 hold s   p35 release + 1 s (p33 and p35 0: off)
            p36  ring (0 off)            p37 ringf Hz   p38 ringdf Hz
            p39  distort   p40 triode   p41 krush   p42 kcutoff Hz (each 0 off)
            p43  octer   p44 octersub   p45 octersubsub (all 0: off)
            p46  fshift Hz   p47 fshiftnote   p48 fshiftphase (fshift and fshiftnote 0: off)
            p49  phaserrate Hz (0 off)   p50 phaserdepth
            p51  squiz (0 off)           p52 waveloss 0..100 (0 off)
            p53  freq: the note's frequency (Hz), for fshiftnote
            p54  xsdelay + 1   p55 tsdelay + 1   p56 freeze + 1   p57 comb + 1
            p58  smear + 1     p59 scram + 1     p60 binshift + 1 p61 hbrick + 1
            p62  lbrick + 1    p63 real + 1      p64 imag + 1     p65 enhance + 1
                 (each 0: not given, off)
            p66  psrate + 1 (0 off)      p67 psdisp s
            p68  tilt + 1 (0 off)        p69 plat 0..1
            p70  leslie + 1  p71 lrate + 1  p72 lsize + 1   (each 0: not given)

          podium_orbits (instr; held: reverb and delay of every orbit, after the notes)
            Started by the global code below and by any sending note that finds it
            not running (e.g. after a hush). Scheduling it again while it runs is
            harmless (tied note, state kept); a second instance turns itself off.
            An orbit's effects pause when nothing was sent for giPodiumIdleTime and
            their output is silent.

          Output of orbit k (after wrapping): channels 2k+1, 2k+2 when nchnls >= 2k+2,
          else the pair k mod (nchnls / 2); nchnls = 1: mono (no panning, channels
          summed, as SuperDirt with one channel).

          The audio callback. podium_orbits' first init pass runs in the engine's
          k-cycle 0, before the callback starts (Engine.performInitPass); a note that
          restarts it after a hush runs it inside the callback, so it allocates and
          clears nothing big:
          - Every delay line is a ring in a function table made by the global code
            (when the part is compiled, before the callback starts): per orbit and
            channel the delay (giPodiumMaxDelay, 1.5 MB at 48 kHz) and the reverb's
            7 lines (about 220 KB together), 42 MB in all at 48 kHz, filled with
            zeros there so that their pages are resident. podium_orbits only holds
            its instances' frames: about 1 MB for all 12 orbits at ksmps 64 (a-rate
            variables are ksmps * 8 bytes each), allocated at its first start and
            reused by Csound after a hush (a restart allocates and clears nothing).
          - The tables outlive podium_orbits, so an orbit's effects never replay what
            they held before they (re)started or woke from an idle pause: the delay
            keeps the time it woke (kt0) and clears, just before reading, the few
            older samples a block reads (at most ksmps + 4 per ring and k-cycle); the
            reverb does the same for each line during its first pass (a line is read
            one line length after it is written). No full clear, no big memset.
          - Instance frames grow with some constructs (Csound 6.18, bytes of every
            instance): an array element read or written 16 K (ARRAY_GET/SET), each
            variadic opcode (outch, min, max, schedule) 16 K, a conditional expression
            1.7 K, an init or plain assignment of k/i variables 432, an a-rate variable
            or temporary ksmps * 8. podium_orbits and its UDOs avoid the first three;
            and an assignment of several k variables at once (kx, ky = ..) allocates
            32 bytes in every k-cycle: none is used.
        */

        /* ------------------------------------------------------------------------
           Configuration
           ------------------------------------------------------------------------ */
        giPodiumOrbits    init 12     ; orbit effect slots (SuperDirt starts 12)
        giPodiumFadeIn    init 0.001  ; s, fade-in when not starting at frame 0 (SuperDirt fadeTime)
        giPodiumFadeOut   init 0.002  ; s, release: at the end, when cut, when leaving the range
        giPodiumMaxDelay  init 4      ; s, SuperDirt's maxDelayTime
        giPodiumDelayDry  init 0      ; 1 = also pass the delay input through (SwitchDelay drylevel 1)
        giPodiumCutSlots  init 32     ; cut groups 1..32 (larger ones wrap)
        giPodiumCutRing   init 8      ; stop requests remembered per group and orbit
        giPodiumIdleTime  init 4.5    ; s of silence before an orbit's effects pause

        /* ------------------------------------------------------------------------
           Global state (preallocated once)
           ------------------------------------------------------------------------ */
        ; Orbit state shared by the notes and podium_orbits, in a table and in audio
        ; channels, not in arrays: each array element read or written in an instrument
        ; or UDO takes 16 KB of its instance (Csound 6.18's ARRAY_GET/ARRAY_SET).
        ; Per orbit k, at 8k .. 8k+7: latest reverb size, latest delaytime, latest
        ; delayfeedback, time (times) until which sends may arrive; the leslie's
        ; leslie, lrate and lsize (SuperDirt's defaults until a note sets them), and
        ; the time until which it is engaged (its notes' ends + giPodiumIdleTime,
        ; pushed on while it sounds: SuperDirt's DirtPause, 4 s of grace).
        giPodiumOrbitState ftgen 0, 0, -8 * giPodiumOrbits, -2, 0
        iPodiumSt = 0
        podium_state_defaults:
          tableiw 0.5, 8 * iPodiumSt + 4, giPodiumOrbitState
          tableiw 6.7, 8 * iPodiumSt + 5, giPodiumOrbitState
          tableiw 0.3, 8 * iPodiumSt + 6, giPodiumOrbitState
          iPodiumSt += 1
          if iPodiumSt < giPodiumOrbits igoto podium_state_defaults
        ; Sends: audio channels podium.orbit.K.rev (mono reverb send), podium.orbit.K.dell
        ; and podium.orbit.K.delr (delay send), podium.orbit.K.lesl and .lesr (the dry
        ; sound of notes while the orbit's leslie is engaged), made with the effect
        ; buffers below.
        ; cut groups: per (group slot, orbit) a counter and a ring of stop requests,
        ; each request = (1 = stop all / 0 = stop only sample id, sample id)
        giPodiumCutState[]   init giPodiumCutSlots * giPodiumOrbits * (1 + 2 * giPodiumCutRing)
        giPodiumOrbitsAskedAt init -1              ; time podium_orbits was last scheduled
        giPodiumLastBadTable  init -1e9            ; warn once per missing table number
        ; effect buffers (tables made by the code after the UDOs), see there. Per effect
        ; channel c (orbit c/2, L or R), at 32c + 0: delay ring table, + 1..7: the
        ; reverb's 7 line tables, + 8..14 and 15..21: their allpass coefficients as
        ; ntrpol takes them (1 - g and -g / (1 - g) for alpass's g), + 22: the loop
        ; gain offset, + 23 (left channel only): the orbit's longest line, + 24..30:
        ; the lines' read offsets (table length - line length), + 31: the table (one
        ; block long) where the orbit adds its output for that channel, one per output
        ; channel pair (podium_orbits plays them; orbit p's are those of pair p)
        giPodiumFxParm ftgen 0, 0, -64 * giPodiumOrbits, -2, 0
        gkPodiumOutNow init 0                         ; an orbit added output this k-cycle
        ; the leslie's delay rings: orbit k's left at 2k, right at 2k + 1 (tables made below)
        giPodiumLeslieRings ftgen 0, 0, -2 * giPodiumOrbits, -2, 0
        giPodiumRevKsmps   init 0                     ; local ksmps of the reverb (0: ksmps)

        ; (no defaults needed: a note that sends to an effect also sets its parameters)

        """#
}
