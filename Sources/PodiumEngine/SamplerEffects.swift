// The sampler's effects (Csound): the user-defined opcodes of a note's chain (this file) and of
// each orbit's reverb and delay with the tables their buffers live in, made when the part
// compiles, off the audio thread (SamplerOrbitEffects.swift). Part of `SamplerOrchestra.text`.
extension SamplerOrchestra {
    static let effects = [noteEffects, leslieEffect, orbitEffects].joined(separator: "\n\n")

    /// A note's chain: podium_fx, podium_fx_more, podium_fx_spectral.
    static let noteEffects = #"""
        /* ------------------------------------------------------------------------
           UDOs
           ------------------------------------------------------------------------ */

        ; SuperDirt's per-event effects in its module order: shape, hpf, crush, coarse, lpf
        ; (core-modules.scd / core-synths.scd), on both channels of the panned, unscaled
        ; signal. Plain gotos, not if-blocks: those cost time in every k-cycle.
        opcode podium_fx, aa, aaiiiiiiiii
          al, ar, ishape, ihcut, ihres, ibandf, ibandq, icrush, icoarse, icut, ires xin
          if ishape <= 0 goto podium_fx_hpf           ; dirt_shape
            ish = min(ishape, 1 - 4e-10)
            ik = 2 * ish / (1 - ish)
            al = (1 + ik) * al / (1 + ik * abs(al))
            ar = (1 + ik) * ar / (1 + ik * abs(ar))
        podium_fx_hpf:
          if ihcut <= 0 goto podium_fx_crush          ; dirt_hpf: RHPF(hcutoff, hresonance.linexp(0,1,1,0.001))
            ; (biquad reads its coefficients at k-rate: each filter needs its own variables)
            iwh = limit(ihcut, 20, sr * 0.49) * 2 * $M_PI / sr
            iDh = tan(iwh * max(0.001, 0.001 ^ limit(ihres, 0, 1)) * 0.5)
            iCh = (1 - iDh) / (1 + iDh)
            ib1h = (1 + iCh) * cos(iwh)
            ia0h = (1 + iCh + ib1h) * 0.25
            al biquad al, ia0h, -2 * ia0h, ia0h, 1, -ib1h, iCh
            ar biquad ar, ia0h, -2 * ia0h, ia0h, 1, -ib1h, iCh
        podium_fx_crush:
          if ibandf <= 0 goto podium_fx_crush2        ; dirt_bpf (SamplerEffectsExtra.swift)
            al, ar podium_fx_bpf al, ar, ibandf, ibandq
        podium_fx_crush2:
          if icrush <= 0 goto podium_fx_coarse        ; dirt_crush: round(0.5 ** (crush - 1))
            iqs = 0.5 ^ (icrush - 1)
            al = floor(al / iqs + 0.5) * iqs
            ar = floor(ar / iqs + 0.5) * iqs
        podium_fx_coarse:
          if icoarse <= 1 goto podium_fx_lpf          ; dirt_coarse: Latch(Impulse(sr / coarse))
            al fold al, icoarse
            ar fold ar, icoarse
        podium_fx_lpf:
          if icut <= 0 goto podium_fx_done            ; dirt_lpf: RLPF(cutoff, resonance.linexp(0,1,1,0.001))
            iwl = limit(icut, 20, sr * 0.49) * 2 * $M_PI / sr
            iDl = tan(iwl * max(0.001, 0.001 ^ limit(ires, 0, 1)) * 0.5)
            iCl = (1 - iDl) / (1 + iDl)
            ib1l = (1 + iCl) * cos(iwl)
            ia0l = (1 + iCl - ib1l) * 0.25
            al biquad al, ia0l, 2 * ia0l, ia0l, 1, -ib1l, iCl
            ar biquad ar, ia0l, 2 * ia0l, ia0l, 1, -ib1l, iCl
        podium_fx_done:
          xout al, ar
        endop

        ; The rest of SuperDirt's per-event effects, in its module order after lpf:
        ; pshift, envelope, grenvelo (SamplerEffectsGrain.swift), tremolo, phaser, waveloss, squiz, fshift, triode, krush, octer, ring,
        ; distort (each a UDO of SamplerEffectsExtra.swift, skipped when it is off; the
        ; spectral ones and djf follow in the instrument).
        opcode podium_fx_more, aa, aaiiiiiiiiiiiiiiiiiiiiiiiiiiii
          al, ar, itrate, itdepth, iatt, ihld, irel, iring, iringf, iringdf, idist, \
            itriode, ikrush, ikcut, ioct, isub, isubsub, ishift, inote, iphase, iprate, \
            ipdepth, isquiz, iloss, ifreq, ipsrate, ipsdisp, itilt, iplat, isus xin
          if ipsrate < 0 goto podium_more_envelope
            al, ar podium_fx_pshift al, ar, ipsrate, ipsdisp, isus
        podium_more_envelope:
          if iatt < 0 && irel < 0 goto podium_more_grenvelo
            al, ar podium_fx_envelope al, ar, iatt, ihld, irel, 0
        podium_more_grenvelo:
          if itilt < 0 goto podium_more_tremolo
            al, ar podium_fx_grenvelo al, ar, itilt, iplat, isus
        podium_more_tremolo:
          if itrate <= 0 goto podium_more_phaser
            al, ar podium_fx_tremolo al, ar, itrate, itdepth
        podium_more_phaser:
          if iprate <= 0 goto podium_more_waveloss
            al, ar podium_fx_phaser al, ar, iprate, ipdepth
        podium_more_waveloss:
          if iloss <= 0 goto podium_more_squiz
            al, ar podium_fx_waveloss al, ar, iloss, 2
        podium_more_squiz:
          if isquiz <= 0 goto podium_more_fshift
            al, ar podium_fx_squiz al, ar, isquiz
        podium_more_fshift:
          if ishift == 0 && inote == 0 goto podium_more_triode
            al, ar podium_fx_fshift al, ar, ishift, inote, iphase, ifreq
        podium_more_triode:
          if itriode <= 0 goto podium_more_krush
            al, ar podium_fx_triode al, ar, itriode
        podium_more_krush:
          if ikrush <= 0 goto podium_more_octer
            al, ar podium_fx_krush al, ar, ikrush, ikcut
        podium_more_octer:
          if ioct <= 0 && isub <= 0 && isubsub <= 0 goto podium_more_ring
            al, ar podium_fx_octer al, ar, ioct, isub, isubsub
        podium_more_ring:
          if iring <= 0 goto podium_more_distort
            al, ar podium_fx_ring al, ar, iring, iringf, iringdf
        podium_more_distort:
          if idist <= 0 goto podium_more_done
            al, ar podium_fx_distort al, ar, idist
        podium_more_done:
          xout al, ar
        endop

        ; SuperDirt's spectral effects, in its order: spectral delay, freeze, comb, smear,
        ; scram, binshift, hbrick, lbrick, conformer, enhance. Each parameter as the
        ; sampler's p-field holds it: value + 1, 0 when not given (off).
        opcode podium_fx_spectral, aa, aaiiiiiiiiiiii
          al, ar, ixs, its, ifreeze, icomb, ismear, iscram, ibin, ihb, ilb, ireal, iimag, ienh xin
          if ixs <= 0 && its <= 0 goto podium_spec_freeze
            al, ar podium_fx_sdelay al, ar, ixs - 1, its - 1
        podium_spec_freeze:
          if ifreeze <= 0 goto podium_spec_comb
            al, ar podium_fx_freeze al, ar, ifreeze - 1
        podium_spec_comb:
          if icomb <= 0 goto podium_spec_smear
            al, ar podium_fx_comb al, ar, icomb - 1
        podium_spec_smear:
          if ismear <= 0 goto podium_spec_scram
            al, ar podium_fx_smear al, ar, ismear - 1
        podium_spec_scram:
          if iscram <= 0 goto podium_spec_binshift
            al, ar podium_fx_scram al, ar, iscram - 1
        podium_spec_binshift:
          if ibin <= 0 goto podium_spec_hbrick
            al, ar podium_fx_binshift al, ar, ibin - 1
        podium_spec_hbrick:
          if ihb <= 0 goto podium_spec_lbrick
            al, ar podium_fx_hbrick al, ar, ihb - 1
        podium_spec_lbrick:
          if ilb <= 0 goto podium_spec_conformer
            al, ar podium_fx_lbrick al, ar, ilb - 1
        podium_spec_conformer:
          if ireal <= 0 && iimag <= 0 goto podium_spec_enhance
            al, ar podium_fx_conformer al, ar, limit(ireal - 1, 0, 1e9), limit(iimag - 1, 0, 1e9)
        podium_spec_enhance:
          if ienh <= 0 goto podium_spec_done
            al, ar podium_fx_enhance al, ar, ienh - 1
        podium_spec_done:
          xout al, ar
        endop
        """#
}
