// SuperDirt's synths as Csound instruments, noise: superstatic (a Dust-gated pulse under a sine
// envelope) and supernoise (stepped noise crossfaded to brown and white, through BMoog's
// saturating ladder).
// Each is SuperDirt's SynthDef re-expressed (not copied), measured against scsynth's renders of
// the same events (DirtSynthTests); they use `DirtSynths.shared`'s tables and opcodes and their own below.
extension DirtSynths {
    static let noise: [(name: String, code: String)] = [
        ("superstatic", #"""
        instr superstatic ; podium: freq amp pan accelerate speed:1 +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          isus = max(p3 - 0.001, 0.001)
          kf = ifreq*SDfscale(ispeed, iacc, isus)
          asnd SDstatic kf
          aph linseg 0, isus, 1, 1, 1
          aenv SDlevel 0.25*(1 - cos(2*$M_PI*aph))
          aL, aR SDpan2 asnd*0.5*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("supernoise", #"""
        instr supernoise ; podium: freq amp pan accelerate slide pitch1:1 rate:1 resonance voice +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          iacc = limit(p7, -1e6, 1e6)
          islide = limit(p8, -1e6, 1e6)
          ipitch1 = limit(p9, -1e6, 1e6)
          irate = limit(p10, -1e6, 1e6)
          ires = limit(p11, -1e6, 1e6)
          ivoice = p12
          isus = max(p3 - 0.001, 0.001)
          aenv SDlinen isus, 0.01, 0.98, 0.01, -1
          aenv SDlevel aenv
          ; basefreq: 8 x freq, plus accelerate's glide (4 x freq x accelerate), wrapped into its range
          ia = abs(iacc*ifreq*4)
          kln linseg -1, isus, 2*irate - 1, 1, 2*irate - 1
          kx = iacc*ifreq*4*kln
          kx = (ia == 0 ? 0 : kx - 2*ia*floor((kx + ia)/(2*ia)))
          kbf = ifreq*8 + kx
          ksl linseg 1, isus, 1 + islide, 1, 1 + islide
          kff = limit(kbf*5*ipitch1*ksl, 60, 20000)
          iseed random 0.01, 0.99
          asnd randh 0.5, limit(kbf, 0, 22000), iseed
          if ivoice != 0 then
            abr SDbrown
            awh random -0.5, 0.5
            kmid = (kbf > 0 ? (12*log2(kbf/440) + 69)/127 : -1)
            asnd SDxfade2 asnd, SDxfade2(abr, awh, kmid), 2*ivoice - 1
          endif
          asnd SDbmoog asnd, kff, ires
          asnd buthp asnd, 20
          asnd = limit(asnd, -1, 1)*0.3
          aL, aR SDpan2 asnd*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#)
    ]

    /// The tables and opcodes only these synths use.
    static let noiseShared = #"""
        ; ---------------------------------------------------------------- superstatic (Dust -> Pulse)
        ; x rounded to a 32-bit float (scsynth's controls and Dust's threshold are floats)
        opcode SDf32, k, k
          kx xin
          kq = (kx == 0 ? 1 : 2^(floor(log2(abs(kx))) - 23))
          xout round(kx/kq)*kq
        endop

        ; superstatic: scsynth's Pulse (a leaky integral of two band-limited impulse trains, 0.999 a
        ; sample) whose frequency input it reads once a 64-sample block, and that input is freq*4 when
        ; the block's first Dust sample is above 0.5, else 0. At frequency 0 Pulse's harmonic count
        ; overflows (N = 2^31 past int32): its phase stops, and stopped at 0 (as it starts) its
        ; integrator climbs towards 1000 until Dust moves it on. Dust draws its numbers from scsynth's
        ; generator (taus88) as the reference renders' server had it seeded (RandSeed 12345, nothing
        ; else drawing): every note starts from that state, so a note is that one realisation.
        opcode SDstatic, a, k
          kf xin
          setksmps 1
          ks1 init 1045712506
          ks2 init -869666609
          ks3 init 416541714
          kinit init 1
          kcnt init 0
          kph init 0
          kpo init 0
          kpos init 0
          ky init 0
          kN init 0
          ksc init 0
          kfin init 0
          kpN init 0
          kpsc init 0
          kinc init 0
          kx init 0
          kxf init 0
          krs init 0
          kN2 init 1
          kpN2 init 1
          if kcnt == 0 then
            kff = SDf32(kf)
            kthr = SDf32(SDf32(kff*40)/sr)
            kdsc = SDf32(1/kthr)
            knd = (kinit == 1 ? 65 : 64)
            kj = 0
            kon = 0
            kon0 = 0
            while kj < knd do
              ; one draw of scsynth's RGen (taus88) as a float in [0, 1)
              ks1 = ((ks1 & -2) << 12) # ((((ks1 << 13) # ks1) >> 19) & 8191)
              ks2 = ((ks2 & -8) << 4) # ((((ks2 << 2) # ks2) >> 25) & 127)
              ks3 = ((ks3 & -16) << 17) # ((((ks3 << 3) # ks3) >> 11) & 2097151)
              kz = ((((ks1 # ks2) # ks3) >> 9) & 8388607)/8388608
              kdust = (kz < kthr && SDf32(kz*kdsc) > 0.5 ? 1 : 0)
              kon0 = (kj == 0 ? kdust : kon0)
              kon = (kj == knd - 64 ? kdust : kon)
              kj += 1
            od
            kfi = kon*4*kff
            if kinit == 1 then
              ; the constructors' sample (its own draw) sets Pulse's first frequency
              kfin = kon0*4*kff
              kN = (kfin == 0 ? -2147483648 : limit(int(sr*0.5/kfin), 1, 2147483647))
              ksc = 0.5/kN
              kinit = 0
            endif
            kNn = (kfi == 0 ? -2147483648 : limit(int(sr*0.5/kfi), 1, 2147483647))
            if kfi != kfin && kNn != kN then
              kinc = int(2^28/sr*max(kfin, kfi))
              kx = 1
              kpN = kN
              kpsc = ksc
              kN = kNn
              ksc = 0.5/kN
            else
              kinc = int(2^28/sr*kfi)
              kx = 0
            endif
            ; (2N + 1 in int32: 2^31 overflows to 1)
            kN2 = 2*kN + 1
            kN2 = kN2 - floor((kN2 + 2^31)/2^32)*2^32
            kpN2 = 2*kpN + 1
            kpN2 = kpN2 - floor((kpN2 + 2^31)/2^32)*2^32
            kpos = int((2^27 - kpo)/64)
            krs = 1/ksc + 1
            kfin = kfi
            kxf = 0
          endif
          ; the two impulse trains, half a period apart (duty 0.5); phase 2^29 is 2 pi
          kt1 = 2*$M_PI*(kph/2^29 - floor(kph/2^29))
          kq = kph + kpo
          kt2 = 2*$M_PI*(kq/2^29 - floor(kq/2^29))
          ks = sin(kt1)
          kc = sin(kt2)
          if kx == 1 then
            ku1 = (abs(ks) < 0.0005 ? 1 : (1 - kxf)*(sin(kpN2*kt1)/ks - 1)*kpsc + kxf*(sin(kN2*kt1)/ks - 1)*ksc)
            ku2 = (abs(kc) < 0.0005 ? 1 : (1 - kxf)*(sin(kpN2*kt2)/kc - 1)*kpsc + kxf*(sin(kN2*kt2)/kc - 1)*ksc)
            ky = ku1 - ku2 + 0.999*ky
          else
            ku1 = (abs(ks) < 0.0005 ? krs : sin(kN2*kt1)/ks)
            ku2 = (abs(kc) < 0.0005 ? krs : sin(kN2*kt2)/kc)
            ky = (ku1 - ku2)*ksc + 0.999*ky
          endif
          kph += kinc
          kph = kph - floor((kph + 2^31)/2^32)*2^32
          kpo += kpos
          kxf += 1/64
          kcnt += 1
          if kcnt >= 64 then
            kcnt = 0
            kpo = 2^27
          endif
          xout a(ky)
        endop

        ; ---------------------------------------------------------------- supernoise
        ; SC BMoog (sc3-plugins, mode low-pass): four saturating (+-0.95) one-pole/one-zero stages (each
        ; a DC gain of 2) in a 0.25-scaled negative-feedback loop; its pole from a cubic in the cutoff,
        ; its feedback gain res x 1/(2.2278 + 1.4704 p + 0.24265 p^2) (a fit of its gain table). Sample
        ; by sample.
        opcode SDbmoog, a, akk
          ain, kcut, kres xin
          setksmps 1
          ko init 0
          ks1 init 0
          ks2 init 0
          ks3 init 0
          ks4 init 0
          kfc = 2*limit(kcut, 0, sr/2)/sr
          kp = -0.69346*kfc*kfc*kfc - 0.59515*kfc*kfc + 3.2937*kfc - 1.0072
          kq = kres/(2.2278 + 1.4704*kp + 0.24265*kp*kp)
          ko = 0.25*(k(ain) - ko)
          kt = ks1
          ko = limit(ko + kp*(ko - kt), -0.95, 0.95)
          ks1 = ko
          ko = limit(ko + kt, -0.95, 0.95)
          kt = ks2
          ko = limit(ko + kp*(ko - kt), -0.95, 0.95)
          ks2 = ko
          ko = limit(ko + kt, -0.95, 0.95)
          kt = ks3
          ko = limit(ko + kp*(ko - kt), -0.95, 0.95)
          ks3 = ko
          ko = limit(ko + kt, -0.95, 0.95)
          kt = ks4
          ko = limit(ko + kp*(ko - kt), -0.95, 0.95)
          ks4 = ko
          ko = limit(ko + kt, -0.95, 0.95)
          kout = ko
          ; (a feedback past any number is a number still: the stages saturate)
          ko = limit(ko*kq, -1e6, 1e6)
          xout a(kout)
        endop

        ; SC BrownNoise (steps of +-0.125, folded at +-1) times 0.5
        opcode SDbrown, a, 0
          setksmps 1
          kz init 0
          kz += random:k(-0.125, 0.125)
          kz = (kz > 1 ? 2 - kz : (kz < -1 ? -2 - kz : kz))
          xout a(kz*0.5)
        endop

        ; SC XFade2: equal-power crossfade, pan -1 (a) .. 1 (b)
        opcode SDxfade2, a, aak
          aa, ab, kpan xin
          kx = (limit(kpan, -1, 1) + 1)*$M_PI/4
          xout aa*cos(kx) + ab*sin(kx)
        endop
        """#
}
