// SuperDirt's synths as Csound instruments, drums: a kick (sine and a noise click), an 808-style
// kick (a chirped feedback sine), a hi-hat (band of white noise), a snare (pulse and noise), a
// clap (four noise bursts), and the Sound-on-Sound kit (soskick, soshats, sostoms, sossnare).
// Each is SuperDirt's SynthDef re-expressed (not copied), measured against scsynth's renders of
// the same events (DirtSynthTests); they use `DirtSynths.shared`'s tables and opcodes. `n` is
// read as SuperDirt's drums read it (a raw number, not a pitch).
extension DirtSynths {
    static let drums: [(name: String, code: String)] = [
        ("superkick", #"""
        instr superkick ; podium: n amp pan accelerate speed:1 pitch1:1 decay:1 +effects
          inn = p4
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          ipitch1 = p9
          idecay = p10
          isus = max(p3 - 0.001, 0.001)
          aenv SDlinen isus, 0.01, 0, 0.5, -3
          asin oscili 1, 440*2^((inn - 25.5 - 69)/12), giSDSine
          iclick = max(0.02*isus*idecay, 0.0001)
          knz = 1500*ipitch1*SDfscale(ispeed, iacc, iclick)
          anz random -1, 1
          anz butlp anz, limit(knz, 10, sr*0.45)
          aln linseg 1, iclick, 0, 1, 0
          aL, aR SDpan2 (asin + anz*aln)*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("super808", #"""
        instr super808 ; podium: n amp pan accelerate speed:1 rate:1 voice +effects
          inn = p4
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          irate = p9
          ivoice = p10
          isus = max(p3 - 0.001, 0.001)
          inn = (inn > 0 ? inn : 0) + (inn < 1 ? 3 : 0)
          ifreq = min(440*2^((inn*10 - 69)/12), 20000)   ; (n 20000 would be past any table)
          kf = ifreq*SDfscale(ispeed, iacc, isus)
          ; freq.expexp(10, 2000, 1000, 8000), then XLine down to freq (which speed and accelerate scale)
          istart = 1000*8^(log(limit(ifreq, 10, 2000)/10)/log(200))
          kratio expseg istart/ifreq, 0.025/max(irate, 0.0001), 1, 1, 1
          aenv SDlinen isus, 0.01, 0, 1, -3
          kcar = kf*kratio
          asnd SDsinfb kcar, ivoice
          asnd butlp asnd, 9000
          aL, aR SDpan2 asnd*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("superhat", #"""
        instr superhat ; podium: n amp pan accelerate speed:1 +effects
          inn = p4
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          isus = max(p3 - 0.001, 0.001)
          aenv SDlinen isus, 0.01, 0, 0.3, -3
          kf = 2000*SDfscale(ispeed, iacc, isus)*SDwrap(inn/5 + 1, 0.5, 2)
          anz random -1, 1
          anz butlp anz, limit(3*kf, 10, sr*0.45)
          anz buthp anz, limit(kf, 10, sr*0.45)
          aL, aR SDpan2 anz*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("supersnare", #"""
        instr supersnare ; podium: n amp pan accelerate speed:1 decay:1 +effects
          inn = p4
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          idecay = p9
          isus = max(p3 - 0.001, 0.001)
          aenv SDlinen isus, 0.01, 0, 0.6, -3
          kf = 100*SDfscale(ispeed, iacc, isus)*SDwrap(inn/5 + 1, 0.5, 2)
          apulse vco2 0.5, kf, 2, 0.5
          kcut linseg 1030, 0.2*isus, 30, 1, 30
          apulse butlp apulse, kcut
          anz random -1, 1
          anz buthp anz, 500
          anz butbp anz, 1500, 1500
          aln linseg 1, max(0.2*idecay, 0.0001), 0, 1, 0
          aL, aR SDpan2 (apulse + anz*aln)*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("superclap", #"""
        instr superclap ; podium: n amp pan rate:1 delay:1 pitch1:1 +effects
          inn = p4
          iamp = p5
          ipan = p6
          irate = max(p7, 0.0001)
          idelay = p8
          ipitch1 = p9
          isus = max(p3 - 0.001, 0.001)
          ispr = 0.005*idelay
          ipow = limit(inn, 0, 5) + 1
          idec = 0.04/irate
          aenv SDlinen isus, 0.01, 0, 0.6, -3
          anz random -1, 1
          anz butlp anz, limit(7500*ipitch1, 10, sr*0.45)
          anz butbp anz, limit(1500*ipitch1, 10, sr*0.45), limit(1500*ipitch1, 10, sr*0.45)
          ; four bursts at spr * i^(n+1), each a linear 0.04/rate decay
          at linseg 0, 1000, 1000
          ab = limit(1 - at/idec, 0, 1)
          it1 = ispr
          it2 = ispr*2^ipow
          it3 = ispr*3^ipow
          ab += limit((at - it1)*1e9, 0, 1)*limit(1 - (at - it1)/idec, 0, 1)
          ab += limit((at - it2)*1e9, 0, 1)*limit(1 - (at - it2)/idec, 0, 1)
          ab += limit((at - it3)*1e9, 0, 1)*limit(1 - (at - it3)/idec, 0, 1)
          aL, aR SDpan2 anz*0.5*ab*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("soskick", #"""
        instr soskick ; podium: freq amp pan pitch1 speed:0.3 voice:1 pitch2 +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          ipitch1 = p7
          ispeed = p8
          ivoice = p9
          ipitch2 = p10
          isus = max(p3 - 0.001, 0.001)
          aenv transeg 0, 0.005, -4, 1, isus, -4, 0, 1, 0, 0
          kcar linseg ifreq*2, 0.02, ifreq, 1, ifreq
          asrc SDpmosc kcar, ipitch1, ivoice, 0
          asrc butlp asrc, 1000
          anz random -1, 1
          anz *= limit(ipitch2, 0, 1)
          anz buthp anz, 500
          kbf expseg 6000, max(limit(ispeed, 0, 1)*0.1, 0.0001), 500, 1, 500
          anz butlp anz, kbf
          abeat transeg 0, 0.01, -4, 1, 1, -4, 0, 1, 0, 0
          aL, aR SDpan2 (asrc + anz*abeat)*ampdb(3)*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("soshats", #"""
        instr soshats ; podium: freq amp pan pitch1:238.5 resonance:1 +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          ipitch1 = p7
          ires = limit(p8, 0, 1)
          isus = max(p3 - 0.001, 0.001)
          ; four phase-modulated sines whose carrier frequency is a pulse wave, as SuperDirt's
          ; (their phase indices reach 238 radians: SDpmosca does what SinOsc does with them)
          acar vco2 0.5, ifreq, 2, 0.5
          asrc SDpmosca acar, ifreq*1.34, ipitch1
          asrc += SDpmosca(acar, ifreq*2.405, ipitch1*0.22)
          asrc += SDpmosca(acar, ifreq*3.09, ipitch1*0.014)
          asrc += SDpmosca(acar, ifreq*1.309, ipitch1*0.0038)
          ap transeg 0, 0.005, -4, 1, isus, -4, 0, 1, 0, 0
          kbf expseg 15000, isus, 9000, 1, 9000
          khf expseg 9000, isus, 12000, 1, 12000
          abp butbp asrc, kbf, kbf*max(ires, 0.001)
          ahp buthp asrc, khf
          aenv transeg 0, 0.005, -4, 1, isus, -4, 0, 1, 0, 0
          aL, aR SDpan2 (abp + ahp)*ap*ampdb(-5)*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("sostoms", #"""
        instr sostoms ; podium: freq amp pan voice:0.5 +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          ivoice = p7
          isus = max(p3 - 0.001, 0.001)
          asaw vco2 1, ifreq*0.9
          asrc SDpmosca asaw, ifreq*0.85, ivoice
          ; SuperDirt adds the PM voice to each of the two sines, then mixes them
          asrc = 2*asrc*ampdb(6) + oscili(1, ifreq, giSDSine) + oscili(1, ifreq*0.8, giSDSine)
          acr SDcrackle 2
          asrc dcblock asrc + acr, 0.995
          aenv transeg 0, 0.005, -6, ampdb(-4), isus, -6, 0, 1, 0, 0
          aL, aR SDpan2 asrc*ampdb(-3)*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("sossnare", #"""
        instr sossnare ; podium: freq amp pan voice:0.385 semitone:0.452 pitch1:2000 resonance:0.1 +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          ivoice = p7
          isemi = p8
          ip1 = limit(p9, 10, sr*0.1)                   ; (its filters at up to 4 × pitch1, below Nyquist)
          ires = limit(p10, 0.001, 1)
          isus = max(p3 - 0.001, 0.001)
          asaw vco2 1, ifreq*0.85
          asrc SDpmosca asaw, ifreq*isemi, ivoice
          ; white noise held at 3400 Hz (the aliasing SuperDirt adds on purpose)
          anz random -0.1, 0.1
          atrig mpulse 1, 1/3400
          anz samphold anz, atrig
          anz butbr anz, 4*ip1, 4*ip1*ires
          anz butbr anz*0.5, 2.5*ip1, 2.5*ip1*ires
          anz butbr anz*0.5, 1.8*ip1, 1.8*ip1*ires
          anz butbr anz*0.5, ip1, ip1*ires
          ; Env.perc(0.005, sustain, -4): SuperDirt passes -4 as the level (the curve stays -4)
          anz *= transeg:a(0, 0.005, -4, -4, isus, -4, 0, 1, 0, 0)
          anz SDresonz anz, ip1, 1
          anz *= 40
          aenv transeg 0, 0.005, -4, 0.5, isus, -4, 0, 1, 0, 0
          aL, aR SDpan2 (asrc + anz)*ampdb(4)*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
    ]

    /// The opcodes only the drums use.
    static let drumsShared = #"""
        ; Env.linen(att, sus, rel, 1, curve) over a time scale
        opcode SDlinen, a, iiiii
          iscale, iatt, isus, irel, icrv xin
          aenv transeg 0, iatt*iscale, icrv, 1, isus*iscale, icrv, 1, irel*iscale, icrv, 0, 1, 0, 0
          ; exactly 0 once done (SuperDirt frees the synth there; transeg's curve ends near 1e-14)
          adone linseg 1, (iatt + isus + irel)*iscale, 1, 0, 0, 1, 0
          xout aenv*adone
        endop

        ; SC's wrap(x, lo, hi)
        opcode SDwrap, i, iii
          ix, ilo, ihi xin
          ir = ihi - ilo
          xout ix - floor((ix - ilo)/ir)*ir
        endop

        ; SC SinOscFB (feedback in radians)
        opcode SDsinfb, a, ki
          kf, ifb xin
          setksmps 1
          kph init 0
          kprev init 0
          kout = sin(2*$M_PI*kph + ifb*kprev)
          kprev = kout
          kph = frac(kph + kf/sr)
          xout a(kout)
        endop

        ; SC PMOsc(car, mod, index, modphase): k-rate carrier
        opcode SDpmosc, a, kkii
          kcar, kmod, iidx, imph xin
          am oscili 1, kmod, giSDSine, frac(imph/(2*$M_PI))
          aph phasor kcar
          xout sin(2*$M_PI*aph + iidx*am)
        endop

        ; SC PMOsc with an audio-rate carrier frequency (an oscillator's output, as sostoms' saw).
        ; SinOsc turns its phase input into a 32-bit integer of 2^29 a turn: past 8 pi radians
        ; either way the conversion overflows to -2^31, four whole turns: no offset at all.
        opcode SDpmosca, a, aki
          acar, kmod, iidx xin
          setksmps 1
          kph init 0
          kc = k(acar)
          am oscili 1, kmod, giSDSine
          kx = iidx*k(am)
          kx = (abs(kx) < 8*$M_PI ? kx : 0)
          kout = sin(2*$M_PI*kph + kx)
          kph = frac(kph + kc/sr)
          xout a(kout)
        endop

        ; SC Resonz(freq, bwr): a two-pole resonator with zeros at DC and Nyquist, SC's coefficients
        opcode SDresonz, a, aii
          ain, ifr, irq xin
          iw = limit(ifr, 1, sr*0.49)*2*$M_PI/sr
          iR = 1 - iw*irq*0.5
          icos = (2*iR*cos(iw))/(1 + iR*iR)
          ia0 = (1 - iR*iR)*0.5
          aout biquad ain, ia0, 0, -ia0, 1, -2*iR*icos, iR*iR
          xout aout
        endop

        ; SC Crackle(chaos): y = |chaos*y1 - y2 - 0.05|
        opcode SDcrackle, a, i
          ichaos xin
          setksmps 1
          ky1 init 0.3
          ky2 init 0
          ky = abs(ichaos*ky1 - ky2 - 0.05)
          ky2 = ky1
          ky1 = ky
          xout a(ky)
        endop
        """#
}
