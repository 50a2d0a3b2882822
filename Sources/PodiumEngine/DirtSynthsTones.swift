// SuperDirt's synths as Csound instruments, tones: a siren (a varying-width saw swept up and
// back), and the synths SuperDirt defines for its own examples: imp (band-limited impulses
// gaining harmonics), dirac (one impulse), tutorial1–5, gabor (a Gaussian grain) and cyclo (sines spread by the cycle number).
// Each is SuperDirt's SynthDef re-expressed (not copied), measured against scsynth's renders of
// the same events (DirtSynthTests); they use `DirtSynths.shared`'s tables and opcodes.
extension DirtSynths {
    static let tones: [(name: String, code: String)] = [
        ("supersiren", #"""
        instr supersiren ; podium: freq amp pan accelerate speed:1 +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          isus = max(p3 - 0.001, 0.001)
          kf = ifreq*SDfscale(ispeed, iacc, isus)
          aenv SDlinen isus, 0.05, 0.9, 0.05, -2
          kup linseg 0, 0.25*isus, 3, 0.5*isus, 3, 0.25*isus, 0, 1, 0
          kw linseg 0.05, isus, 1, 1, 1
          asnd SDvarsaw kf*(1 + kup), kw, 0
          aL, aR SDpan2 asnd*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("imp", #"""
        instr imp ; podium: freq amp pan accelerate speed:1 begin end:1 +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          ibeg = p9
          iend = p10
          isus = max(p3 - 0.001, 0.001)
          aenv transeg 0, 0.01*isus, -1, 1, 0.99*isus, -1, 0, 1, 0, 0
          kph linseg ibeg, isus, iend, 1, iend
          kt timeinsts
          krate = (ibeg + 1)*(ispeed + iacc*kt)
          kf = max(ifreq, 1)^limit(krate, 0, 1)
          ; ExpRand(80, 118) harmonics at the end: their geometric middle
          knh = 97*kph
          asnd SDblip kf, knh
          asnd += SDblip(kf*1.25, knh)
          asnd += SDblip(kf*1.51, knh)
          asnd += SDblip(kf*1.42, knh)
          aL, aR SDpan2 asnd*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("dirac", #"""
        instr dirac ; podium: amp pan +effects
          iamp = p4
          ipan = p5
          ; Impulse.ar(0): one sample of 1 where the note starts, panned, then silence
          asnd mpulse 1, 0
          aL, aR SDpan2 asnd, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        // The tutorial's synths (SuperDirt's synths/tutorial-synths.scd): a sine, with an
        // envelope, a pitch and a glide, a percussive envelope, a frequency of its own (`f`).
        ("tutorial1", #"""
        instr tutorial1 ; podium: amp +effects
          iamp = p4
          ; SinOsc.ar(440), centre (it takes no pan), as long as the event
          asnd poscil 1, 440
          aL, aR SDpan2 asnd, 1, 0.5, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("tutorial2", #"""
        instr tutorial2 ; podium: amp pan +effects
          iamp = p4
          ipan = p5
          isus = max(p3 - 0.001, 0.001)
          aenv SDlinen isus, 0.01, 0.98, 0.01, -3
          asnd poscil 1, 440
          aL, aR SDpan2 asnd*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        tutorialSine("tutorial3", frequency: "freq", envelope: "SDlinen isus, 0.01, 0.98, 0.01, -3"),
        // Env.perc(0.001, 0.999, 1, -4), timeScale sustain
        tutorialSine("tutorial4", frequency: "freq", envelope: "transeg 0, 0.001*isus, -4, 1, 0.999*isus, -4, 0, 1, 0, 0"),
        tutorialSine("tutorial5", frequency: "f", envelope: "transeg 0, 0.001*isus, -4, 1, 0.999*isus, -4, 0, 1, 0, 0"),
        ("gabor", #"""
        instr gabor ; podium: freq amp pan width:0.3 +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          iw = limit(p7, 0.001, 100)                   ; (wider, the Gaussian's ends and peak meet)
          isus = max(p3 - 0.001, 0.001)
          ; LFGauss over the sustain, its ends at 0 and its peak at 1 (LFGauss.range)
          ax linseg -1, isus, 1, 1, 1
          imin = exp(-1/(2*iw*iw))
          aenv = (exp(-(ax*ax)/(2*iw*iw)) - imin)/(1 - imin)
          asnd oscili 1, ifreq, giSDSine, 0.25
          aL, aR SDpan2 asnd*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("cyclo", #"""
        instr cyclo ; podium: freq amp pan accelerate speed:1 begin end:1 cycle ratio:1 +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          ibeg = p9
          iend = p10
          icycle = p11
          iratio = p12
          isus = max(p3 - 0.001, 0.001)
          aenv transeg 0, 0.01*isus, -1, 1, 0.99*isus, -1, 0, 1, 0, 0
          kph linseg ibeg, isus, 1 - iend, 1, 1 - iend
          kt timeinsts
          krate = (ibeg + 1)*(ispeed + iacc*kt)
          asnd SDcyclo icycle*ispeed, iratio, kph, ifreq*krate, 1
          aL, aR SDpan2 asnd*aenv/16, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
    ]

    /// The opcodes only these tones use.
    static let tonesShared = #"""
        ; SC Blip: numharm cosines, peak 1, never past Nyquist
        opcode SDblip, a, kk
          kf, knh xin
          kf = max(kf, 0.01)
          knh = limit(int(knh), 1, max(1, int(sr*0.5/kf)))
          asnd buzz 1, kf, knh, giSDSine
          xout asnd
        endop

        ; cyclo's sixteen sines: ((cycle) mod (k*ratio + phase) + 1) * base, summed
        opcode SDcyclo, a, ikkki
          icyc, iratio, kph, kbase, ik xin
          kd = ik*iratio + kph
          km = (kd == 0 ? 0 : icyc - floor(icyc/kd)*kd)
          asnd oscili 1, (km + 1)*kbase, giSDSine
          if ik < 16 then
            anext SDcyclo icyc, iratio, kph, kbase, ik + 1
            asnd += anext
          endif
          xout asnd
        endop
        """#

    /// A tutorial sine with a pitch (tutorial3–5): its frequency from p4 (`freq`, or tutorial5's
    /// own `f`), SC's envelope over the event, accelerate's glide.
    static func tutorialSine(_ name: String, frequency: String, envelope: String) -> (name: String, code: String) {
        (name, """
        instr \(name) ; podium: \(frequency) amp pan accelerate +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          isus = max(p3 - 0.001, 0.001)
          aenv \(envelope)
          kf = ifreq*SDfscale(1, p7, isus)
          asnd poscil 1, kf
          aL, aR SDpan2 asnd*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """)
    }
}
