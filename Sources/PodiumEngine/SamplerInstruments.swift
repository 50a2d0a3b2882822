// The sampler's instruments (Csound): `podium_sampler`, one note per event, and `podium_orbits`,
// every orbit's effects after the notes. Part of `SamplerOrchestra.text`; numbered when compiled
// (`SamplerOrchestra.text(first:)`).
extension SamplerOrchestra {
    static let instruments = #"""
        /* ------------------------------------------------------------------------
           The sampler
           ------------------------------------------------------------------------ */
        instr podium_sampler
          ; Control flow uses plain gotos: an if-block costs time in every k-cycle
          ; of every note, igoto/goto to a label costs (almost) nothing.

          ; ---- check the p-fields (init only)
          iftl = int(p4)
          iftr = int(p5)
          ispeed = p6
          ibegin = limit(p7, 0, 1)
          iend = limit(p8, 0, 1)
          iok = ftexists(iftl)                        ; 0 for numbers <= 0 too
          if iok == 1 || iftl == giPodiumLastBadTable igoto podium_tables_ok
            prints "podium_sampler: table %d does not exist%n", iftl
            giPodiumLastBadTable = iftl
        podium_tables_ok:
          iok = (ispeed == 0 || iend <= ibegin ? 0 : iok)
          if iok == 0 igoto podium_checked
            iftr = (ftexists(iftr) == 1 ? iftr : iftl)
            istereo = (iftr != iftl ? 1 : 0)
            iN = min(ftlen(iftl), ftlen(iftr))
            ib = ibegin * iN                          ; frames
            ie = iend * iN
            ; position(t) = ip0 + iB t + iA t^2 (frames); speed goes linearly from
            ; speed to speed * (1 + accelerate) over iT (p3, SuperDirt's sustain)
            iendspeed = ispeed * (1 + p11)
            iavg = (abs(ispeed) + abs(iendspeed)) * 0.5
            inominal = (ie - ib) / (max(iavg, abs(ispeed) * 1e-3) * sr)
            iT = (p3 > 0 ? p3 : inominal)
            iA = 0.5 * ((iendspeed - ispeed) / iT) * sr
            iB = ispeed * sr
            ip0 = (ispeed > 0 ? ib : ie - 1)
            ; first t > 0 where the position leaves [ib - 1, ie]: smallest positive
            ; root of iA t^2 + iB t + iC = 0 for iC = ip0 - ie and iC = ip0 - ib + 1
            iAs = (iA == 0 ? 1 : iA)
            iC = ip0 - ie
            idisc = iB * iB - 4 * iA * iC
            iq = -0.5 * (iB + (iB >= 0 ? 1 : -1) * sqrt(max(idisc, 0)))
            iqs = (iq == 0 ? 1 : iq)
            ir1 = (iA == 0 ? -iC / iB : (idisc >= 0 && iq != 0 ? iq / iAs : -1))
            ir2 = (iA == 0 ? -1 : (idisc >= 0 && iq != 0 ? iC / iqs : -1))
            iexit = (ir1 > 0 ? ir1 : 1e9)
            iexit = (ir2 > 0 && ir2 < iexit ? ir2 : iexit)
            iC = ip0 - ib + 1
            idisc = iB * iB - 4 * iA * iC
            iq = -0.5 * (iB + (iB >= 0 ? 1 : -1) * sqrt(max(idisc, 0)))
            iqs = (iq == 0 ? 1 : iq)
            ir1 = (iA == 0 ? -iC / iB : (idisc >= 0 && iq != 0 ? iq / iAs : -1))
            ir2 = (iA == 0 ? -1 : (idisc >= 0 && iq != 0 ? iC / iqs : -1))
            iexit = (ir1 > 0 && ir1 < iexit ? ir1 : iexit)
            iexit = (ir2 > 0 && ir2 < iexit ? ir2 : iexit)
            idur = min(iT, iexit)
            iok = (ie - ib < 1 || idur < 1 / sr ? 0 : 1)
        podium_checked:
          if iok == 1 kgoto podium_play               ; bad note: turnoff skips the rest
            turnoff
        podium_play:
          if iok == 0 igoto podium_end                ; bad note: initialise nothing

          ; ---- remaining parameters
          iamp = p9 * 0dbfs
          ipan = p10 - 2 * floor(p10 / 2)             ; fold into 0..1 (SuperDirt pan.fold)
          ipan = (ipan > 1 ? 2 - ipan : ipan)
          ipl = cos(ipan * $M_PI * 0.5)               ; equal power (SC Pan2 / Balance2)
          ipr = sin(ipan * $M_PI * 0.5)
          icutoff = abs(p12)
          ihcutoff = abs(p14)
          ishape = max(p18, 0)
          ; more of SuperDirt's effects (SamplerEffectsExtra.swift), each on when given
          ivow = (p27 >= 1 && p27 <= 5 ? 1 : 0)
          imore = (p28 > 0 || p33 > 0 || p35 > 0 || p36 > 0 || p39 > 0 || p40 > 0 || p41 > 0 ? 1 : 0)
          imore = (imore == 1 || p43 > 0 || p44 > 0 || p45 > 0 || p46 != 0 || p47 != 0 || p49 > 0 || p51 > 0 || p52 > 0 ? 1 : 0)
          imore = (imore == 1 || p66 > 0 || p68 > 0 ? 1 : 0)
          ispec = (p54 > 0 || p55 > 0 || p56 > 0 || p57 > 0 || p58 > 0 || p59 > 0 || p60 > 0 || p61 > 0 || p62 > 0 || p63 > 0 || p64 > 0 || p65 > 0 ? 1 : 0)
          ifx = (icutoff > 0 || ihcutoff > 0 || p16 > 0 || p17 > 1 || ishape > 0 || p31 > 0 || ivow == 1 || imore == 1 || ispec == 1 || p30 > 0 ? 1 : 0)
          icut = int(p19)
          islot = ((floor(p20) % giPodiumOrbits) + giPodiumOrbits) % giPodiumOrbits
          ichl = (nchnls >= 2 ? 2 * (islot % int(nchnls / 2)) + 1 : 1)
          iroom = max(p21, 0)
          idelay = max(p23, 0)

          ; ---- orbit effects: parameters (latest sending note wins); keep them running.
          ; ilesl: the note's dry sound goes through the orbit's leslie
          ilesl podium_orbit_note islot, iroom, p22, idelay, p24, p25, p70, p71, p72, idur
          if iroom <= 0 && idelay <= 0 && ilesl == 0 igoto podium_orbit_done
            Srev sprintf "podium.orbit.%d.rev", islot ; its send channels
            Sdell sprintf "podium.orbit.%d.dell", islot
            Sdelr sprintf "podium.orbit.%d.delr", islot
            Slesl sprintf "podium.orbit.%d.lesl", islot
            Slesr sprintf "podium.orbit.%d.lesr", islot
        podium_orbit_done:

          ; ---- duration and envelope (SuperDirt dirt_gate: fade in if not at frame 0),
          ; sample-accurate: fade in, hold, fade out reaching 0 exactly at idur
          irel = min(giPodiumFadeOut, idur * 0.19098)
          ifin = (ip0 > 0 ? min(giPodiumFadeIn, idur * 0.19098) : 0)
          iseg1 = max(ifin, 1 / sr)
          ; never rounded below idur, never shorter than asked: the driver lengthens a
          ; note started early in its k-cycle past that cycle's end, as Csound 6.18
          ; crashes (a negative copy in kperf) when such a note ends inside it
          p3 = (p3 > idur + 0.5 / kr ? p3 : idur + 0.5 / kr)
          aenv linseg (ifin > 0 ? 0 : 1), iseg1, 1, max(idur - iseg1 - irel, 0), 1, irel, 0

          ; ---- note-local time, for accelerate and for cut fades
          if iA == 0 && icut == 0 goto podium_time_done
            at line 0, 1, 1
        podium_time_done:

          ; ---- cut group: post a stop request, then watch for later ones
          if icut == 0 goto podium_cut_done
            ibase = (((abs(icut) - 1) % giPodiumCutSlots) * giPodiumOrbits + islot) * (1 + 2 * giPodiumCutRing)
            ihead = giPodiumCutState[ibase]
            ient = ibase + 1 + 2 * (ihead % giPodiumCutRing)
            giPodiumCutState[ient] = (icut > 0 ? 1 : 0)   ; 1: stop all of the group
            giPodiumCutState[ient + 1] = p26              ; else only this sample
            giPodiumCutState[ibase] = ihead + 1
            kbase = ibase
            kseen init ihead + 1
            kstop init 0
            kstopt init 1e9                           ; note time at which the stop fade began
            kblk init 0
            kt0 = kblk * ksmps / sr                   ; note time at the start of this block
            kblk += 1
            if kt0 >= kstopt + irel + ksmps / sr then
              turnoff                                 ; fade done
            endif
            khead = giPodiumCutState[kbase]
            if khead > kseen && kstop == 0 then
              if khead - kseen > giPodiumCutRing then
                kstop = 1                             ; ring overrun: stop to be safe
              else
                while kseen < khead do
                  kent = kbase + 1 + 2 * (kseen % giPodiumCutRing)
                  if giPodiumCutState[kent] == 1 || giPodiumCutState[kent + 1] == p26 then
                    kstop = 1
                  endif
                  kseen += 1
                od
              endif
              kseen = khead
              if kstop == 1 then
                kstopt = kt0                          ; fade out over irel from now on
              endif
            endif
            aenv = aenv * limit((kstopt + irel - at) / irel, 0, 1)
        podium_cut_done:

          ; ---- play position and table read (cubic, like BufRd interpolation 4)
          if iA != 0 goto podium_accelerate
            apos line ip0, 1, ip0 + iB
            goto podium_position_done
        podium_accelerate:
            apos = ip0 + at * (iB + iA * at)
        podium_position_done:
          apos limit apos, 0, iN - 1                  ; never read outside the table
          al table3 apos, iftl, 0, 0, 0
          if istereo == 0 goto podium_read_done
            ar table3 apos, iftr, 0, 0, 0
        podium_read_done:

          ; (Csound 6.18 with --sample-accurate: the first outch of a k-cycle drops the
          ; part of a note's first block after its start offset; so a silent one first)
          kfirstblk init 1
          if kfirstblk == 0 kgoto podium_first_done
            azero = 0
            outch 1, azero
            kfirstblk = 0
        podium_first_done:

          ; ---- pan, per-note effects (before the gain, as in SuperDirt), gain, output
          if nchnls == 1 goto podium_out_mono
          if ifx == 1 goto podium_out_fx
          if istereo == 1 goto podium_out_stereo
            ag = al * aenv
            al = ag * (ipl * iamp)
            ar = ag * (ipr * iamp)
            goto podium_out
        podium_out_stereo:
            al = al * aenv * (ipl * iamp)
            ar = ar * aenv * (ipr * iamp)
            goto podium_out
        podium_out_fx:
            if istereo == 1 goto podium_out_fx2
              ar = al
        podium_out_fx2:
            al = al * ipl
            ar = ar * ipr
            if ivow == 0 goto podium_out_fx3
              al, ar podium_fx_vowel al, ar, p27, p13
        podium_out_fx3:
            al, ar podium_fx al, ar, ishape, ihcutoff, p15, p31, p32, p16, p17, icutoff, p13
            if imore == 0 goto podium_out_fx4
              al, ar podium_fx_more al, ar, p28, p29, p33 - 1, p34, p35 - 1, p36, p37, p38, p39, p40, \
                p41, p42, p43, p44, p45, p46, p47, p48, p49, p50, p51, p52, p53, p66 - 1, p67, p68 - 1, p69, p3
        podium_out_fx4:
            if ispec == 0 goto podium_out_fx5
              al, ar podium_fx_spectral al, ar, p54, p55, p56, p57, p58, p59, p60, p61, p62, p63, p64, p65
        podium_out_fx5:
            if p30 <= 0 goto podium_out_fx6
              al, ar podium_fx_djf al, ar, p30 - 1
        podium_out_fx6:
            ag = aenv * iamp
            al = al * ag
            ar = ar * ag
        podium_out:
          if ilesl == 1 goto podium_out_leslie
            outch ichl, al, ichl + 1, ar
            goto podium_out_done
        podium_out_leslie:
            chnmix al, Slesl
            chnmix ar, Slesr
        podium_out_done:

          ; ---- sends to the orbit's global effects
          if iroom <= 0 goto podium_send_rev_done
            chnmix (al + ar) * iroom, Srev
        podium_send_rev_done:
          if idelay <= 0 goto podium_end
            chnmix al * idelay, Sdell
            chnmix ar * idelay, Sdelr
            goto podium_end

          ; ---- nchnls = 1: channels summed, no panning (SuperDirt with 1 channel)
        podium_out_mono:
          if istereo == 0 goto podium_mono_sum_done
            al = al + ar
        podium_mono_sum_done:
          if ifx == 0 goto podium_mono_fx_done
            ar = al
            if ivow == 0 goto podium_mono_fx2
              al, ar podium_fx_vowel al, ar, p27, p13
        podium_mono_fx2:
            al, ar podium_fx al, ar, ishape, ihcutoff, p15, p31, p32, p16, p17, icutoff, p13
            if imore == 0 goto podium_mono_fx3
              al, ar podium_fx_more al, ar, p28, p29, p33 - 1, p34, p35 - 1, p36, p37, p38, p39, p40, \
                p41, p42, p43, p44, p45, p46, p47, p48, p49, p50, p51, p52, p53, p66 - 1, p67, p68 - 1, p69, p3
        podium_mono_fx3:
            if ispec == 0 goto podium_mono_fx4
              al, ar podium_fx_spectral al, ar, p54, p55, p56, p57, p58, p59, p60, p61, p62, p63, p64, p65
        podium_mono_fx4:
            if p30 <= 0 goto podium_mono_fx_done
              al, ar podium_fx_djf al, ar, p30 - 1
        podium_mono_fx_done:
          al = al * aenv * iamp
          if ilesl == 1 goto podium_mono_leslie
            outch 1, al
            goto podium_mono_out_done
        podium_mono_leslie:
            chnmix al, Slesl                          ; (both: the orbit's mono mix halves its pair)
            chnmix al, Slesr
        podium_mono_out_done:
          if iroom <= 0 goto podium_mono_rev_done
            chnmix al * iroom, Srev
        podium_mono_rev_done:
          if idelay <= 0 goto podium_end
            chnmix al * idelay, Sdell
            chnmix al * idelay, Sdelr
        podium_end:
        endin

        /* ------------------------------------------------------------------------
           Per-orbit global effects. Must be defined after podium_sampler so it
           gets the higher instrument number and runs after the notes each k-cycle.
           ------------------------------------------------------------------------ */
        instr podium_orbits
          if active:i("podium_orbits") > 1 then
            turnoff                          ; a second instance (e.g. fractional p1): keep the first
          else
            tigoto podium_orbits_tied        ; scheduled again while held (a tied note): keep state
            podium_orbit_fx 0, giPodiumOrbits
            ; play (and clear) the output pairs the orbits added to this k-cycle: orbit k
            ; on channels 2p+1, 2p+2 for p = k mod (nchnls / 2); nchnls = 1: summed on 1
            ipairs = limit(int(nchnls / 2), 1, giPodiumOrbits)
            aramp, azero init 0, 0           ; aramp: 0, 1, .. ksmps - 1 (made in the first k-cycle)
            kramp init 0
            if kramp == 0 then
              while kramp < ksmps do
                vaset kramp, kramp, aramp
                kramp += 1
              od
            endif
            if gkPodiumOutNow == 0 kgoto podium_orbits_tied
            gkPodiumOutNow = 0
            kpair = 0
            while kpair < ipairs do
              ktl table 64 * kpair + 31, giPodiumFxParm
              ktr table 64 * kpair + 63, giPodiumFxParm
              al tablekt aramp, ktl
              ar tablekt aramp, ktr
              tablewkt azero, aramp, ktl
              tablewkt azero, aramp, ktr
              if nchnls != 1 kgoto podium_orbits_stereo
                al = (al + ar) * 0.5
                ar = azero                   ; (added to channel 1 too)
        podium_orbits_stereo:
              outch 2 * kpair + 1, al, 2 * kpair + 1 + limit(nchnls - 1, 0, 1), ar
              kpair += 1
            od
        podium_orbits_tied:
          endif
        endin

        schedule "podium_orbits", 0, -1
        """#
}
