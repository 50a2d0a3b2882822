// SuperDirt's spectral effects (Csound UDOs): freeze, comb, smear, scram, binshift, hbrick,
// lbrick, conformer, enhance, each a call of the helpers in SamplerEffectsSpectralHelpers.swift.
// Part of `SamplerOrchestra.extraEffects` (SamplerEffectsExtra.swift).
extension SamplerOrchestra {
    /// freeze … enhance, last of the extra effects.
    static let spectralEffects = #"""
        ; freeze (spectral-freeze): PV_Freeze(freeze). ifreeze: > 0 holds the spectrum of the
        ; second frame (about 43 ms in), 0 passes (FFT round trip: 41 ms late, as all the
        ; spectral effects). Off: negative (pass -1 when freeze is not given: 0 is a valid value).
        opcode podium_fx_freeze, aa, aai
          al, ar, ifreeze xin
          if ifreeze < 0 goto podium_fx_freeze_done
            al podium_fxh_pv al, 1, ifreeze, 0, 0
            ar podium_fxh_pv ar, 1, ifreeze, 0, 0
        podium_fx_freeze_done:
          xout al, ar
        endop

        ; comb (spectral-comb): PV_RectComb(teeth 256 comb, phase 0, width 1 - comb): zeroes
        ; the bins outside the teeth. icomb: 0..1; off: negative (-1 when not given).
        opcode podium_fx_comb, aa, aai
          al, ar, icomb xin
          if icomb < 0 goto podium_fx_comb_done
            al podium_fxh_pv al, 2, 2, 256 * icomb, 1 - icomb
            ar podium_fxh_pv ar, 2, 2, 256 * icomb, 1 - icomb
        podium_fx_comb_done:
          xout al, ar
        endop

        ; smear (spectral-smear): PV_MagSmear(smear.linexp(0, 1, 1, 64) bins, truncated).
        ; ismear: 0..1; off: negative (-1 when not given).
        opcode podium_fx_smear, aa, aai
          al, ar, ismear xin
          if ismear < 0 goto podium_fx_smear_done
            iw = limit(int(64 ^ limit(ismear, 0, 1)), 0, 1022)
            al podium_fxh_pv al, 3, iw, 0, 0
            ar podium_fxh_pv ar, 3, iw, 0, 0
        podium_fx_smear_done:
          xout al, ar
        endop

        ; scram (spectral-scram): PV_BinScramble(wipe scram, width scram), random, each channel
        ; its own (Csound's random numbers: not scsynth's realisation). iscram: 0..1; off:
        ; negative (-1 when not given).
        opcode podium_fx_scram, aa, aai
          al, ar, iscram xin
          if iscram < 0 goto podium_fx_scram_done
            al podium_fxh_pv al, 4, iscram, iscram, 0
            ar podium_fxh_pv ar, 4, iscram, iscram, 0
        podium_fx_scram_done:
          xout al, ar
        endop

        ; binshift (spectral-binshift): PV_BinShift(stretch binshift.linlin(0, 1, 0.01, 4),
        ; shift 10 binshift, interp 1). ibinshift: 0..1; off: negative (-1 when not given).
        opcode podium_fx_binshift, aa, aai
          al, ar, ibinshift xin
          if ibinshift < 0 goto podium_fx_binshift_done
            ib = limit(ibinshift, 0, 1)
            al podium_fxh_pv al, 5, 0.01 + 3.99 * ib, 10 * ibinshift, 0
            ar podium_fxh_pv ar, 5, 0.01 + 3.99 * ib, 10 * ibinshift, 0
        podium_fx_binshift_done:
          xout al, ar
        endop

        ; hbrick (spectral-hbrick): PV_BrickWall(hbrick * 0.6): zeroes dc and the bins below
        ; 0.6 hbrick * 1023 (a high-pass at 0.6 hbrick * sr / 2). ihbrick: 0..1; off: negative.
        opcode podium_fx_hbrick, aa, aai
          al, ar, ihbrick xin
          if ihbrick < 0 goto podium_fx_hbrick_done
            al podium_fxh_pv al, 2, 1, 0.6 * ihbrick, 0
            ar podium_fxh_pv ar, 2, 1, 0.6 * ihbrick, 0
        podium_fx_hbrick_done:
          xout al, ar
        endop

        ; lbrick (spectral-lbrick): PV_BrickWall(-lbrick, clipped to -1..0): zeroes the
        ; nyquist and the top lbrick of the bins (a low-pass at (1 - lbrick) sr / 2).
        ; ilbrick: 0..1; off: negative (-1 when not given).
        opcode podium_fx_lbrick, aa, aai
          al, ar, ilbrick xin
          if ilbrick < 0 goto podium_fx_lbrick_done
            al podium_fxh_pv al, 2, 1, -limit(ilbrick, 0, 1), 0
            ar podium_fxh_pv ar, 2, 1, -limit(ilbrick, 0, 1), 0
        podium_fx_lbrick_done:
          xout al, ar
        endop

        ; conformer (spectral-conformer): PV_ConformalMap(real.linlin(0, 1, 0.01, 2),
        ; imag.linlin(0, 1, 0.01, 10)), then tanh. ireal, iimag: 0..1 (each 0 when not given
        ; but the other is); off: both negative (-1 for each when neither is given).
        opcode podium_fx_conformer, aa, aaii
          al, ar, ireal, iimag xin
          if ireal < 0 && iimag < 0 goto podium_fx_conformer_done
            ia = 0.01 + 1.99 * limit(ireal, 0, 1)
            ib = 0.01 + 9.99 * limit(iimag, 0, 1)
            al podium_fxh_pv al, 6, ia, ib, 0
            ar podium_fxh_pv ar, 6, ia, ib, 0
            al = tanh(al)
            ar = tanh(ar)
        podium_fx_conformer_done:
          xout al, ar
        endop

        ; enhance (spectral-enhance): PV_SpectralEnhance(enhance.linlin(0, 1, 1, 16) partials,
        ; ratio enhance.linlin(0, 1, 1, 5), strength enhance.linlin(0, 1, 0, 0.99)), then tanh.
        ; ienhance: 0..1; off: negative (-1 when not given).
        opcode podium_fx_enhance, aa, aai
          al, ar, ienhance xin
          if ienhance < 0 goto podium_fx_enhance_done
            ie = limit(ienhance, 0, 1)
            al podium_fxh_pv al, 7, 1 + 15 * ie, 1 + 4 * ie, 0.99 * ie
            ar podium_fxh_pv ar, 7, 1 + 15 * ie, 1 + 4 * ie, 0.99 * ie
            al = tanh(al)
            ar = tanh(ar)
        podium_fx_enhance_done:
          xout al, ar
        endop

        """#
}
