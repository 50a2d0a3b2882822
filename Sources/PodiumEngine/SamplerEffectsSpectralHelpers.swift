// The spectral effects' helpers (Csound UDOs): SC's PV_ UGens on packed spectra and the FFT
// round trip (SuperDirt's spectral-*: FFT(LocalBuf(2048)) -> PV_.. -> IFFT). Part of
// `SamplerOrchestra.extraEffects` (SamplerEffectsExtra.swift), before the effects that call them
// (SamplerEffectsSpectral.swift).
extension SamplerOrchestra {
    /// Masks, freeze, smear, scram, binshift, conformal, enhance, and podium_fxh_pv.
    static let spectralHelpers = #"""
        /* ---- the spectral effects (SuperDirt's spectral-*: FFT(LocalBuf(2048)) -> PV_.. -> IFFT) */
        ; Packed spectra as SC's and rfft's: [dc, nyquist, re1, im1, .. re1023, im1023]; SC's
        ; "bin j" (0..1022) is FFT bin j + 1, at 2 j + 2 and 2 j + 3.

        ; (brickwall, comb) SC's PV_BrickWall(wipe) / PV_RectComb(teeth, 0, width) as a 0/1 mask
        opcode podium_fxh_pv_mask, k[], iii
          imode, ia, ib xin                         ; imode 1: brickwall wipe ia; 2: comb teeth ia, width ib
          kM[] init 2048
          kM = 1
          kj = 0
          if imode == 2 kgoto podium_fxh_pv_mask_comb
            kw = int(ia * 1023)                     ; wipe > 0: dc and bins below; < 0: nyquist and bins above
            if kw <= 0 kgoto podium_fxh_pv_mask_low
              kM[0] = 0
              kM[1] = (kw >= 1023 ? 0 : 1)
              while kj < limit(kw, 0, 1023) do
                kM[2 * kj + 2] = 0
                kM[2 * kj + 3] = 0
                kj += 1
              od
              kgoto podium_fxh_pv_mask_done
        podium_fxh_pv_mask_low:
            if kw == 0 kgoto podium_fxh_pv_mask_done
              kw = limit(kw, -1023, 0)
              kM[1] = 0
              kM[0] = (kw == -1023 ? 0 : 1)
              kj = 1023 + kw
              while kj < 1023 do
                kM[2 * kj + 2] = 0
                kM[2 * kj + 3] = 0
                kj += 1
              od
              kgoto podium_fxh_pv_mask_done
        podium_fxh_pv_mask_comb:
          kf = ia / 1024                            ; teeth / (numbins + 1), phase from 0
          kph = 0
          kM[0] = (kph > ib ? 0 : 1)
          kph = wrap(kph + kf, 0, 1)
          while kj < 1023 do
            kon = (kph > ib ? 0 : 1)
            kM[2 * kj + 2] = kon
            kM[2 * kj + 3] = kon
            kph = wrap(kph + kf, 0, 1)
            kj += 1
          od
          kM[1] = (kph > ib ? 0 : 1)
        podium_fxh_pv_mask_done:
          xout kM
        endop

        ; (freeze) SC's PV_Freeze (sc3-plugins): frame 1 passes, frame 2 passes and is kept;
        ; while freeze > 0 the kept magnitudes play, with the phases of the input (frame 3)
        ; and then advancing by the last measured phase step; else each frame passes and is kept.
        opcode podium_fxh_pv_freeze, k[], k[]i
          kS[], ifreeze xin
          kP[] init 2048
          kMag[] init 2048
          kPrev[] init 2048
          kDif[] init 2048
          kE[] init 2048
          kO[] init 2048
          kstage, kdc, kny init 0, 0, 0
          if kstage > 0 kgoto podium_fxh_pv_freeze_run
            kj = 0
            while kj < 2048 do
              kE[kj] = 1 - kj % 2                   ; 1 at magnitudes (even), 0 at phases (odd)
              kO[kj] = kj % 2
              kj += 1
            od
            kstage = 1
            kgoto podium_fxh_pv_freeze_done
        podium_fxh_pv_freeze_run:
          kd0 = kS[0]
          kd1 = kS[1]
          kP rect2pol kS
          if kstage > 1 kgoto podium_fxh_pv_freeze_later
            kMag = kP * kE
            kPrev = kP * kO
            kdc, kny = kd0, kd1
            kstage = 2
            kgoto podium_fxh_pv_freeze_done
        podium_fxh_pv_freeze_later:
          if ifreeze > 0 kgoto podium_fxh_pv_freeze_held
            kMag = kP * kE
            kDif = kP * kO - kPrev
            kPrev = kP * kO
            kdc, kny = kd0, kd1
            kstage = 3
            kgoto podium_fxh_pv_freeze_done
        podium_fxh_pv_freeze_held:
          if kstage == 3 kgoto podium_fxh_pv_freeze_advance
            kDif = kP * kO - kPrev                  ; (frame 3: its own phases)
            kPrev = kP * kO
            kstage = 3
            kgoto podium_fxh_pv_freeze_out
        podium_fxh_pv_freeze_advance:
            kPrev = kPrev + kDif
            kPrev = kPrev - (2 * $M_PI) * floor((kPrev + $M_PI) / (2 * $M_PI))
        podium_fxh_pv_freeze_out:
          kP = kMag + kPrev
          kS pol2rect kP
          kS[0] = kdc
          kS[1] = kny
        podium_fxh_pv_freeze_done:
          xout kS
        endop

        ; (smear) SC's PV_MagSmear(bins): each magnitude the sum of those within +-bins
        ; (inside 1..1023) over 2 bins + 1; phases kept
        opcode podium_fxh_pv_smear, k[], k[]i
          kS[], iw xin
          kP[] init 2048
          kQ[] init 1023
          kd0 = kS[0]
          kd1 = kS[1]
          kP rect2pol kS
          ksum = 0
          kj = 0
          while kj < iw do
            ksum += kP[2 * kj + 2]
            kj += 1
          od
          kj = 0
          while kj < 1023 do
            ksum += (kj + iw < 1023 ? kP[2 * kj + 2 * iw + 2] : 0)
            kQ[kj] = ksum
            ksum -= (kj >= iw ? kP[2 * kj - 2 * iw + 2] : 0)
            kj += 1
          od
          kj = 0
          while kj < 1023 do
            kP[2 * kj + 2] = kQ[kj] / (2 * iw + 1)
            kj += 1
          od
          kS pol2rect kP
          kS[0] = kd0
          kS[1] = kd1
          xout kS
        endop

        ; (scram) SC's PV_BinScramble(wipe, width, 0): a random permutation "to" (SC's: bin i
        ; swapped with one below numbins - i) and for each a source "from" within +-width
        ; bins, chosen at the first frame; the first wipe * 1023 of "to" take "from"'s value
        opcode podium_fxh_pv_scram, k[], k[]ii
          kS[], iwipe, iwidth xin
          kto[] init 1023
          kfrom[] init 1023
          kQ[] init 2048
          kchosen init 0
          if kchosen == 1 kgoto podium_fxh_pv_scram_run
            kto genarray 0, 1022
            kj = 0
            while kj < 1023 do
              ki = int(random:k(0, 1) * (1023 - kj))
              kt = kto[kj]
              kto[kj] = kto[ki]
              kto[ki] = kt
              kj += 1
            od
            kw = int(iwidth * 1023)
            kj = 0
            while kj < 1023 do
              kk = kto[kj]
              klo = (kk - kw > 0 ? kk - kw : 0)
              khi = (kk + kw < 1022 ? kk + kw : 1022)
              kfrom[kj] = int(random:k(0, 1) * (khi - klo) + klo)
              kj += 1
            od
            kchosen = 1
        podium_fxh_pv_scram_run:
          kQ = kS
          kn = int(1023 * limit(iwipe, 0, 1))
          kj = 0
          while kj < kn do
            kt = 2 * kto[kj] + 2
            kf = 2 * kfrom[kj] + 2
            kQ[kt] = kS[kf]
            kQ[kt + 1] = kS[kf + 1]
            kj += 1
          od
          xout kQ
        endop

        ; (binshift) SC's PV_BinShift(stretch, shift, interp 1): bin i moves to shift + i stretch,
        ; shared linearly by the two bins around it
        opcode podium_fxh_pv_binshift, k[], k[]ii
          kS[], istretch, ishift xin
          kQ[] init 2048
          kQ = 0
          kQ[0] = kS[0]
          kQ[1] = kS[1]
          kj = 0
          while kj < 1023 do
            kpos = ishift + kj * istretch
            k0 = floor(kpos)
            kb = kpos - k0
            kre = kS[2 * kj + 2]
            kim = kS[2 * kj + 3]
            if k0 < 0 || k0 >= 1023 kgoto podium_fxh_pv_binshift_1
              kQ[2 * k0 + 2] = kQ[2 * k0 + 2] + (1 - kb) * kre
              kQ[2 * k0 + 3] = kQ[2 * k0 + 3] + (1 - kb) * kim
        podium_fxh_pv_binshift_1:
            if k0 < -1 || k0 >= 1022 kgoto podium_fxh_pv_binshift_next
              kQ[2 * k0 + 4] = kQ[2 * k0 + 4] + kb * kre
              kQ[2 * k0 + 5] = kQ[2 * k0 + 5] + kb * kim
        podium_fxh_pv_binshift_next:
            kj += 1
          od
          xout kQ
        endop

        ; (conformer) SC's PV_ConformalMap(a): each bin z -> (z - a) / (1 - conj(a) z), as SC
        ; computes it (its numerator's imaginary part uses the already updated real part)
        opcode podium_fxh_pv_conformal, k[], k[]ii
          kS[], ia, ib xin
          kj = 2
          while kj < 2048 do
            kre = kS[kj]
            kim = kS[kj + 1]
            knr = kre - ia
            kni = kim - ib
            kdr = 1 - (kre * ia + kim * ib)
            kdi = kre * ib - ia * kim
            knr = knr * kdr + kni * kdi
            kni = kni * kdr - knr * kdi
            kd = limit(kdr * kdr + kdi * kdi, 0.001, 1e30)
            kS[kj] = knr / kd
            kS[kj + 1] = kni / kd
            kj += 2
          od
          xout kS
        endop

        ; (enhance) SC's PV_SpectralEnhance(partials, ratio, strength) (sc3-plugins): from bin
        ; 1023 / ratio down to 1, adds strength / i of its magnitude to the bins round(i j ratio),
        ; i = 1, 2 .. below partials and 1023; phases kept
        opcode podium_fxh_pv_enhance, k[], k[]iii
          kS[], inum, iratio, istrength xin
          kP[] init 2048
          kd0 = kS[0]
          kd1 = kS[1]
          kP rect2pol kS
          kj = int(1023 / iratio)
          while kj > 0 do
            kmag = kP[2 * kj + 2]
            ki = 1
            kt = round(kj * iratio)
            while kt < 1023 && ki < inum do
              kP[2 * kt + 2] = kP[2 * kt + 2] + kmag * istrength / ki
              ki += 1
              kt = round(ki * kj * iratio)
            od
            kj -= 1
          od
          kS pol2rect kP
          kS[0] = kd0
          kS[1] = kd1
          xout kS
        endop

        ; (one channel) scsynth's FFT / PV / IFFT: frames of 2048 samples every 1024, a sine
        ; window before the FFT and after the IFFT (their squares overlap-add to 1), overlap-
        ; added: the output is 1984 samples late (2048 minus a 64-sample block), as scsynth's,
        ; when ksmps is a multiple of 64 (else 2048 minus the largest power of two dividing it).
        ; ifx: 1 freeze, 2 mask (brickwall/comb: ip1 mode, ip2, ip3 as podium_fxh_pv_mask), 3
        ; smear, 4 scram, 5 binshift, 6 conformal, 7 enhance (ip1..ip3: their parameters).
        ; Arrays: about 100 KB a channel, more for scram (its permutation) and freeze.
        opcode podium_fxh_pv, a, aiiii
          ain, ifx, ip1, ip2, ip3 xin
          iloc = 64
        podium_fxh_pv_loc:
          if ksmps % iloc == 0 igoto podium_fxh_pv_setk
            iloc = iloc / 2
            igoto podium_fxh_pv_loc
        podium_fxh_pv_setk:
          setksmps iloc
          kring[] init 2048
          kS[] init 2048
          kT[] init 2048
          kW[] init 2048
          kWr[] init 2048
          kSg[] init 2048
          kM[] init 2048
          kcur[] init 1024
          ktail[] init 1024
          kA[] init 1024
          kn, kfirst init 0, 1
          kring shiftin ain                         ; (the ring's first write is at 0)
          if kfirst == 0 kgoto podium_fxh_pv_count
            kj = 0                                  ; (a loop: array expressions take 16 KB each)
            while kj < 2048 do
              kW[kj] = sin(kj * ($M_PI / 2048))     ; sine window
              kWr[kj] = abs(cos(kj * ($M_PI / 2048)))  ; the same, turned by 1024
              kSg[kj] = cos(floor(kj * 0.5) * $M_PI)  ; (-1)^bin: the spectrum of a half-turned frame
              kj += 1
            od
            if ifx != 2 kgoto podium_fxh_pv_first_done
              kM podium_fxh_pv_mask ip1, ip2, ip3
        podium_fxh_pv_first_done:
            kfirst = 0
        podium_fxh_pv_count:
          kn += iloc
          if kn % 1024 != 0 kgoto podium_fxh_pv_out
            ; the ring holds the frame in order (frames 2, 4 ..) or turned by half (1, 3 ..)
            if (kn / 1024) % 2 == 0 kgoto podium_fxh_pv_even
              kT = kring * kWr
              kS rfft kT
              kS = kS * kSg
              kgoto podium_fxh_pv_fx
        podium_fxh_pv_even:
              kT = kring * kW
              kS rfft kT
        podium_fxh_pv_fx:
            if ifx != 1 goto podium_fxh_pv_fx2
              kS podium_fxh_pv_freeze kS, ip1
              goto podium_fxh_pv_ifft
        podium_fxh_pv_fx2:
            if ifx != 2 goto podium_fxh_pv_fx3
              kS = kS * kM
              goto podium_fxh_pv_ifft
        podium_fxh_pv_fx3:
            if ifx != 3 goto podium_fxh_pv_fx4
              kS podium_fxh_pv_smear kS, ip1
              goto podium_fxh_pv_ifft
        podium_fxh_pv_fx4:
            if ifx != 4 goto podium_fxh_pv_fx5
              kS podium_fxh_pv_scram kS, ip1, ip2
              goto podium_fxh_pv_ifft
        podium_fxh_pv_fx5:
            if ifx != 5 goto podium_fxh_pv_fx6
              kS podium_fxh_pv_binshift kS, ip1, ip2
              goto podium_fxh_pv_ifft
        podium_fxh_pv_fx6:
            if ifx != 6 goto podium_fxh_pv_fx7
              kS podium_fxh_pv_conformal kS, ip1, ip2
              goto podium_fxh_pv_ifft
        podium_fxh_pv_fx7:
            if ifx != 7 goto podium_fxh_pv_ifft
              kS podium_fxh_pv_enhance kS, ip1, ip2, ip3
        podium_fxh_pv_ifft:
            kT rifft kS
            kT = kT * kW
            kA slicearray kT, 0, 1023
            kcur = ktail + kA
            ktail slicearray kT, 1024, 2047
        podium_fxh_pv_out:
          aout shiftout kcur, iloc                  ; (reads kcur from 0 at each frame)
          xout aout
        endop
        """#
}
