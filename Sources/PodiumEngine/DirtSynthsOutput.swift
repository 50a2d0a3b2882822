// How every SuperDirt synth ends (`SDdirtout`): as SuperDirt runs an event's synth, then its
// effect modules, then dirt_gate (the level) and the orbit. Each synth pans and gates its sound
// at level 1 and ends with
//
//     SDdirtout aL, aR, iamp, p(17), p77
//
// In a performance with the sampler, SDdirtout is the sampler's per-event chain (vowel, shape,
// hpf, bpf, crush, coarse, lpf, pshift, envelope, grenvelo, tremolo, ring, distort, triode, krush, octer, fshift,
// phaser, squiz, waveloss, the spectral ones, djf: `SamplerEffects*.swift`) on the synth's
// sound, then `amp`, then the orbit's channel pair and its reverb and delay sends. Its p-fields
// are the synth's p17–p77: the sampler's p12–p72 in the same order (`SamplerOrchestra.fields`
// from `cutoff` on), filled by `SampleNotes` when the synth declares `+effects`. A UDO reads its
// instrument's p-fields, as far as the instrument's own highest: `p77` in the call keeps them,
// `p(17)` lets a note give fewer (zeros, no warning). Without the sampler it is `amp` and
// `outs`, and the synths' declarations drop `+effects` (the controls are then named as unknown).
extension DirtSynths {
    /// The p-field of the first effect value (`cutoff`) after a synth's own (p4–p16).
    public static let firstEffectField = 17

    /// `SDdirtout` for a performance with the sampler (its effects, and `podium_orbit_note` for
    /// the orbits, which names podium_orbits' number itself), or without it.
    static func output(sampler: Bool) -> String { sampler ? effectsOutput : plainOutput }

    static let plainOutput = #"""
        ; SuperDirt's tail without the sampler: the level, both channels
        opcode SDdirtout, 0, aaiii
          al, ar, iamp, ifirst, ilast xin
          outs al*iamp, ar*iamp
        endop
        """#

    static let effectsOutput = #"""
        ; SuperDirt's tail with the sampler: effects, level, orbit (DirtSynthsOutput.swift)
        opcode SDdirtout, 0, aaiii
          al, ar, iamp, ifirst, ilast xin
          icutoff = abs(p17)
          ihcutoff = abs(p19)
          ishape = max(p23, 0)
          ivow = (p32 >= 1 && p32 <= 5 ? 1 : 0)
          imore = (p33 > 0 || p38 > 0 || p40 > 0 || p41 > 0 || p44 > 0 || p45 > 0 || p46 > 0 ? 1 : 0)
          imore = (imore == 1 || p48 > 0 || p49 > 0 || p50 > 0 || p51 != 0 || p52 != 0 || p54 > 0 || p56 > 0 || p57 > 0 ? 1 : 0)
          imore = (imore == 1 || p71 > 0 || p73 > 0 ? 1 : 0)
          ispec = (p59 > 0 || p60 > 0 || p61 > 0 || p62 > 0 || p63 > 0 || p64 > 0 || p65 > 0 || p66 > 0 || p67 > 0 || p68 > 0 || p69 > 0 || p70 > 0 ? 1 : 0)
          ifx = (icutoff > 0 || ihcutoff > 0 || p21 > 0 || p22 > 1 || ishape > 0 || p36 > 0 || ivow == 1 || imore == 1 || ispec == 1 || p35 > 0 ? 1 : 0)
          islot = ((floor(p25) % giPodiumOrbits) + giPodiumOrbits) % giPodiumOrbits
          ichl = (nchnls >= 2 ? 2 * (islot % int(nchnls / 2)) + 1 : 1)
          iroom = max(p26, 0)
          idelay = max(p28, 0)

          ; ---- the orbit's reverb, delay and leslie (as the sampler's notes: podium_orbit_note)
          ilesl podium_orbit_note islot, iroom, p27, idelay, p29, p30, p75, p76, p77, p3
          if iroom <= 0 && idelay <= 0 && ilesl == 0 igoto sd_orbit_done
            Srev sprintf "podium.orbit.%d.rev", islot
            Sdell sprintf "podium.orbit.%d.dell", islot
            Sdelr sprintf "podium.orbit.%d.delr", islot
            Slesl sprintf "podium.orbit.%d.lesl", islot
            Slesr sprintf "podium.orbit.%d.lesr", islot
        sd_orbit_done:

          ; (Csound 6.18 with --sample-accurate: the first outch of a k-cycle drops the part of a
          ; note's first block after its start offset; so a silent one first, as the sampler)
          kfirstblk init 1
          if kfirstblk == 0 kgoto sd_first_done
            azero = 0
            outch 1, azero
            kfirstblk = 0
        sd_first_done:

          ; ---- per-event effects, in SuperDirt's order, before the level
          if ifx == 0 goto sd_fx_done
            if ivow == 0 goto sd_fx1
              al, ar podium_fx_vowel al, ar, p32, p18
        sd_fx1:
            al, ar podium_fx al, ar, ishape, ihcutoff, p20, p36, p37, p21, p22, icutoff, p18
            if imore == 0 goto sd_fx2
              al, ar podium_fx_more al, ar, p33, p34, p38 - 1, p39, p40 - 1, p41, p42, p43, p44, p45, \
                p46, p47, p48, p49, p50, p51, p52, p53, p54, p55, p56, p57, p58, p71 - 1, p72, p73 - 1, p74, p3
        sd_fx2:
            if ispec == 0 goto sd_fx3
              al, ar podium_fx_spectral al, ar, p59, p60, p61, p62, p63, p64, p65, p66, p67, p68, p69, p70
        sd_fx3:
            if p35 <= 0 goto sd_fx_done
              al, ar podium_fx_djf al, ar, p35 - 1
        sd_fx_done:
          al = al * iamp
          ar = ar * iamp

          ; ---- out on the orbit's pair, sends to its reverb and delay (one channel: summed)
          if nchnls == 1 goto sd_mono
            if ilesl == 1 goto sd_out_leslie
              outch ichl, al, ichl + 1, ar
              goto sd_out_done
        sd_out_leslie:
              chnmix al, Slesl
              chnmix ar, Slesr
        sd_out_done:
            if iroom <= 0 goto sd_rev_done
              chnmix (al + ar) * iroom, Srev
        sd_rev_done:
            if idelay <= 0 goto sd_end
              chnmix al * idelay, Sdell
              chnmix ar * idelay, Sdelr
              goto sd_end
        sd_mono:
            al = al + ar
            if ilesl == 1 goto sd_mono_leslie
              outch 1, al
              goto sd_mono_out_done
        sd_mono_leslie:
              chnmix al, Slesl                        ; (both: the orbit's mono mix halves its pair)
              chnmix al, Slesr
        sd_mono_out_done:
            if iroom <= 0 goto sd_mono_rev_done
              chnmix al * iroom, Srev
        sd_mono_rev_done:
            if idelay <= 0 goto sd_end
              chnmix al * idelay, Sdell
              chnmix al * idelay, Sdelr
        sd_end:
        endop
        """#
}
