// SuperDirt's synths as Csound instruments, analog: Analog-style synths: detuned saws and pulses through a Moog-style filter, a sound-chip emulation, hoover, zow, Reese bass and a comb-filtered tron.
// Each is SuperDirt's SynthDef re-expressed (not copied), measured against scsynth's renders of
// the same events (DirtSynthTests); they use `DirtSynths.shared`'s tables and opcodes.
extension DirtSynths {
    static let analog: [(name: String, code: String)] = [
        ("supersaw", #"""
        instr supersaw ; podium: freq amp pan accelerate speed:1 rate:1 decay voice:0.5 semitone:12 resonance:0.2 lfo:1 pitch1:1 +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          irate = p9
          idecay = p10
          ivoice = p11
          isemi = limit(p12, -120, 120)                ; (2^(semitone/12) stays a number)
          ires = p13
          ilfo = p14
          ipitch1 = p15
          isus = max(p3 - 0.001, 0.001)
          aenv SDpairs isus, 0.05, idecay, -3
          kbf = ifreq * SDfscale(ispeed, iacc, isus)
          kbf2 = kbf * 2^(isemi/12)
          kf1 = min(kbf*10*ipitch1, 22000)
          kf2 = min(kf1*(ilfo + 1), 22000)
          as1 vco2 -0.5, kbf*(1 - ivoice/50), 0, 0.5, 0.5
          as2 vco2 -0.5, kbf, 0, 0.5, 0.5
          as3 vco2 -0.5, kbf*(1 + ivoice/50), 0, 0.5, 0.5
          atr SDlftri kbf2, ivoice
          alfo SDlftri kbf/64*irate, 0.5
          acut = kf1 + (kf2 - kf1)*(alfo + 1)*0.5
          asnd = 0.5*(as1 + as2 + as3) + 0.5*atr
          asnd SDmoogff asnd, acut, ires*4
          asnd = tanh(asnd)*2
          aL, aR SDpan2 asnd*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("supersquare", #"""
        instr supersquare ; podium: freq amp pan accelerate speed:1 rate:1 decay voice:0.5 semitone:12 resonance:0.2 lfo:1 pitch1:1 +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          irate = p9
          idecay = p10
          ivoice = p11
          isemi = limit(p12, -120, 120)                ; (2^(semitone/12) stays a number)
          ires = p13
          ilfo = p14
          ipitch1 = p15
          isus = max(p3 - 0.001, 0.001)
          aenv SDpairs isus, 0.05, idecay, -3
          kbf = ifreq * SDfscale(ispeed, iacc, isus)
          kbf2 = kbf / 2^(isemi/12)
          kf1 = min(kbf*10*ipitch1, 22000)
          kf2 = min(kf1*(ilfo + 1), 22000)
          kpw = limit(ivoice, 0.01, 0.99)
          ap1 vco2 0.5, kbf, 2, kpw
          ap2 vco2 0.5, kbf2, 2, kpw
          alfo oscili 1, kbf/64*irate, giSDSine
          acut = kf1 + (kf2 - kf1)*(alfo + 1)*0.5
          asnd = 0.7*ap1 + 0.3*ap2
          asnd SDmoogff asnd, acut, ires*4
          asnd = tanh(asnd)*2
          aL, aR SDpan2 asnd*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("superpwm", #"""
        instr superpwm ; podium: freq amp pan accelerate speed:1 rate:1 decay voice:0.5 semitone:12 resonance:0.2 lfo:1 pitch1:1 +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          irate = p9
          idecay = p10
          ivoice = p11
          isemi = limit(p12, -120, 120)                ; (2^(semitone/12) stays a number)
          ires = p13
          ilfo = p14
          ipitch1 = p15
          isus = max(p3 - 0.001, 0.001)
          aenv SDpairs isus, 0.05, idecay, -3
          it2 = isus/max(irate, 0.001)
          kenv2 transeg 0.1, 0.1*it2, -3, 1, 0.3*it2, -3, 0.5, 0.5*it2, -3, 0.2, 0.1*it2, -3, 0.2, 1, 0, 0.2
          kbf = ifreq * SDfscale(ispeed, iacc, isus)
          kbf2 = kbf / 2^(isemi/12)
          kf1 = min(kbf*10*ipitch1, 22000)
          kf2 = min(kf1*(ilfo + 1), 22000)
          kd1 linseg 0, isus, ivoice, 1, ivoice
          kd2 linseg 0.1, isus, 0.1 + ivoice, 1, 0.1 + ivoice
          ap1 vco2 0.5, kbf, 10
          ap2 vco2 0.5, kbf2, 10
          ; (within the line's 200 ms whatever speed, accelerate or n make of the frequency: a
          ; delay past the line's end reads outside it)
          ad1 vdelay3 ap1, a(limit(kd1/max(kbf, 0.01)*1000, 0, 199)), 200
          ad2 vdelay3 ap2, a(limit(kd2/max(kbf, 0.01)*1000, 0, 199)), 200
          asnd = 0.7*ap1*ad1 + 0.3*ap2*ad2
          alfo oscili 1, kbf/32*irate, giSDSine
          acut = kf1 + (kf2 - kf1)*(alfo + 1)*0.5
          asnd SDmoogff asnd, acut, ires*4
          asnd SDmoogff asnd, a(min(kenv2*kf2*1.1, 22000)), 3
          asnd = tanh(asnd)*5
          aL, aR SDpan2 asnd*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("supercomparator", #"""
        instr supercomparator ; podium: freq amp pan accelerate speed:1 rate:1 decay voice:0.5 resonance:0.5 lfo:1 pitch1:1 +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          irate = p9
          idecay = p10
          ivoice = p11
          ires = p12
          ilfo = p13
          ipitch1 = p14
          isus = max(p3 - 0.001, 0.001)
          aenv SDpairs isus, 0.05, idecay, -3
          kbf = ifreq*SDfscale(ispeed, iacc, isus)
          kw linseg 0, isus, 1, 1, 1
          asaw SDvarsaw kbf, kw, 0
          ; sixteen comparators against slow triangles, spread across the stereo field (Splay)
          aL, aR SDcomparators asaw, ivoice/5, 0
          ; the cutoff's LFNoise2 wander (a random realisation) is left out
          alfo oscili ilfo*kbf/2, kbf/64*irate, giSDSine
          acut = ipitch1*4*kbf + alfo
          aL SDmoogff aL*0.25, acut, 4*ires
          aR SDmoogff aR*0.25, acut, 4*ires
          aL, aR SDbal2 0.5*aL*aenv, 0.5*aR*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("superchip", #"""
        ; AY-3-8910 emulation (as sc3-plugins AY / libayemu, 48 kHz: 4 chip tacts per sample,
        ; tone period = tone/2 samples, mono mix A 100 %, B 70 %, C 33 %, 8-bit unipolar output)
        instr superchip ; podium: freq amp pan accelerate speed:1 rate:1 slide pitch2:2 pitch3:3 voice +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          irate = p9
          islide = limit(p10, -100, 100)              ; (a glide past 100 octaves is no glide)
          ipitch2 = p11
          ipitch3 = p12
          ivoice = p13
          isus = max(p3 - 0.001, 0.001)
          aenv transeg 0, 0.01*isus, -1, 1, 0.98*isus, 0, 1, 0.01*isus, -1, 0, 1, 0, 0
          kln linseg -1, isus, 1 + (2*irate - 2), 1, 1 + (2*irate - 2)
          ksl = islide*100
          kx = ksl*kln
          ; wrap2(x, ksl): fold into [-ksl, ksl)
          kx = (ksl == 0 ? 0 : kx - 2*ksl*floor((kx + ksl)/(2*ksl)))
          kbf = (ifreq + kx) * SDfscale(ispeed, iacc, isus)
          kta = limit(int(110300/(kbf - 0.5)), 1, 4095)
          ktb = limit(int(110300/(ipitch2*kbf - 0.5)), 1, 4095)
          ktc = limit(int(110300/(ipitch3*kbf - 0.5)), 1, 4095)
          iva = (ivoice < 0.5 ? 65535 : 0)
          ivb = (frac(2*ivoice) < 0.5 ? 45874 : 0)
          ivc = (frac(4*ivoice) < 0.5 ? 21626 : 0)
          ; tone counters advance 4 tacts per sample; toggle every `tone` tacts
          aa phasor 2*sr/kta
          ab phasor 2*sr/ktb
          ac phasor 2*sr/ktc
          ; bit starts at 0 for the first half period; each output sample sums 4 chip tacts
          amix = SDaybits(aa, 2/kta)*iva + SDaybits(ab, 2/ktb)*ivb + SDaybits(ac, 2/ktc)*ivc
          amix = floor(floor(amix/25)/256)/128
          asnd = tanh(amix/2)*2
          aL, aR SDpan2 asnd*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("superhoover", #"""
        instr superhoover ; podium: freq amp pan accelerate speed:1 decay slide +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          idecay = p9
          islide = limit(p10, -100, 100)              ; (a glide past 100 octaves is no glide)
          isus = max(p3 - 0.001, 0.001)
          aenv SDpairs isus, 0.03, idecay, -1
          kgl linseg 0, 0.05*isus, 1, 0.3*isus, 0, 1, 0
          kf = ifreq * (kgl*(-islide/4) + 1) * SDfscale(ispeed, iacc, isus)
          kv1 oscili 1, 2.94, giSDSine, 3.0/(2*$M_PI)
          kv2 oscili 1, 3.0, giSDSine, 5.5/(2*$M_PI) - 0.5
          kv3 oscili 1, 3.07, giSDSine, 1.2/(2*$M_PI)
          kf1 = kf*0.995*(1.005/0.995)^((kv1 + 1)/2)
          kf2 = kf*0.995*(1.005/0.995)^((kv2 + 1)/2)
          kf3 = kf*0.995*(1.005/0.995)^((kv3 + 1)/2)
          kw1 oscili 0.375, 1.3, giSDSine
          kw2 oscili 0.375, 2.9, giSDSine
          kw3 oscili 0.375, 4.4, giSDSine
          as1 phasor kf1*0.25, 0
          as2 phasor kf2*0.5, 0.005
          as3 phasor kf3*1, 0.01
          ap1 phasor kf1*0.5
          ap2 phasor kf2*1
          ap3 phasor kf3*2
          ; 1 - LFPulse = 1 when phase >= width
          amix = (1*as1*(1 + floor(ap1 - (kw1 + 0.5))) + 0.9*as2*(1 + floor(ap2 - (kw2 + 0.5))) \
            + 1.1*as3*(1 + floor(ap3 - (kw3 + 0.5))))*0.15
          amix = amix + 0.1*(SDlfpar(kf1*0.25) + SDlfpar(kf2*0.25) + SDlfpar(kf3*0.25))
          amix SDbpeak amix, 6000, 1, 3
          amix SDbpeak amix, 3500, 1, 6
          kdl oscili 1, 3, giSDSine, 0.25
          kdc = (1/300 + 1/200)/2
          kdr = (1/200 - 1/300)/2
          adL vdelay3 amix, a((kdc + kdr*kdl)*1000), 10
          adR vdelay3 amix, a((kdc - kdr*kdl)*1000), 10
          aL, aR SDbal2 1.4*(amix + adL)*aenv, 1.4*(amix + adR)*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("superzow", #"""
        instr superzow ; podium: freq amp pan accelerate speed:1 decay slide:1 detune:1 +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          idecay = p9
          islide = (p10 == 0 ? 1e-6 : p10)
          idet = p11
          isus = max(p3 - 0.001, 0.001)
          aenv SDpairs isus, 0.07, idecay, -1
          kbf = ifreq * SDfscale(ispeed, iacc, isus)
          iwt = isus*20/abs(islide)
          kw linseg 0, iwt, 0.5, 1, 0.5
          a1 SDvarsaw kbf, kw, 0
          a2 SDvarsaw kbf*(idet/100 + 1), kw, 0
          a3 SDvarsaw kbf*(-idet/100 + 1), kw, 0
          kd2 linseg 0, 5*isus/abs(islide), 1, 1, 1
          kd3 linseg 0, 20*isus/abs(islide), 1, 1, 1
          ; DelayN: whole samples
          ad2 vdelay3 a2, a(limit(floor(kd2/max(kbf, 0.01)*sr)/sr*1000, 0, 199)), 200
          ad3 vdelay3 a3, a(limit(floor(kd3/max(kbf, 0.01)*sr)/sr*1000, 0, 199)), 200
          asnd = (a1 - ad2 + ad3)/2
          aL, aR SDpan2 asnd*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("superreese", #"""
        instr superreese ; podium: freq amp pan accelerate speed:1 detune voice +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          idet = p9
          ivoice = p10
          isus = max(p3 - 0.001, 0.001)
          aenv linseg 0, 0.05*isus, 1, 0.8*isus, 1, 0.15*isus, 0, 1, 0
          iq1 = 3 + (0.5 - 3)*ivoice/2
          iq2 = 2 + (7 - 2)*ivoice/2
          kf = ifreq * SDfscale(ispeed, iacc, isus)
          a1 SDvarsaw kf*(-idet/100 + 0.99), 0.01, 0.7
          a2 SDvarsaw kf*(idet/100 + 1.01), 0.02, 0.5
          ; Splay, spread 0.2: positions -0.2 / +0.2, no level compensation
          ia = cos(0.4*$M_PI/2)
          ib = sin(0.4*$M_PI/2)
          aL = ia*a1 + ib*a2
          aR = ib*a1 + ia*a2
          aL SDrlpf aL, kf*10, 1/iq1
          aR SDrlpf aR, kf*10, 1/iq1
          aL = limit(aL, -0.2, 0.2)*5
          aR = limit(aR, -0.2, 0.2)*5
          aL SDrlpf aL, kf*20, 1/iq2
          aR SDrlpf aR, kf*20, 1/iq2
          aL, aR SDbal2 0.35*aL*aenv, 0.35*aR*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("supertron", #"""
        instr supertron ; podium: freq amp pan accelerate speed:1 voice detune +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          ivoice = p9
          idet = p10
          isus = max(p3 - 0.001, 0.001)
          aenv linseg 0, 0.05*isus, 1, 0.85*isus, 1, 0.1*isus, 0, 1, 0
          kf = ifreq * SDfscale(ispeed, iacc, isus)
          asnd SDtron kf, idet, ivoice
          aL, aR SDpan2 asnd*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
    ]
}
