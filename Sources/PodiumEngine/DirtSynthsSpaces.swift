// SuperDirt's synths as Csound instruments, sounds in a space (sc3-plugins' GVerb, as 3.13 has
// it): supergrind (a feedback comb loop), superprimes (nine partials struck at prime rates, each
// through its own GVerb, spread on a ring and folded to two) and superwavemechanics (noise
// through eight resonators, each through GVerb, limited).
// Each is SuperDirt's SynthDef re-expressed (not copied), measured against scsynth's renders of
// the same events (DirtSynthTests); they use `DirtSynths.shared`'s tables and opcodes and their own below.
extension DirtSynths {
    static let spaces: [(name: String, code: String)] = [
        ("supergrind", #"""
        instr supergrind ; podium: freq amp pan accelerate speed:1 detune voice rate:1 +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          idet = limit(p9, -1e6, 1e6)
          ivoice = limit(p10, -1e6, 1e6)
          irate = limit(p11, -1e6, 1e6)
          isus = max(p3 - 0.001, 0.001)
          aenv SDlinen isus, 0.1, 0.8, 0.1, 0
          aenv SDlevel aenv
          kf = ifreq*SDfscale(ispeed, iacc, isus)/2
          aloop, atrig SDgrind kf, idet, ivoice, irate
          ; (sclang reads its operators left to right: sin((loop + 8 trig) x 4))
          aL, aR SDgverb sin(4*aloop + atrig), 10, 3, 0.5, 0.5, 15, 1, 0.7, 0.5
          aL = sin(aL) + aloop
          aR = sin(aR) + aloop
          aL, aR SDbal2 0.3*aL*aenv, 0.3*aR*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("superprimes", #"""
        instr superprimes ; podium: freq amp pan accelerate speed:1 rate:1 detune voice +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          irate = limit(p9, -1e6, 1e6)
          idet = limit(p10, -1e6, 1e6)
          ivoice = p11
          isus = max(p3 - 0.001, 0.001)
          aenv SDlinen isus, 0.1, 0.6, 0.3, 0
          aenv SDlevel aenv
          kf = ifreq*SDfscale(ispeed, iacc, isus)
          kc = (SDlfnoise2(isus) + 1)*4
          ; the room: 10 x voice.linexp(0, 5, 1, 0.01)
          iroom = 10*0.01^(limit(ivoice, 0, 5)/5)
          aL, aR SDprimes kf, kc, isus, irate, idet, ivoice, iroom, 0
          aL, aR SDbal2 aL*aenv, aR*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("superwavemechanics", #"""
        instr superwavemechanics ; podium: freq amp pan accelerate speed:1 detune voice resonance +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          idet = min(limit(p9, -1e6, 1e6), 1.5)
          ivoice = limit(p10, 0, 1)
          ires = limit(p11, 0, 1)
          isus = max(p3 - 0.001, 0.001)
          aph linseg 0, isus, 1, 1, 1
          aenv SDlevel 0.5*(1 - cos(2*$M_PI*aph))
          kf = ifreq*SDfscale(ispeed, iacc, isus)
          ; the draws: eight TIRand, then eight Rand
          is1 = 1045712506
          is2 = -869666609
          is3 = 416541714
          ii[] init 8
          id[] init 8
          ik = 0
          while ik < 16 do
            is1, is2, is3, iz SDtausi is1, is2, is3
            if ik < 8 then
              ii[ik] = floor(4*iz/2^32)
            else
              ilo = 1.6*ii[ik - 8] - idet
              id[ik - 8] = floor((ilo + (int(iz/512)/8388608)*(1.7*ii[ik - 8] + idet - ilo))/0.25 + 0.5)*0.25
            endif
            ik += 1
          od
          ibw = 0.01 + 0.001*1000^ivoice
          iroom = 99*(0.1/99)^ires
          ; the noise: WhiteNoise's own draw, then one a sample, from the same generator
          is1, is2, is3, iz SDtausi is1, is2, is3
          anz SDtausnoise is1, is2, is3
          aL, aR SDwaves anz, kf, ibw, id, iroom, 0
          aL, aR SDbal2 aL*aenv, aR*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#)
    ]

    /// The tables and opcodes only these synths use.
    static let spacesShared = #"""
        ; ---------------------------------------------------------------- supergrind
        ; supergrind's loop, sample by sample: an impulse train at freq x (voice + 1) + freq/2 sin(2 pi t/4)
        ; plus the trigger and the loop's own tanh(LeakDC) output a 64-sample block back (LocalIn),
        ; through two DelayC at 1/(2 freq +- detune) less a block, mixed; then a 1 Hz chorus DelayC
        ; (0.1 +- 0.001 s) added. The trigger: Impulse.kr at rate x (0.25, 0.25, 0.25, 2 a second in
        ; turn), seen by the audio as scsynth's kr-to-ar ramps (1 for the first block, then down to 0).
        ; Returns the loop and 32 x the trigger. DelayC reads 4-point Hermite, 2 samples at least.
        opcode SDgrind, aa, kiii
          kf, idet, ivoice, irate xin
          setksmps 1
          kimph init 1
          kn init 0
          ktph init 1
          ktv init 1
          ktp init 1
          kdc init 0
          kdy init 0
          kt = kn/sr
          ; the trigger, a value per 64-sample block, ramped from the previous block's
          if kn % 64 == 0 then
            ktp = ktv
            ktv = (ktph >= 1 ? 1 : 0)
            ktph = (ktph >= 1 ? ktph - 1 : ktph)
            kseq = (floor(kt) % 4 == 3 ? 2 : 0.25)
            ktph += irate*kseq*64/sr
            ktph = (ktph >= 1 ? ktph - floor(ktph) + 1 : ktph)
            ktph = (ktph < 0 ? ktph - floor(ktph) : ktph)
          endif
          ktrig = ktp + (ktv - ktp)*(kn % 64)/64
          ; Impulse.ar(SinOsc.ar(1/4, 0, freq/2, (voice + 1) freq))
          kimp = (kimph >= 1 ? 1 : 0)
          kimph = (kimph >= 1 ? kimph - 1 : kimph)
          kimph = (kimph >= 1 ? kimph - floor(kimph) : kimph)
          kimph += limit(((ivoice + 1)*kf + kf/2*sin(2*$M_PI*0.25*kt))/sr, 0, 1)
          afb delayr 65/sr
          kfb = k(deltapn(64))
          kx = kfb + kimp + ktrig
          kd1 = limit((1/(2*kf + idet) - 64/sr)*sr, 2, sr - 3)
          kd2 = limit((1/(2*kf - idet) - 64/sr)*sr, 2, sr - 3)
          abuf delayr 1
          ki1 = int(kd1)
          kr1 = kd1 - ki1
          ky0 = k(deltapn(ki1 - 1))
          ky1 = k(deltapn(ki1))
          ky2 = k(deltapn(ki1 + 1))
          ky3 = k(deltapn(ki1 + 2))
          ka = ((((0.5*(ky3 - ky0) + 1.5*(ky1 - ky2))*kr1 + (ky0 - 2.5*ky1 + 2*ky2 - 0.5*ky3))*kr1 + 0.5*(ky2 - ky0))*kr1 + ky1)
          ki1 = int(kd2)
          kr1 = kd2 - ki1
          ky0 = k(deltapn(ki1 - 1))
          ky1 = k(deltapn(ki1))
          ky2 = k(deltapn(ki1 + 1))
          ky3 = k(deltapn(ki1 + 2))
          kb = ((((0.5*(ky3 - ky0) + 1.5*(ky1 - ky2))*kr1 + (ky0 - 2.5*ky1 + 2*ky2 - 0.5*ky3))*kr1 + 0.5*(ky2 - ky0))*kr1 + ky1)
          kloop = (ka + kb)/2
          ; LeakDC(0.995), tanh: the next block's LocalIn
          kdy = kloop - kdc + 0.995*kdy
          kdc = kloop
          delayw a(tanh(kdy))
          delayw a(kx)
          ; the chorus
          achor delayr 0.21
          kd3 = (0.1 + 0.001*sin(2*$M_PI*kt))*sr
          ki1 = int(kd3)
          kr1 = kd3 - ki1
          ky0 = k(deltapn(ki1 - 1))
          ky1 = k(deltapn(ki1))
          ky2 = k(deltapn(ki1 + 1))
          ky3 = k(deltapn(ki1 + 2))
          kc = ((((0.5*(ky3 - ky0) + 1.5*(ky1 - ky2))*kr1 + (ky0 - 2.5*ky1 + 2*ky2 - 0.5*ky3))*kr1 + 0.5*(ky2 - ky0))*kr1 + ky1)
          delayw a(kloop)
          kn += 1
          xout a(kloop + kc), a(32*ktrig)
        endop

        ; ---------------------------------------------------------------- superprimes
        ; SC softclip
        opcode SDsoftclip, a, a
          ain xin
          ; x within +-0.5, else (|x| - 0.25)/x: x (m - 0.25)/m^2, m = max(|x|, 0.5)
          am = 0.5*(abs(ain) + 0.5 + abs(abs(ain) - 0.5))
          xout ain*(am - 0.25)/(am*am)
        endop

        ; SplayAz(9 channels, 18 inputs, spread 1, width 2, orientation 0.5) of input ii at centre kc,
        ; then DirtPan's Splay of the 9 channels to two: the input's left and right gains
        opcode SDsplayaz, kk, ki
          kc, ii xin
          kpos = (kc - 1 + 2*ii/17)*4.5 + 1.5
          kl = 0
          kgr = 0
          kj = 0
          while kj < 9 do
            kch = (kpos - kj)/2
            kch = kch - 4.5*floor(kch/4.5)
            kamp = (kch < 1 ? sin($M_PI*int(4096*kch)/4096) : 0)
            ; Pan2 of channel j at j/4 - 1 (its sine table, 2048 steps a quarter turn)
            kip = limit(int(1024*(kj/4 - 1) + 1024.5), 0, 2048)
            kl += kamp*sin($M_PI/2*(2048 - kip)/2048)
            kgr += kamp*sin($M_PI/2*kip/2048)
            kj += 1
          od
          ; (SplayAz's level 1/sqrt(18), Splay's 1/sqrt(9))
          xout kl/(3*sqrt(18)), kgr/(3*sqrt(18))
        endop

        ; one superprimes partial (k = ik + 1 of 9, prime ip) and the ones after it: a sine at
        ; freq x k/2 (detuned by +-detune/12, alternately), its phase SC's Phasor (t/prime radians,
        ; wrapped at 1), times a 30 Hz-low-passed Decay of impulses every prime x sustain/30 s (as
        ; scsynth starts them: the first one 1 + b, and the low-pass has seen a 1 before it); soft-clipped,
        ; through GVerb (room 10, 10 s; voice shrinks the room), tanh, placed by SDsplayaz
        opcode SDprimes, aa, kkiiiiii
          kf, kc, isus, irate, idet, ivoice, iroom, ik xin
          iprimes[] fillarray 2, 3, 5, 7, 11, 13, 17, 19, 23
          ip = iprimes[ik]
          ifk = (ik + 1)*(ik % 2 == 0 ? 1 + idet/12 : 1 - idet/12)/2
          iimp = limit(30/ip/isus*irate, 0, sr/2)
          idec = (ip + 3)*isus/10
          ib = (idec == 0 ? 0 : exp(log(0.001)/(abs(idec)*sr)))
          atr mpulse 1, (iimp > 0 ? 1/iimp : 0)
          atr += mpulse(ib, 0)
          adec biquad atr, 1, 0, 0, 1, -ib, 0
          ; (voice.linexp(0, 2, 30, 18000): the low-pass from 30 Hz up)
          aenv butlp adec + mpulse(1, 0), 30*600^(limit(ivoice, 0, 2)/2)
          aph phasor 1/ip
          asin = sin(2*$M_PI*phasor:a(limit(kf*ifk, -sr/2, sr/2)) + aph)
          asnd SDsoftclip asin*aenv
          aL, aR SDgverb asnd, iroom, 10, 0.5, 0.5, 15, 1, 0.7, 0.5
          aL = tanh(aL)
          aR = tanh(aR)
          kl1, kr1 SDsplayaz kc, 2*ik
          kl2, kr2 SDsplayaz kc, 2*ik + 1
          aoL = aL*interp(kl1) + aR*interp(kl2)
          aoR = aL*interp(kr1) + aR*interp(kr2)
          if ik < 8 then
            anL, anR SDprimes kf, kc, isus, irate, idet, ivoice, iroom, ik + 1
            aoL += anL
            aoR += anR
          endif
          xout aoL, aoR
        endop

        ; one draw of scsynth's random generator (RGen, taus88): the state and a float in [0, 1)
        opcode SDtaus, kkkk, kkk
          ks1, ks2, ks3 xin
          ks1 = ((ks1 & -2) << 12) # ((((ks1 << 13) # ks1) >> 19) & 8191)
          ks2 = ((ks2 & -8) << 4) # ((((ks2 << 2) # ks2) >> 25) & 127)
          ks3 = ((ks3 & -16) << 17) # ((((ks3 << 3) # ks3) >> 11) & 2097151)
          xout ks1, ks2, ks3, ((((ks1 # ks2) # ks3) >> 9) & 8388607)/8388608
        endop

        ; SC LFNoise2 (a control value every 64 samples): quadratic segments through the midpoints of
        ; random values in [-1, 1), one a 1/freq s. Its numbers come from scsynth's generator as the
        ; reference renders' server had it (RandSeed 12345, nothing else drawing), from that state at
        ; every note: superprimes' wandering centre is that one realisation.
        opcode SDlfnoise2, k, i
          ifreq xin
          ks1 init 1045712506
          ks2 init -869666609
          ks3 init 416541714
          kinit init 1
          kn init 0
          kcnt init 0
          klev init 0
          kslope init 0
          kcurve init 0
          knext init 0
          kmid init 0
          kout init 0
          if kinit == 1 then
            ks1, ks2, ks3, kz SDtaus ks1, ks2, ks3
            knext = 2*kz - 1
            kmid = knext*0.5
            kinit = 0
          endif
          ; (advance to this k-cycle's sample, a control period of 64 samples at a time)
          kend = kn + ksmps
          while kn < kend do
            if kn % 64 == 0 then
              if kcnt <= 0 then
                kval = knext
                ks1, ks2, ks3, kz SDtaus ks1, ks2, ks3
                knext = 2*kz - 1
                klev = kmid
                kmid = (knext + kval)*0.5
                kcnt = max(2, int(sr/64/max(ifreq, 0.001)))
                kcurve = 2*(kmid - klev - kcnt*kslope)/(kcnt*kcnt + kcnt)
              endif
              kout = klev
              kslope += kcurve
              klev += kslope
              kcnt -= 1
            endif
            kn += 1
          od
          xout kout
        endop

        ; ---------------------------------------------------------------- superwavemechanics
        ; the same draw at i-time
        opcode SDtausi, iiii, iii
          is1, is2, is3 xin
          is1 = ((is1 & -2) << 12) # ((((is1 << 13) # is1) >> 19) & 8191)
          is2 = ((is2 & -8) << 4) # ((((is2 << 2) # is2) >> 25) & 127)
          is3 = ((is3 & -16) << 17) # ((((is3 << 3) # is3) >> 11) & 2097151)
          ir = (is1 # is2) # is3
          xout is1, is2, is3, (ir < 0 ? ir + 2^32 : ir)
        endop

        ; SC Limiter(level 1, 0.01 s): the input 960 samples late, times a level that every 480 samples
        ; ramps (over the next 480) to 1/max|input| of the last 960 where that is above 1
        opcode SDlimiter, a, a
          ain xin
          iks = ksmps
          while 480 % iks != 0 || ksmps % iks != 0 do
            iks -= 1
          od
          setksmps iks
          kn init 0
          klev init 1
          kslope init 0
          kcur init 0
          kprev init 0
          aidx phasor sr/iks
          aout delay ain, 960/sr
          aout *= klev + kslope*floor(aidx*iks + 0.5)
          klev += kslope*iks
          kmx max_k ain, 1, 1
          kcur = max(kcur, kmx)
          kn += iks
          if kn % 480 == 0 then
            km2 = max(kprev, kcur)
            kprev = kcur
            kcur = 0
            knext = (km2 > 1 ? 1/km2 : 1)
            kslope = (knext - klev)/480
          endif
          xout aout
        endop

        ; SC Resonz(freq, rq), k-rate frequency
        opcode SDresonzk, a, akk
          ain, kfr, krq xin
          kw = limit(kfr, 0, sr*0.49)*2*$M_PI/sr
          kR = 1 - kw*krq*0.5
          kcos = (2*kR*cos(kw))/(1 + kR*kR)
          ka0 = (1 - kR*kR)*0.5
          aout biquad ain, ka0, 0, -ka0, 1, -2*kR*kcos, kR*kR
          xout aout
        endop

        ; one superwavemechanics voice (ik of 8) and the ones after it: the shared noise through Resonz at
        ; freq x ratio x d, GVerb, x 55, Limiter, a 30 Hz high-pass, then DirtPan's Splay of 16 to two
        opcode SDwaves, aa, akii[]ii
          anz, kf, ibw, id[], iroom, ik xin
          aoL = 0
          aoR = 0
          ir[] fillarray 3/8, 5/8, 1, 9/8
          if id[ik] != 0 then
            ares SDresonzk anz, kf*ir[ik % 4]*id[ik], ibw
            aL, aR SDgverb ares, iroom, 10, 0.5, 0.5, 15, 1, 0.7, 0.5
            aL SDlimiter 55*aL
            aR SDlimiter 55*aR
            aL buthp aL, 30
            aR buthp aR, 30
            ; Splay: channel j (2 ik, 2 ik + 1) at j x 2/15 - 1, level 1/4
            ip1 = limit(int(1024*(2*ik*2/15 - 1) + 1024.5), 0, 2048)
            ip2 = limit(int(1024*((2*ik + 1)*2/15 - 1) + 1024.5), 0, 2048)
            aoL = 0.25*(aL*sin($M_PI/2*(2048 - ip1)/2048) + aR*sin($M_PI/2*(2048 - ip2)/2048))
            aoR = 0.25*(aL*sin($M_PI/2*ip1/2048) + aR*sin($M_PI/2*ip2/2048))
          endif
          if ik < 7 then
            anL, anR SDwaves anz, kf, ibw, id, iroom, ik + 1
            aoL += anL
            aoR += anR
          endif
          xout aoL, aoR
        endop

        ; SC WhiteNoise (times 0.5) drawn from scsynth's generator, continuing from the state given
        opcode SDtausnoise, a, iii
          is1, is2, is3 xin
          ks1 init is1
          ks2 init is2
          ks3 init is3
          anz = 0
          kj = 0
          while kj < ksmps do
            ks1 = ((ks1 & -2) << 12) # ((((ks1 << 13) # ks1) >> 19) & 8191)
            ks2 = ((ks2 & -8) << 4) # ((((ks2 << 2) # ks2) >> 25) & 127)
            ks3 = ((ks3 & -16) << 17) # ((((ks3 << 3) # ks3) >> 11) & 2097151)
            vaset ((((ks1 # ks2) # ks3) >> 9) & 8388607)/8388608 - 0.5, kj, anz
            kj += 1
          od
          xout anz
        endop
        """#
}
