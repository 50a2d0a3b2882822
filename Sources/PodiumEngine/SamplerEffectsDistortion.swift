// SuperDirt's distortion, pitch and delay effects (Csound UDOs, default-effects-extra.scd):
// distort, triode, krush, octer, fshift, phaser, squiz, waveloss and the spectral delay. Part of
// `SamplerOrchestra.extraEffects` (SamplerEffectsExtra.swift, with the conventions and the
// measurements against scsynth's renders).
extension SamplerOrchestra {
    /// distort … spectral delay, after the filters.
    static let extraDistortionEffects = #"""
        ; distort (dirt_distort): CrossoverDistortion(amp 0.2, smooth 0.01) plus 0.1 distort
        ; times a resonator bank (DynKlank: SC Ringz at 60, 61, 240 Hz and 3000 + 100
        ; sin(2 pi 62 t), ring times 0.1, 0.1, 0.05, 0.01 s), then softclip(8 x^3) / 2, then
        ; SelectX(distort, [signal, that]). idistort: 0..1, off: 0 (no change).
        opcode podium_fx_distort, aa, aai
          al, ar, idist xin
          if idist == 0 goto podium_fx_distort_done
            ; SelectX(w, [a, b]) = XFade2(a or b by w.round(2), b by w.trunc(2) + 1, fold2(2 w - 1))
            iA = limit(2 * floor(idist / 2 + 0.5), 0, 1)
            iB = limit(2 * floor(idist / 2) + 1, 0, 1)
            ipos = limit(int(1024 * mirror:i(2 * idist - 1, -1, 1) + 1024.5), 0, 2048)
            igA = sin($M_PI * (2048 - ipos) / 4096)
            igB = sin($M_PI * ipos / 4096)
            idry = igA * (1 - iA) + igB * (1 - iB)
            iwet = igA * iA + igB * iB
            ; Ringz: 0.5 (1 - z^-2) / (1 - b1 z^-1 + R^2 z^-2), R = 0.001^(1 / (T sr)),
            ; b1 = 4 R^2 cos(w) / (1 + R^2)
            iR1 = 0.001 ^ (1 / (0.1 * sr))
            iR3 = 0.001 ^ (1 / (0.05 * sr))
            iR4 = 0.001 ^ (1 / (0.01 * sr))
            ib1 = 4 * iR1 * iR1 * cos(2 * $M_PI * 60 / sr) / (1 + iR1 * iR1)
            ib2 = 4 * iR1 * iR1 * cos(2 * $M_PI * 61 / sr) / (1 + iR1 * iR1)
            ib3 = 4 * iR3 * iR3 * cos(2 * $M_PI * 240 / sr) / (1 + iR3 * iR3)
            ; (SC's Ringz takes its frequency once a block: here once a k-cycle)
            kph phasor 62
            kb4 = 4 * iR4 * iR4 * cos(2 * $M_PI * (3000 + 100 * sin(2 * $M_PI * kph)) / sr) / (1 + iR4 * iR4)
            ik = 0.1 * idist
            ; left
            ax = al
            as = abs(ax) - 0.2                        ; CrossoverDistortion
            an = (as - abs(as)) * 0.5                 ; (the part below 0)
            am = as - an + an * (1 + 500 * an) * 0.01
            am = am * (2 * limit(floor(ax) + 1, 0, 1) - 1)
            a1 biquad ax, 0.5, 0, -0.5, 1, -ib1, iR1 * iR1
            a2 biquad ax, 0.5, 0, -0.5, 1, -ib2, iR1 * iR1
            a3 biquad ax, 0.5, 0, -0.5, 1, -ib3, iR3 * iR3
            a4 biquad ax, 0.5, 0, -0.5, 1, -kb4, iR4 * iR4
            am = am + ik * (a1 + a2 + a3 + a4)
            am = 8 * am * am * am
            ag limit abs(am), 0.5, 1e30               ; softclip: x, or (|x| - 0.25) / x
            al = idry * ax + iwet * 0.5 * am * (ag - 0.25) / (ag * ag)
            ; right
            ax = ar
            as = abs(ax) - 0.2
            an = (as - abs(as)) * 0.5                 ; (the part below 0)
            am = as - an + an * (1 + 500 * an) * 0.01
            am = am * (2 * limit(floor(ax) + 1, 0, 1) - 1)
            a1 biquad ax, 0.5, 0, -0.5, 1, -ib1, iR1 * iR1
            a2 biquad ax, 0.5, 0, -0.5, 1, -ib2, iR1 * iR1
            a3 biquad ax, 0.5, 0, -0.5, 1, -ib3, iR3 * iR3
            a4 biquad ax, 0.5, 0, -0.5, 1, -kb4, iR4 * iR4
            am = am + ik * (a1 + a2 + a3 + a4)
            am = 8 * am * am * am
            ag limit abs(am), 0.5, 1e30
            ar = idry * ax + iwet * 0.5 * am * (ag - 0.25) / (ag * ag)
        podium_fx_distort_done:
          xout al, ar
        endop

        ; triode (dirt_triode): x for x > 0, tanh(s x) / s below, s = 10 triode + 0.001,
        ; then LeakDC (0.995). itriode: off: 0 (SuperDirt would still apply the LeakDC).
        opcode podium_fx_triode, aa, aai
          al, ar, itriode xin
          if itriode == 0 goto podium_fx_triode_done
            is = itriode * 10 + 0.001
            an = (al - abs(al)) * 0.5                 ; (the part below 0)
            al = al - an + tanh(an * is) / is
            an = (ar - abs(ar)) * 0.5
            ar = ar - an + tanh(an * is) / is
            ; SC's LeakDC starts as if its input had always been the first sample (no
            ; step at the start): dcblock of the input minus that
            kfirst, kx0l, kx0r init 1, 0, 0
            if kfirst == 0 kgoto podium_fx_triode_dc
              kx0l vaget 0, al
              kx0r vaget 0, ar
              kfirst = 0
        podium_fx_triode_dc:
            al dcblock al - kx0l, 0.995
            ar dcblock ar - kx0r, 0.995
        podium_fx_triode_done:
          xout al, ar
        endop

        ; krush (dirt_krush, Sonic Pi's krush): (x^2 + k x) / (x^2 + |x| (k - 1) + 1), then
        ; RLPF(kcutoff clipped to 20..10000, or 4000 when kcutoff is 0, rq 1), then
        ; SelectX(2 krush, [dry, that]). ikrush: off: 0 (no change); ikcutoff: Hz (0).
        opcode podium_fx_krush, aa, aaii
          al, ar, ikrush, ikcut xin
          if ikrush == 0 goto podium_fx_krush_done
            ion = limit(ikcut * 1e9, 0, 1)            ; (1 when kcutoff > 0)
            iw = 2 * $M_PI * limit(ion * ikcut + (1 - ion) * 4000, 20, 10000) / sr
            iD = tan(iw * 0.5)
            iC = (1 - iD) / (1 + iD)
            ib1 = (1 + iC) * cos(iw)
            ia0 = (1 + iC - ib1) * 0.25
            ; SelectX (see distort)
            iA = limit(2 * floor(ikrush + 0.5), 0, 1)
            iB = limit(2 * floor(ikrush) + 1, 0, 1)
            ipos = limit(int(1024 * mirror:i(4 * ikrush - 1, -1, 1) + 1024.5), 0, 2048)
            igA = sin($M_PI * (2048 - ipos) / 4096)
            igB = sin($M_PI * ipos / 4096)
            idry = igA * (1 - iA) + igB * (1 - iB)
            iwet = igA * iA + igB * iB
            ax = al * al
            ak = (ax + ikrush * al) / (ax + abs(al) * (ikrush - 1) + 1)
            ak biquad ak, ia0, 2 * ia0, ia0, 1, -ib1, iC
            al = idry * al + iwet * ak
            ax = ar * ar
            ak = (ax + ikrush * ar) / (ax + abs(ar) * (ikrush - 1) + 1)
            ak biquad ak, ia0, 2 * ia0, ia0, 1, -ib1, iC
            ar = idry * ar + iwet * ak
        podium_fx_krush_done:
          xout al, ar
        endop

        ; (octer's sub-octaves) ToggleFF of the low-passed signal and ToggleFF of that, each
        ; flipping 0 <-> 1 on a rise above 0: returns sub * (osub oct2 + osubsub oct3)
        opcode podium_fxh_octsub, a, aii
          asub, isub, isubsub xin
          setksmps 1
          kprev, kt2, kt3 init 0, 0, 0
          kx = k(asub)
          if kx <= 0 || kprev > 0 kgoto podium_fxh_octsub_out
            kt2 = 1 - kt2
            kt3 = kt3 + kt2 * (1 - 2 * kt3)           ; (oct3 flips when oct2 rises)
        podium_fxh_octsub_out:
          kprev = kx
          xout a(kx * (isub * kt2 + isubsub * kt3))
        endop

        ; octer (dirt_octer, Sonic Pi's octaver): SelectX(octer, [x, octer * 2 LeakDC(|x|),
        ; 0]) + octersub oct2 sub + octersubsub oct3 sub, sub = LPF(x, 440) (Butterworth)
        ; and oct2, oct3 its ToggleFF sub-octave squares (0 / 1). ioct, isub, isubsub:
        ; octer, octersub, octersubsub (each 0 when not given); off: all three 0.
        opcode podium_fx_octer, aa, aaiii
          al, ar, ioct, isub, isubsub xin
          if ioct == 0 && isub == 0 && isubsub == 0 goto podium_fx_octer_done
            ; SelectX over 3 (see distort): index of a (0 or 2) and b (1 or 2)
            iA = limit(2 * floor(ioct / 2 + 0.5), 0, 2)
            iB = limit(2 * floor(ioct / 2) + 1, 0, 2)
            ipos = limit(int(1024 * mirror:i(2 * ioct - 1, -1, 1) + 1024.5), 0, 2048)
            igA = sin($M_PI * (2048 - ipos) / 4096)
            igB = sin($M_PI * ipos / 4096)
            idry = igA * (1 - limit(iA, 0, 1)) + igB * (1 - limit(iB, 0, 1))
            ioc = ioct * 2 * (igA * (1 - abs(iA - 1)) + igB * (1 - abs(iB - 1)))
            ; (SC's LeakDC starts as if its input had always been the first sample: see triode)
            kfirst, kx0l, kx0r init 1, 0, 0
            if kfirst == 0 kgoto podium_fx_octer_run
              kx0l vaget 0, al
              kx0r vaget 0, ar
              kfirst = 0
        podium_fx_octer_run:
            ao dcblock abs(al) - abs(kx0l), 0.995
            as butlp al, 440
            as podium_fxh_octsub as, isub, isubsub
            al = idry * al + ioc * ao + as
            ao dcblock abs(ar) - abs(kx0r), 0.995
            as butlp ar, 440
            as podium_fxh_octsub as, isub, isubsub
            ar = idry * ar + ioc * ao + as
        podium_fx_octer_done:
          xout al, ar
        endop

        ; fshift (dirt_fshift): single-sideband shift by fshift + fshiftnote * freq Hz (SC
        ; FreqShift: Hilbert pair times a quadrature oscillator at phase fshiftphase).
        ; ishift: fshift Hz; inote: fshiftnote; iphase: fshiftphase (radians); ifreq: the
        ; note's frequency (Hz). Off: ishift and inote both 0 (SuperDirt adds the module
        ; only when fshift is given: pass 0 for both when it is not).
        opcode podium_fx_fshift, aa, aaiiii
          al, ar, ishift, inote, iphase, ifreq xin
          if ishift == 0 && inote == 0 goto podium_fx_fshift_done
            ; (hilbert: SC's Hilbert allpasses, its outputs the other way round; SC's
            ; oscillator is one sample ahead: its constructor runs a sample)
            ishift = ifreq * inote + ishift
            aph phasor ishift
            ac = cos(2 * $M_PI * (aph + ishift / sr) + iphase)
            as = sin(2 * $M_PI * (aph + ishift / sr) + iphase)
            are, aim hilbert al
            al = are * as + aim * ac
            are, aim hilbert ar
            ar = are * as + aim * ac
        podium_fx_fshift_done:
          xout al, ar
        endop

        ; phaser (dirt_phaser): x + depth * x delayed by LFPar(rate).range(8.8, 10 ms)
        ; (AllpassL with decay 0: a plain interpolated delay, a flanger). iprate:
        ; phaserrate Hz, off: 0; ipdepth: phaserdepth, clipped to 0..1 (0 when not given).
        opcode podium_fx_phaser, aa, aaii
          al, ar, iprate, ipdepth xin
          if iprate == 0 goto podium_fx_phaser_done
            ; LFPar.kr: parabolas from +1, a value a k-cycle (its constructor takes the
            ; first step), which AllpassL follows linearly through the block
            ; (not phasor: at a rate past kr its phase leaves 0..1 for good, and the
            ; delay it sets then held vdelay's wrapping loop for minutes: phaserrate 1e6)
            kph init wrap(iprate / kr, 0, 1)
            kd = abs(kph - 0.5) * 4 - 1
            kx = kph + iprate / kr
            kph = kx - floor(kx)
            adel interp 9.4 + 0.6 * (2 * kd - kd * abs(kd)), 0, 0, 10  ; ms
            id = limit(ipdepth, 0, 1)
            ad vdelay al, adel, 20
            al = al + id * ad
            ad vdelay ar, adel, 20
            ar = ar + id * ad
        podium_fx_phaser_done:
          xout al, ar
        endop

        ; (squiz, one channel, sample by sample: Squiz with zcperchunk 1, memlen 0.1 s)
        ; Writes the input into a buffer from its start, restarting at each rise through
        ; 0 (or when full); reads it from its start at ratio samples per sample, without
        ; interpolation, 0 past its end. The buffer: a k-array of 0.1 s (38 KB at 48 kHz).
        opcode podium_fxh_squiz, a, ai
          ain, iratio xin
          setksmps 1
          ilen = int(0.1 * sr)
          kbuf[] init ilen
          kw, krd, kprev, kfirst init 0, 0, 0, 1
          kx = k(ain)
        podium_fxh_squiz_read:
          kout = 0
          if krd >= ilen kgoto podium_fxh_squiz_write
            kout = kbuf[int(krd)]
            krd += iratio
        podium_fxh_squiz_write:
          kw += 1
          if kw < ilen && (kprev >= 0 || kx < 0) kgoto podium_fxh_squiz_store
            kw = 0
            krd = 0
        podium_fxh_squiz_store:
          kbuf[kw] = kx
          kprev = kx
          if kfirst == 0 kgoto podium_fxh_squiz_out
            kfirst = 0                                ; (SC's constructor runs the first
            kgoto podium_fxh_squiz_read               ; sample once more)
        podium_fxh_squiz_out:
          xout a(kout)
        endop

        ; squiz (squiz, sc3-plugins Squiz): iratio: squiz (pitchratio, clipped to
        ; 1..4800); off: 0 or less (SuperDirt clips 0 to 1: about no change).
        opcode podium_fx_squiz, aa, aai
          al, ar, isquiz xin
          if isquiz <= 0 goto podium_fx_squiz_done
            ir = limit(isquiz, 1, int(0.1 * sr))
            al podium_fxh_squiz al, ir
            ar podium_fxh_squiz ar, ir
        podium_fx_squiz_done:
          xout al, ar
        endop

        ; (waveloss, one channel, sample by sample: WaveLoss) at each rise through 0 a new
        ; segment starts: kept or dropped (mode 2: at random, drop / outof of them; else
        ; segments drop..outof-1 of each outof are kept)
        opcode podium_fxh_waveloss, a, aiii
          ain, idrop, iout, imode xin
          setksmps 1
          kprev, kon, kn init 0, 1, 0
          kx = k(ain)
          if kprev >= 0 || kx < 0 kgoto podium_fxh_waveloss_out
            kn += 1
            kn = kn * limit(iout - kn, 0, 1)          ; wraps to 0 at outof
            if imode != 2 kgoto podium_fxh_waveloss_fixed
              kon = limit(ceil(random:k(0, 1) * iout - idrop), 0, 1)  ; frand >= drop / outof
              kgoto podium_fxh_waveloss_out
        podium_fxh_waveloss_fixed:
              kon = limit(kn - idrop + 1, 0, 1)       ; pos >= drop
        podium_fxh_waveloss_out:
          kprev = kx
          xout a(kx * kon)
        endop

        ; waveloss (waveloss, sc3-plugins WaveLoss with outof 100, mode 2): drops about
        ; waveloss % of the wave segments (between rises through 0), at random, each
        ; channel its own. iloss: waveloss 0..100 (truncated), off: 0 or less (no change);
        ; imode: 2 (SuperDirt always uses 2), 1 drops the first iloss of every 100.
        opcode podium_fx_waveloss, aa, aaii
          al, ar, iloss, imode xin
          if iloss <= 0 goto podium_fx_waveloss_done
            al podium_fxh_waveloss al, int(iloss), 100, imode
            ar podium_fxh_waveloss ar, int(iloss), 100, imode
        podium_fx_waveloss_done:
          xout al, ar
        endop

        ; (spectral-delay, one channel: bands ib..16, recursively) band i: SC BPF at
        ; 40 (17000/40)^((i-1)/15) Hz, rq 0.005, delayed (DelayN) by (i & xsdelay) / 16 *
        ; tsdelay * 0.2 s, truncated to samples, at least 1 sample, at most 0.2 s (longer
        ; ones, tsdelay > 1, read SuperDirt's delay buffer across its wrap: not copied)
        opcode podium_fxh_sdelay, a, aiii
          ain, ib, ixs, its xin
          iw = 2 * $M_PI * 40 * (17000 / 40) ^ ((ib - 1) / 15) / sr
          iC = 1 / tan(iw * 0.0025)
          ia0 = 1 / (1 + iC)
          ab biquad ain, ia0, 0, -ia0, 1, -2 * iC * cos(iw) * ia0, (iC - 1) * ia0
          ab delay ab, limit(int((int(ib) & int(ixs)) / 16 * its * 0.2 * sr + 1e-6), 1, int(0.2 * sr)) / sr
          if ib >= 16 goto podium_fxh_sdelay_done
            ar podium_fxh_sdelay ain, ib + 1, ixs, its
            ab = ab + ar
        podium_fxh_sdelay_done:
          xout ab
        endop

        ; spectral-delay (spectral-delay): 0.2 x + 4 x the sum of 16 narrow bands (see
        ; above), each delayed by a multiple of tsdelay / 80 s chosen by the bits of
        ; xsdelay. ixs: xsdelay (its integer part's bits 0..4), its: tsdelay 0..1 (in 0.2 s).
        ; Off: both negative (pass -1 for each not given; the other then counts as 0).
        ; Allocates its delay lines: up to 81600 samples (650 KB) a channel at 48 kHz
        ; (xsdelay 31, tsdelay 1); SuperDirt's 16 DelayNs take 16 x 16384 samples a channel.
        opcode podium_fx_sdelay, aa, aaii
          al, ar, ixs, its xin
          if ixs < 0 && its < 0 goto podium_fx_sdelay_done
            ixs = limit(ixs, 0, 1e9)
            its = limit(its, 0, 1e9)
            abl podium_fxh_sdelay al, 1, ixs, its
            abr podium_fxh_sdelay ar, 1, ixs, its
            al = 0.2 * al + 4 * abl
            ar = 0.2 * ar + 4 * abr
        podium_fx_sdelay_done:
          xout al, ar
        endop
        """#
}
