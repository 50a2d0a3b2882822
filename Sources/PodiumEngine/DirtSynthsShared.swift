// The tables and opcodes SuperDirt's synths share in Csound (DirtSynths.swift): read-only
// tables made once at compile time, and the UDOs for SuperCollider's UGens the synths use
// (dirt_gate's fade, Pan2 and Balance2, VarSaw, MoogFF, a resonant low-pass, LFTri, AY …).
extension DirtSynths {
    static let shared = #"""
        ; SuperDirt synths re-expressed in Csound 6.18 (Podium).
        ; Conventions: p3 = SuperDirt event sustain (s); the synth's own "sustain" is p3 - 0.001
        ; (SuperDirt subtracts fadeTime), followed by dirt_gate's 1 ms sine fade ending at p3.
        ; Every instrument multiplies by amp and the gate and pans (Pan2 / Balance2 law).
        ; Written for sr = 48000 (superchip's AY emulation assumes 48 kHz), 0dbfs = 1, nchnls = 2;
        ; works at any ksmps (the feedback loops and MoogFF run in setksmps-1 UDOs).

        ; ---------------------------------------------------------------- global read-only tables
        giSDSine   ftgen 0, 0, 16384, 10, 1
        ; superhammond drawbar presets (10 voices x 9 drawbars)
        giSDHammond ftgen 0, 0, 128, -2, \
          1,4,5,4,3,1,0,0,0,  0,0,8,0,4,0,0,0,0,  0,7,8,1,2,0,0,0,0,  0,0,7,8,8,8,8,7,2, \
          4,0,5,5,4,5,3,3,6,  8,8,5,3,2,4,5,8,8,  8,8,8,0,0,0,0,0,3,  8,8,8,8,8,8,8,8,8, \
          8,0,0,0,0,0,8,8,8,  0,0,8,8,0,0,0,0,0
        ; supergong: modes of a clamped circular plate
        ; supercomparator: its comparators' triangle rates (raised to voice/5)
        giSDComp   ftgen 0, 0, 32, -2, 1.000, 2.188, 5.091, 8.529, 8.950, 9.305, 13.746, 14.653, 19.462, \
          22.003, 24.888, 25.991, 26.085, 30.509, 33.608, 35.081, 40.125, 42.023, 46.527, 49.481
        giSDGong   ftgen 0, 0, 16, -2, 1.000, 2.081, 3.414, 3.893, 4.995, 5.954, 6.819, 8.280, \
          8.722, 8.882, 10.868, 11.180, 11.754, 13.710, 13.715, 15.057

        ; ---------------------------------------------------------------- helpers
        ; dirt_gate: 1 until idur-0.001, then a 1 ms sine-shaped fade to 0 at idur. The
        ; cosine only from two blocks before the fade (before it, it is exactly 1): a cosine
        ; a sample was most of a light synth's cost (0.05 % of a core a voice, measured)
        opcode SDgate, a, i
          idur xin
          ifade = min(0.001, idur)
          aph linseg 0, idur - ifade, 0, ifade, 1, 1, 1
          kt timeinsts
          if kt + 2*ksmps/sr < idur - ifade then
            ag = 1
          else
            ag = 0.5 + 0.5*cos($M_PI*aph)
          endif
          xout ag
        endop

        ; DirtFreqScale: speed -> speed*(1+accelerate) over sustain (Line.kr), then held
        ; Kept within +-64 (six octaves), as each synth keeps its freq within 0..sr/2: Csound's
        ; table oscillators wrap their phase in a loop, which a frequency of 1e8 makes take
        ; seconds a note and one of 1e27 (n 1000) never ends.
        opcode SDfscale, k, iii
          ispeed, iacc, isus xin
          ispeed = min(abs(ispeed), 64)
          iend = limit(ispeed*(1 + iacc), -64, 64)
          kf linseg ispeed, isus, iend, 1, iend
          xout kf
        endop

        ; SC RLPF (2-pole resonant low-pass, rq)
        opcode SDrlpf, a, akk
          ain, kf, krq xin
          kq = max(0.001, krq)
          kw = limit(kf, 1, sr*0.49) * 2 * $M_PI / sr
          kD = tan(kw*kq*0.5)
          kC = (1 - kD)/(1 + kD)
          kb1 = (1 + kC)*cos(kw)
          kb2 = -kC
          ka0 = (1 + kC - kb1)*0.25
          aout biquad ain, ka0, 2*ka0, ka0, 1, -kb1, -kb2
          xout aout
        endop

        ; SC BAllPass (RBJ all-pass, rq)
        opcode SDballpass, a, akk
          ain, kf, krq xin
          kw = limit(kf, 1, sr*0.49) * 2 * $M_PI / sr
          kal = sin(kw)*0.5*krq
          kc = -2*cos(kw)
          aout biquad ain, 1 - kal, kc, 1 + kal, 1 + kal, kc, 1 - kal
          xout aout
        endop

        ; SC BPeakEQ (RBJ peaking, rq, dB)
        opcode SDbpeak, a, akkk
          ain, kf, krq, kdb xin
          kA = 10^(kdb/40)
          kw = limit(kf, 1, sr*0.49) * 2 * $M_PI / sr
          kal = sin(kw)*0.5*krq
          kc = -2*cos(kw)
          aout biquad ain, 1 + kal*kA, kc, 1 - kal*kA, 1 + kal/kA, kc, 1 - kal/kA
          xout aout
        endop

        ; SC LFTri (iphase 0..4), bipolar
        opcode SDlftri, a, ki
          kf, iph xin
          aph phasor kf, frac(iph/4 + 0.25)
          xout 1 - 4*abs(aph - 0.5)
        endop

        ; SC VarSaw (width k-rate, iphase 0..1), bipolar
        opcode SDvarsaw, a, kki
          kf, kw, iph xin
          kw = limit(kw, 0.001, 0.999)
          aph phasor kf, iph
          a1 = aph*(2/kw)
          a2 = (1 - aph)*(2/(1 - kw))
          amn min a1, a2
          xout amn - 1
        endop

        ; SC LFPar (iphase 0), bipolar
        opcode SDlfpar, a, k
          kf xin
          aph phasor kf
          ad = abs(aph - 0.5)*4 - 1
          xout 2*ad - ad*abs(ad)
        endop

        ; SC MoogFF (Fontana 2007 linear Moog ladder: four bilinear one-poles in a
        ; delay-free loop, out = (b0^4 in + o)/(1 + b0^4 k)); kgain 0..4. Sample by sample.
        opcode SDmoogff, a, aak
          ain, afreq, kgain xin
          setksmps 1
          ks1 init 0
          ks2 init 0
          ks3 init 0
          ks4 init 0
          kk = limit(kgain, 0, 4)
          kx = k(ain)
          kwt = 2*tan($M_PI*limit(k(afreq), 0, sr*0.49)/sr)
          kb0 = kwt/(kwt + 2)
          ka1 = (kwt - 2)/(kwt + 2)
          kb4 = kb0*kb0*kb0*kb0
          ko = ks4 + kb0*(ks3 + kb0*(ks2 + kb0*ks1))
          ky = (kb4*kx + ko)/(1 + kb4*kk)
          ku = kx - kk*ky
          kf1 = kb0*ku + ks1
          ks1 = kb0*ku - ka1*kf1
          kf2 = kb0*kf1 + ks2
          ks2 = kb0*kf1 - ka1*kf2
          kf3 = kb0*kf2 + ks3
          ks3 = kb0*kf2 - ka1*kf3
          ks4 = kb0*kf3 - ka1*ky
          xout a(ky)
        endop

        ; supercomparator's Splay of comparators k..15: (in > LFTri(rate_k)), Pan2 at k*2/15 - 1
        opcode SDcomparators, aa, aii
          asig, iexp, ik xin
          irate = tab_i(ik, giSDComp)^iexp
          atri SDlftri irate, 0
          ac = limit((asig - atri)*1e9, 0, 1)
          ith = (ik*2/15)*$M_PI/4
          aL = ac*cos(ith)
          aR = ac*sin(ith)
          if ik < 15 then
            anl, anr SDcomparators asig, iexp, ik + 1
            aL += anl
            aR += anr
          endif
          xout aL, aR
        endop

        ; mono -> stereo (Pan2, pan 0..1), times amp and gate
        opcode SDpan2, aa, aiii
          asig, iamp, ipan, idur xin
          ag SDgate idur
          ith = limit(ipan, 0, 1)*$M_PI/2
          asig = asig*ag*iamp
          xout asig*cos(ith), asig*sin(ith)
        endop

        ; stereo -> stereo (Balance2, pan 0..1), times amp and gate
        opcode SDbal2, aa, aaiii
          aL, aR, iamp, ipan, idur xin
          ag SDgate idur
          ith = limit(ipan, 0, 1)*$M_PI/2
          xout aL*ag*iamp*cos(ith), aR*ag*iamp*sin(ith)
        endop

        ; Env.pairs([[0,0],[iatt,1],[0.2,1-decay],[0.95,1-decay],[1,0]], curve) * timescale
        opcode SDpairs, a, iiii
          isus, iatt, idec, icrv xin
          aenv transeg 0, iatt*isus, icrv, 1, (0.2 - iatt)*isus, icrv, 1 - idec, 0.75*isus, icrv, \
            1 - idec, 0.05*isus, icrv, 0, 1, 0, 0
          xout aenv
        endop

        ; ---------------------------------------------------------------- instruments




        ; AY tone channel: number of "on" tacts (0..4) in this output sample
        opcode SDaybits, a, ak
          aph, kinc xin
          ab = 4 + floor(frac(aph) - 0.5) + floor(frac(aph + kinc*0.25) - 0.5) \
            + floor(frac(aph + kinc*0.5) - 0.5) + floor(frac(aph + kinc*0.75) - 0.5)
          xout ab
        endop


        ; one hammond tonewheel: fold frequency into 63..6000 Hz, FM by the click noise
        opcode SDhamsine, a, kiaii
          kf, iratio, afm, iamp, iph xin
          kfr = kf*iratio
          kfr = (kfr < 63 ? kfr*2 : kfr)
          kfr = (kfr > 6000 ? kfr/2 : kfr)
          kfr = (kfr > 6000 ? kfr/2 : kfr)
          aph phasor kfr*afm, iph
          xout iamp*sin(2*$M_PI*aph)
        endop

        ; LFTri.kr(rate, 0)
        opcode SDlftrik, k, i
          irate xin
          kph phasor irate, 0.25
          xout 1 - 4*abs(kph - 0.5)
        endop


        ; SC CombL: linear-interpolated feedback comb, output = delayed signal; sample by sample
        opcode SDcombl, a, aki
          ain, kdel, idec xin
          setksmps 1
          kdel = limit(kdel, 1/sr, 0.05)
          kfb = exp(-6.907755*kdel/idec)
          abuf delayr 0.05
          ad deltapi kdel
          delayw ain + kfb*ad
          xout ad
        endop



        ; supertron's feedback loop runs sample by sample (SC LocalIn = one 64-sample block)
        opcode SDtron, a, kii
          kf, idet, ivoice xin
          setksmps 1
          afb delayr 64/sr
          afl SDrlpf afb, kf/6.1, 1.5
          kw = (k(afl) + 1)*0.5*(1 - ivoice/1.5)
          kw = limit(kw, 0.001, 0.999)
          ap1 vco2 0.5, kf + 1 + idet, 2, kw
          ap2 vco2 0.5, kf - 1 - idet, 2, kw
          asnd dcblock ap1 + ap2, 0.995
          delayw asnd
          xout asnd
        endop




        ; one supergong partial (recursive over the mode table)
        opcode SDgongpart, a, kiiiii
          kf, ifreq, isus, idecay, ivoice, ii xin
          imode tab_i ii, giSDGong
          its = 100/ifreq/(imode^(2 - limit(idecay, 0, 2)))
          ias = imode^limit(ivoice, 0, 4)
          iend = 0.51*its*isus*5
          aenv transeg 0, 0.01*its*isus*5, -4, 0.2*ias, 0.5*its*isus*5, -4, 0, 1, 0, 0
          agt linseg 1, iend, 1, 1/sr, 0, 1, 0
          aenv *= agt
          asig oscili aenv, kf*imode, giSDSine
          if ii < 14 then
            arest SDgongpart kf, ifreq, isus, idecay, ivoice, ii + 1
            asig += arest
          endif
          xout asig
        endop


        ; one psin partial: carrier phase-modulated by a sine at modfreq*k
        opcode SDpsinpart, a, kkaai
          kf, kmf, aph, aidx, ik xin
          am oscili 1, kmf*ik, giSDSine
          apm = $M_PI/2 + am*aidx/ik
          as tablei aph + apm/(2*$M_PI), giSDSine, 1, 0, 1
          if ik < 5 then
            ar SDpsinpart kf, kmf, aph, aidx, ik + 1
            as += ar
          endif
          xout as
        endop




        ; superpiano: MdaPiano (a sample-based piano) approximated additively, fitted to the
        ; reference renders: partial k at k*f*sqrt(1+B k^2), level k^-0.136/(1+(k/kc)^2),
        ; decay time to -60 dB T0/(1 + f_k/2645) s; T0, kc and gain fitted at MIDI 48, 60, 67
        ; and interpolated (log-linear) in between, held outside.
        opcode SDpianopart, aa, kiiiiiii
          kf, ifreq, iB, ikc, iT0, ik, inum, ist xin
          ifk = ik*ifreq*sqrt(1 + iB*ik*ik)
          ilev = ik^(-0.136)/(1 + (ik/ikc)^2)
          itk = iT0/(1 + ifk/2645)
          aenv expon ilev, itk, ilev*0.001
          as oscili aenv, kf*ik*sqrt(1 + iB*ik*ik), giSDSine, frac(ik*0.7/(2*$M_PI))
          isg = (ik % 2 == 0 ? 1 : -1)*ist*0.5
          aL = as*(1 + isg)
          aR = as*(1 - isg)
          if ik < inum then
            aL2, aR2 SDpianopart kf, ifreq, iB, ikc, iT0, ik + 1, inum, ist
            aL += aL2
            aR += aR2
          endif
          xout aL, aR
        endop

        ; ---------------------------------------------------------------- DirtPan's level
        ; How DirtPan applies a synth's envelope: Pan2 and Balance2 (scsynth 3.13) read their level input
        ; once a 64-sample block (its first sample) and ramp to it across the block from the previous
        ; block's, so the envelope arrives one block late, in straight 64-sample segments (measured in
        ; the reference renders: superfm's and superhex's attack and release, superstatic's rise)
        opcode SDlevel, a, a
          aenv xin
          setksmps 1
          kn init 0
          kprev init 0
          kcur init 0
          if kn % 64 == 0 then
            kprev = kcur
            kcur = k(aenv)
          endif
          kg = kprev + (kcur - kprev)*(kn % 64)/64
          kn += 1
          xout a(kg)
        endop
        """#
}
