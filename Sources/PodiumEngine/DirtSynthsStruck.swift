// SuperDirt's synths as Csound instruments, struck: Struck and modal sounds: a tuning fork, a gong (plate modes), and psin's phase-modulated sine.
// Each is SuperDirt's SynthDef re-expressed (not copied), measured against scsynth's renders of
// the same events (DirtSynthTests); they use `DirtSynths.shared`'s tables and opcodes.
extension DirtSynths {
    static let struck: [(name: String, code: String)] = [
        ("superfork", #"""
        instr superfork ; podium: freq amp pan accelerate speed:1 +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          isus = max(p3 - 0.001, 0.001)
          aenv linseg 0, 0.001*isus, 1, 0.998*isus, 1, 0.001*isus, 0, 1, 0
          kf = ifreq * SDfscale(ispeed, iacc, isus)
          ae1 expseg 0.3, isus*4, 1e-4, 1, 1e-4
          ae2 expseg 1, isus*4, 1e-7, 1, 1e-7
          ae3 expseg 1.3, isus*0.5, 1e-6, 1, 1e-6
          ae4 expseg 2, isus*0.333, 1e-7, 1, 1e-7
          a1 oscili 0.2, kf, giSDSine
          a2 oscili 0.2, kf*6.1, giSDSine
          a3 oscili 0.2, kf*16.7, giSDSine
          a4 oscili 0.2, kf*20.1, giSDSine
          a1 *= ae1
          a2 *= ae2
          a3 *= ae3
          a4 *= ae4
          ; Splay of 4 channels (positions -1, -1/3, 1/3, 1; level 1/sqrt(4))
          iq = cos($M_PI/6)
          aL = 0.5*(a1 + iq*a2 + 0.5*a3)
          aR = 0.5*(0.5*a2 + iq*a3 + a4)
          aL, aR SDbal2 aL*aenv, aR*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("supergong", #"""
        instr supergong ; podium: freq amp pan accelerate speed:1 voice decay:1 +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          ivoice = p9
          idecay = p10
          isus = max(p3 - 0.001, 0.001)
          kf = ifreq * SDfscale(ispeed, iacc, isus)
          asnd SDgongpart kf, ifreq, isus, idecay, ivoice, 0
          aL, aR SDpan2 asnd, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("psin", #"""
        instr psin ; podium: freq amp pan accelerate speed:1 begin end:1 modfreq:40 +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          ibeg = p9
          iend = p10
          imf = p11
          isus = max(p3 - 0.001, 0.001)
          aenv transeg 0, 0.002, -1, 1, isus, -1, 0, 1, 0, 0
          aln linseg ibeg, isus, iend, 1, iend
          aidx = (1 - aln)*10*aenv
          aph phasor ifreq
          asnd SDpsinpart ifreq, imf, aph, aidx, 1
          aL, aR SDpan2 asnd*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
    ]
}
