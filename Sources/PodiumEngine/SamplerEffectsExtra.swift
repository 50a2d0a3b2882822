// More of SuperDirt's per-event effects (Csound): one user-defined opcode per effect, for a
// note's chain after podium_fx (SamplerEffects.swift). Not yet part of `SamplerOrchestra.text`.
extension SamplerOrchestra {
    static let extraEffects = #"""
        /* ------------------------------------------------------------------------
           Extra per-event effects (UDOs)
           ------------------------------------------------------------------------ */
        ; Each podium_fx_<effect> takes the panned, unscaled stereo signal (al, ar, levels
        ; of +-1 as in SuperDirt, before amp and the gate) and i-rate parameters in
        ; SuperDirt's order, and returns al, ar. SuperDirt only adds an effect's synth
        ; when its control is given: each UDO jumps over all of its work (init and
        ; performance) when the effect is off, as said at its head. A parameter the event
        ; does not give reaches SuperDirt's synth as 0 (sclang sends nil as 0), not as the
        ; SynthDef default: pass 0 for those, unless said otherwise.
        ; Plain gotos, not if-blocks; no arrays except squiz's buffer; no conditional
        ; expressions; no global variables or tables; nothing allocated but the delay
        ; and filter state of the opcodes (sizes noted where above a few KB).
        ; Files of SuperDirt (commit 0c14168): core-synths.scd (vowel, bpf, envelope,
        ; tremolo, phaser), default-effects-extra.scd (the others); sc3-plugins 3.9.1
        ; for Squiz, WaveLoss, CrossoverDistortion; the Vowel quark for the formants.

        ; vowel (dirt_vowel): five band-passes (SC BPF) at the vowel's formants, from the
        ; Vowel quark's counterTenor register (SuperDirt's default), mixed with the dry
        ; signal by XFade2. ivowel: 1 a, 2 e, 3 i, 4 o, 5 u; off: anything else (0).
        ; ires: Tidal's resonance, 0..1 (sent as 0 when not given; shared with lpf).
        ; Formants: frequency Hz, level dB, bandwidth Hz; SuperDirt's rq = 1 / bandwidth.
        opcode podium_fx_vowel, aa, aaii
          al, ar, ivowel, ires xin
          if ivowel != 1 goto podium_fx_vowel_e
            if1, if2, if3, if4, if5, id1, id2, id3, id4, id5, iw1, iw2, iw3, iw4, iw5 init \
              660, 1120, 2750, 3000, 3350, 0, -6, -23, -24, -38, 80, 90, 120, 130, 140
            goto podium_fx_vowel_run
        podium_fx_vowel_e:
          if ivowel != 2 goto podium_fx_vowel_i
            if1, if2, if3, if4, if5, id1, id2, id3, id4, id5, iw1, iw2, iw3, iw4, iw5 init \
              440, 1800, 2700, 3000, 3300, 0, -14, -18, -20, -20, 70, 80, 100, 120, 120
            goto podium_fx_vowel_run
        podium_fx_vowel_i:
          if ivowel != 3 goto podium_fx_vowel_o
            if1, if2, if3, if4, if5, id1, id2, id3, id4, id5, iw1, iw2, iw3, iw4, iw5 init \
              270, 1850, 2900, 3350, 3590, 0, -24, -24, -36, -36, 40, 90, 100, 120, 120
            goto podium_fx_vowel_run
        podium_fx_vowel_o:
          if ivowel != 4 goto podium_fx_vowel_u
            if1, if2, if3, if4, if5, id1, id2, id3, id4, id5, iw1, iw2, iw3, iw4, iw5 init \
              430, 820, 2700, 3000, 3300, 0, -10, -26, -22, -34, 40, 80, 100, 120, 120
            goto podium_fx_vowel_run
        podium_fx_vowel_u:
          if ivowel != 5 goto podium_fx_vowel_done
            if1, if2, if3, if4, if5, id1, id2, id3, id4, id5, iw1, iw2, iw3, iw4, iw5 init \
              370, 630, 2750, 3000, 3400, 0, -20, -23, -30, -34, 40, 60, 100, 120, 120
        podium_fx_vowel_run:
          ; amps * resonance.linlin(0,1,50,200), rqs / resonance.linlin(0,1,0.1,0.5)
          ir = limit(ires, 0, 1)
          ig = 50 + 150 * ir
          iq = 0.1 + 0.4 * ir
          ; SC BPF: a0 (1 - z^-2) / (1 - b1 z^-1 - b2 z^-2), C = 1 / tan(rq w / 2),
          ; a0 = 1 / (1 + C), b1 = 2 C cos(w) a0, b2 = (1 - C) a0; level folded into a0
          iw = 2 * $M_PI * limit(if1, 0, sr / 2) / sr
          iC = 1 / tan(iw / (iw1 * iq * 2))
          ia1 = ig * ampdb(id1) / (1 + iC)
          ib11 = 2 * iC * cos(iw) / (1 + iC)
          ib21 = (1 - iC) / (1 + iC)
          iw = 2 * $M_PI * limit(if2, 0, sr / 2) / sr
          iC = 1 / tan(iw / (iw2 * iq * 2))
          ia2 = ig * ampdb(id2) / (1 + iC)
          ib12 = 2 * iC * cos(iw) / (1 + iC)
          ib22 = (1 - iC) / (1 + iC)
          iw = 2 * $M_PI * limit(if3, 0, sr / 2) / sr
          iC = 1 / tan(iw / (iw3 * iq * 2))
          ia3 = ig * ampdb(id3) / (1 + iC)
          ib13 = 2 * iC * cos(iw) / (1 + iC)
          ib23 = (1 - iC) / (1 + iC)
          iw = 2 * $M_PI * limit(if4, 0, sr / 2) / sr
          iC = 1 / tan(iw / (iw4 * iq * 2))
          ia4 = ig * ampdb(id4) / (1 + iC)
          ib14 = 2 * iC * cos(iw) / (1 + iC)
          ib24 = (1 - iC) / (1 + iC)
          iw = 2 * $M_PI * limit(if5, 0, sr / 2) / sr
          iC = 1 / tan(iw / (iw5 * iq * 2))
          ia5 = ig * ampdb(id5) / (1 + iC)
          ib15 = 2 * iC * cos(iw) / (1 + iC)
          ib25 = (1 - iC) / (1 + iC)
          ; XFade2(dry, formants, resonance.linlin(0,1,-0.5,1), 0.25), SC's pan table steps
          ipos = limit(int(1024 * (1.5 * ir - 0.5) + 1024.5), 0, 2048)
          idry = 0.25 * sin($M_PI * (2048 - ipos) / 4096)
          iwet = 0.25 * sin($M_PI * ipos / 4096)
          a1 biquad al, ia1, 0, -ia1, 1, -ib11, -ib21
          a2 biquad al, ia2, 0, -ia2, 1, -ib12, -ib22
          a3 biquad al, ia3, 0, -ia3, 1, -ib13, -ib23
          a4 biquad al, ia4, 0, -ia4, 1, -ib14, -ib24
          a5 biquad al, ia5, 0, -ia5, 1, -ib15, -ib25
          al = idry * al + iwet * (a1 + a2 + a3 + a4 + a5)
          a1 biquad ar, ia1, 0, -ia1, 1, -ib11, -ib21
          a2 biquad ar, ia2, 0, -ia2, 1, -ib12, -ib22
          a3 biquad ar, ia3, 0, -ia3, 1, -ib13, -ib23
          a4 biquad ar, ia4, 0, -ia4, 1, -ib14, -ib24
          a5 biquad ar, ia5, 0, -ia5, 1, -ib15, -ib25
          ar = idry * ar + iwet * (a1 + a2 + a3 + a4 + a5)
        podium_fx_vowel_done:
          xout al, ar
        endop

        ; tremolo (dirt_tremolo): times (1 - d) + d cos(2 pi rate t), d = depth clipped
        ; to 0..1, halved. itrate: tremolorate Hz, off: 0 (a 0 Hz tremolo is no change);
        ; itdepth: tremolodepth (sent as 0 when not given: no change; SynthDef default 0.5).
        opcode podium_fx_tremolo, aa, aaii
          al, ar, itrate, itdepth xin
          if itrate == 0 goto podium_fx_tremolo_done
            id = limit(itdepth, 0, 1) * 0.5
            aph phasor itrate
            aw = (1 - id) + id * cos(2 * $M_PI * aph)
            al = al * aw
            ar = ar * aw
        podium_fx_tremolo_done:
          xout al, ar
        endop

        ; djf (dj-filter): RLPF(djf.linexp(0, 0.5, 20, 10000)) then RHPF(djf.linexp(0.5, 1,
        ; 20, 10000)), both rq 1 (linexp clips: below 0.5 a low-pass, above a high-pass).
        ; idjf: 0..1; off: negative (pass -1 when djf is not given: 0 is a valid value).
        opcode podium_fx_djf, aa, aai
          al, ar, idjf xin
          if idjf < 0 goto podium_fx_djf_done
            ; SC RLPF / RHPF: D = tan(w rq / 2), C = (1 - D) / (1 + D), b1 = (1 + C) cos(w),
            ; a0 = (1 + C -+ b1) / 4, out = a0 (1 +- 2 z^-1 + z^-2) / (1 - b1 z^-1 + C z^-2)
            iw = 2 * $M_PI * 20 * 500 ^ limit(2 * idjf, 0, 1) / sr
            iD = tan(iw * 0.5)
            iCl = (1 - iD) / (1 + iD)
            ib1l = (1 + iCl) * cos(iw)
            ia0l = (1 + iCl - ib1l) * 0.25
            iw = 2 * $M_PI * 20 * 500 ^ limit(2 * idjf - 1, 0, 1) / sr
            iD = tan(iw * 0.5)
            iCh = (1 - iD) / (1 + iD)
            ib1h = (1 + iCh) * cos(iw)
            ia0h = (1 + iCh + ib1h) * 0.25
            al biquad al, ia0l, 2 * ia0l, ia0l, 1, -ib1l, iCl
            ar biquad ar, ia0l, 2 * ia0l, ia0l, 1, -ib1l, iCl
            al biquad al, ia0h, -2 * ia0h, ia0h, 1, -ib1h, iCh
            ar biquad ar, ia0h, -2 * ia0h, ia0h, 1, -ib1h, iCh
        podium_fx_djf_done:
          xout al, ar
        endop

        ; bpf (dirt_bpf): BPF(bandf clipped to 20..sr/2, rq 1/q) * q, q = max(1, bandq).
        ; ibandf: Hz, off: 0 or less (SuperDirt would filter at 20 Hz for 0); ibandq:
        ; bandq (sent as 0 when not given, which gives q = 1: a wide band).
        opcode podium_fx_bpf, aa, aaii
          al, ar, ibandf, ibandq xin
          if ibandf <= 0 goto podium_fx_bpf_done
            iq = limit(ibandq, 1, 1e9)
            iw = 2 * $M_PI * limit(ibandf, 20, sr / 2) / sr
            iC = 1 / tan(iw / (2 * iq))
            ia0 = iq / (1 + iC)                       ; (* q folded in)
            ib1 = 2 * iC * cos(iw) / (1 + iC)
            ib2 = (1 - iC) / (1 + iC)
            al biquad al, ia0, 0, -ia0, 1, -ib1, -ib2
            ar biquad ar, ia0, 0, -ia0, 1, -ib1, -ib2
        podium_fx_bpf_done:
          xout al, ar
        endop

        ; envelope (dirt_envelope): times Env.linen(attack, hold, release, 1, curve), which
        ; starts at 0 and stays at 0 after attack + hold + release (it never lengthens a
        ; note; the rest of the note is silent). iatt, ihld, irel: s; icurve: SC's curve
        ; (0 linear; sent as 0 when not given, not the SynthDef's -3). Off: iatt and irel
        ; both negative (pass -1 for each not given; the other one then counts as 0, as
        ; SuperDirt sends it: attack alone gives release 0, a cut at attack + hold).
        opcode podium_fx_envelope, aa, aaiiii
          al, ar, iatt, ihld, irel, icurve xin
          if iatt < 0 && irel < 0 goto podium_fx_envelope_done
            ; (transeg's curve is SC's: (1 - exp(c t)) / (1 - exp(c)); zero times: 1 sample)
            ia = limit(iatt, 1 / sr, 1e9)
            ih = limit(ihld, 1 / sr, 1e9)
            ir = limit(irel, 1 / sr, 1e9)
            aenv transeg 0, ia, icurve, 1, ih, 0, 1, ir, icurve, 0, 1, 0, 0
            aend linseg 1, ia + ih + ir, 1, 0, 0, 1, 0      ; (exact 0 after the end)
            aenv = aenv * aend
            al = al * aenv
            ar = ar * aenv
        podium_fx_envelope_done:
          xout al, ar
        endop

        ; ring (dirt_ring): ring1(signal, ring * sin(2 pi f t)) = signal * (1 + mod), with
        ; f = XLine(ringf, ringf + ringdf, 1 s) at control rate, clipped to 20..20000 Hz.
        ; iring: amount, off: 0 (ring 0 is no change); iringf: Hz (not given: 0, which we
        ; clip to 20 Hz; SuperDirt's XLine from 0 is undefined); iringdf: Hz glide (0).
        opcode podium_fx_ring, aa, aaiii
          al, ar, iring, iringf, iringdf xin
          if iring == 0 goto podium_fx_ring_done
            if iringdf == 0 || iringf <= 0 || iringf + iringdf <= 0 goto podium_fx_ring_fixed
              kf expseg iringf, 1, iringf + iringdf, 1, iringf + iringdf
              goto podium_fx_ring_run
        podium_fx_ring_fixed:
              kf init iringf
        podium_fx_ring_run:
            aph phasor limit(kf, 20, 20000)
            am = 1 + iring * sin(2 * $M_PI * aph)
            al = al * am
            ar = ar * am
        podium_fx_ring_done:
          xout al, ar
        endop

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
            kph phasor 62 * ksmps / kr
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
            aph phasor iprate                         ; LFPar: parabolas, from +1
            ad = abs(aph - 0.5) * 4 - 1
            adel = 9.4 + 0.6 * (2 * ad - ad * abs(ad))  ; ms
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
          kw, krd, kprev init 0, 0, 0
          kout = 0
          if krd >= ilen kgoto podium_fxh_squiz_write
            kout = kbuf[int(krd)]
            krd += iratio
        podium_fxh_squiz_write:
          kx = k(ain)
          kw += 1
          if kw < ilen && (kprev >= 0 || kx < 0) kgoto podium_fxh_squiz_store
            kw = 0
            krd = 0
        podium_fxh_squiz_store:
          kbuf[kw] = kx
          kprev = kx
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

        """#
}
