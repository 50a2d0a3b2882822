// SuperDirt's grain effects (Csound): pshift (dirt_pitch_shift, SuperCollider's PitchShift) and
// grenvelo (dirt_grain_envelope), in the chain after lpf (`podium_fx_more`, SamplerEffects.swift).
extension SamplerOrchestra {
    static let grainEffects = #"""
        ; pshift (dirt_pitch_shift): SC's PitchShift, a time-domain granular shifter. Four grains
        ; a window apart by a quarter, each with a triangular envelope over the window, read one
        ; delay line while their delay moves by (1 - ratio) a sample: from (ratio - 1) * window
        ; down to 0 when the ratio is above 1, from 0 up to (1 - ratio) * window below it, so each
        ; grain plays the input at the ratio. The window as SuperDirt sets it:
        ; sustain.linlin(0.01, 0.3, 0.01, 0.18). psdisp: a random delay of 0..psdisp seconds
        ; (at most the window) added to each grain when it starts. The four envelopes sum to 2.
        ; irate: the pitch ratio (clipped to 0..4, as SC's); isus: the note's length (s).
        opcode podium_fx_pshift, aa, aaiii
          al, ar, irate, idisp, isus xin
          iwin = 0.01 + (limit(isus, 0.01, 0.3) - 0.01) * 0.17 / 0.29
          ir = limit(irate, 0, 4)
          ispan = abs(1 - ir) * iwin
          idis = limit(idisp, 0, iwin)
          iup = (ir > 1 ? 1 : 0)
          aph phasor 1 / iwin
          ; the four grains' phases, a quarter apart
          ap1 = aph
          ap2 = aph + 0.25
          ap2 = ap2 - int(ap2)
          ap3 = aph + 0.5
          ap3 = ap3 - int(ap3)
          ap4 = aph + 0.75
          ap4 = ap4 - int(ap4)
          ; each grain's random extra delay, drawn when its phase wraps
          kd1 init 0
          kd2 init 0
          kd3 init 0
          kd4 init 0
          if idis <= 0 goto podium_pshift_nodisp
            kp1 downsamp ap1
            kp2 downsamp ap2
            kp3 downsamp ap3
            kp4 downsamp ap4
            kq1 init 0
            kq2 init 0
            kq3 init 0
            kq4 init 0
            ; (a wrap since the last k-cycle: the phase is below the last one's)
            kd1 = (kp1 < kq1 ? random:k(0, idis) : kd1)
            kd2 = (kp2 < kq2 ? random:k(0, idis) : kd2)
            kd3 = (kp3 < kq3 ? random:k(0, idis) : kd3)
            kd4 = (kp4 < kq4 ? random:k(0, idis) : kd4)
            kq1 = kp1
            kq2 = kp2
            kq3 = kp3
            kq4 = kp4
        podium_pshift_nodisp:
          ad1 = ispan * (iup == 1 ? 1 - ap1 : ap1) + 2 / sr + kd1
          ad2 = ispan * (iup == 1 ? 1 - ap2 : ap2) + 2 / sr + kd2
          ad3 = ispan * (iup == 1 ? 1 - ap3 : ap3) + 2 / sr + kd3
          ad4 = ispan * (iup == 1 ? 1 - ap4 : ap4) + 2 / sr + kd4
          aw1 = 1 - abs(2 * ap1 - 1)
          aw2 = 1 - abs(2 * ap2 - 1)
          aw3 = 1 - abs(2 * ap3 - 1)
          aw4 = 1 - abs(2 * ap4 - 1)
          adumpl delayr 3 * 0.18 + 0.18 + 4 / sr
            al1 deltap3 ad1
            al2 deltap3 ad2
            al3 deltap3 ad3
            al4 deltap3 ad4
            delayw al
          adumpr delayr 3 * 0.18 + 0.18 + 4 / sr
            ar1 deltap3 ad1
            ar2 deltap3 ad2
            ar3 deltap3 ad3
            ar4 deltap3 ad4
            delayw ar
          al = (al1 * aw1 + al2 * aw2 + al3 * aw3 + al4 * aw4) * 0.5
          ar = (ar1 * aw1 + ar2 * aw2 + ar3 * aw3 + ar4 * aw4) * 0.5
          xout al, ar
        endop

        ; grenvelo (dirt_grain_envelope): Env.linen over the note's length, its attack the
        ; tilt's share of what the plateau leaves, as SuperDirt computes it (tilt and plat
        ; clipped to 0..1; the curve linear, as SuperDirt sends it when the event gives none).
        opcode podium_fx_grenvelo, aa, aaiii
          al, ar, itilt, iplat, isus xin
          ip = limit(iplat, 0, 1)
          ic = limit(itilt, 0, 1)
          al, ar podium_fx_envelope al, ar, ic * (1 - ip) * isus, ip * isus, (1 - ic) * (1 - ip) * isus, 0
          xout al, ar
        endop
        """#
}
