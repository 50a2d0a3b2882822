// SuperDirt's synths as Csound instruments, FM: superfm, FM7's six operators modulating each
// other, SuperDirt's voice 0 and its five random presets (voice 1–5; SuperDirt draws its own at
// every start: these are one draw of the same distributions) crossfaded as SelectX does.
// Each is SuperDirt's SynthDef re-expressed (not copied), measured against scsynth's renders of
// the same events (DirtSynthTests); they use `DirtSynths.shared`'s tables and opcodes and their own below.
extension DirtSynths {
    static let fm: [(name: String, code: String)] = [
        ("superfm", #"""
        instr superfm ; podium: freq amp pan voice lfofreq:1 lfodepth feedback amp1:1 amp2:1 amp3:1 amp4:1 amp5:1 amp6:1 +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          ivoice = limit(p7, 0, 5)
          ilfof = limit(p8, -sr/2, sr/2)
          ilfod = limit(p9, -1e6, 1e6)
          ifb = limit(p10, -1e6, 1e6)
          iops[] fillarray p11, p12, p13, p14, p15, p16
          isus = max(p3 - 0.001, 0.001)
          aenv SDlinen isus, 0.01, 0.98, 0.01, -3
          aenv SDlevel aenv
          ; voice 0: SuperDirt's default detunes are drawn when it builds the SynthDef (rand2(0.1) Hz);
          ; these six are the reference renders' (sclang seed 20240913), fitted to them
          iv0 = int(ivoice)
          iv1 = min(iv0 + 1, 5)
          ic0 = cos((ivoice - iv0)*$M_PI/2)
          ic1 = sin((ivoice - iv0)*$M_PI/2)
          iu[] fillarray 1, 1, 1, 1, 1, 1, -0.0438, -0.0256, 0.0301, 0.031, 0.0312, 0.0886, \
            1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, \
            0.01, 0.3333, 1, 1, 0.01, 0.3333, 1, 1, 0.01, 0.3333, 1, 1, 0.01, 0.3333, 1, 1, 0.01, 0.3333, 1, 1, 0.01, 0.3333, 1, 1
          ip[] init 96
          ii = 0
          while ii < 96 do
            ia = (iv0 == 0 ? (ii < 60 ? iu[ii] : 0) : tab_i((iv0 - 1)*96 + ii, giSDFMPre))
            ib = (iv1 == 0 ? (ii < 60 ? iu[ii] : 0) : tab_i((iv1 - 1)*96 + ii, giSDFMPre))
            ; (the modulation matrix's diagonal is the operators' feedback, scaled by `feedback`)
            idiag = (ii >= 60 && (ii - 60) % 7 == 0 ? ifb : 1)
            ip[ii] = (ic0*ia + ic1*ib)*idiag
            ii += 1
          od
          klfo SDlftrik ilfof
          kf = ifreq*(1 + klfo*ilfod)
          a1 SDfmenv ip, 0, isus
          a2 SDfmenv ip, 1, isus
          a3 SDfmenv ip, 2, isus
          a4 SDfmenv ip, 3, isus
          a5 SDfmenv ip, 4, isus
          a6 SDfmenv ip, 5, isus
          kf1 = limit(kf*ip[0] + ip[6], -sr/2, sr/2)
          kf2 = limit(kf*ip[1] + ip[7], -sr/2, sr/2)
          kf3 = limit(kf*ip[2] + ip[8], -sr/2, sr/2)
          kf4 = limit(kf*ip[3] + ip[9], -sr/2, sr/2)
          kf5 = limit(kf*ip[4] + ip[10], -sr/2, sr/2)
          kf6 = limit(kf*ip[5] + ip[11], -sr/2, sr/2)
          imods = 0
          ii = 60
          while ii < 96 do
            imods += abs(ip[ii])
            ii += 1
          od
          if imods == 0 then
            ; no modulation: six sines
            asnd = iops[0]*oscili(a1, kf1, giSDSine) + iops[1]*oscili(a2, kf2, giSDSine) + iops[2]*oscili(a3, kf3, giSDSine) \
              + iops[3]*oscili(a4, kf4, giSDSine) + iops[4]*oscili(a5, kf5, giSDSine) + iops[5]*oscili(a6, kf6, giSDSine)
          else
            asnd SDfm7 kf1, kf2, kf3, kf4, kf5, kf6, a1, a2, a3, a4, a5, a6, ip, iops
          endif
          aL, aR SDpan2 asnd*ampdb(-15)*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#)
    ]

    /// The tables and opcodes only these synths use.
    static let fmShared = #"""
        ; ---------------------------------------------------------------- superfm (FM7)
        ; superfm's five random presets (voice 1-5): per preset 6 ratios, 6 detunes (Hz), 6x4 EG levels,
        ; 6x4 EG times (x sustain), 6x6 modulation (row: the modulated operator). SuperDirt draws its own
        ; five whenever it starts; these are one draw of the same distributions.
        giSDFMPre ftgen 0, 0, 512, -2, 3, 2, 2, 7, 1, 8, -1.3247, -4.6471, 2.8591, -5.4766, -4.8394, -5.7006, 0.7887, 0.5149, 0.3427, 0.2555, 0.973, 0.6828, 0.7191, 0.7142, 0.3367, 0.7787, 0.3568, 0.3113, 0.393, 0.6888, 0.8451, 0.9705, 0.874, 0.5822, 0.6583, 0.9011, 0.952, 0.6408, 0.1117, 0.721, 0.2008, 0.5021, 0.0592, 0.1724, 0.9581, 0.0194, 0.8104, 0.2539, 0.0561, 0.6653, 0.6757, 0.978, 0.5748, 0.2818, 0.6719, 0.4261, 0.931, 0.9623, 0.2492, 0.5474, 0.9387, 0.8195, 0.5501, 0.7022, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.1388, 0, 0, 0, 0.517, 0.7906, 0.8506, 0, 0.971, 0, 0, 0.4358, 0, 0.5314, 0.6231, 0, 0, 0.8877, 0, 0.7399, 0.6747, 0, 0, \
          0.5, 2, 2, 0.5, 6, 7, 1.6826, 2.0968, -5.1764, -2.7253, 0.907, -5.0539, 0.4595, 0.007, 0.0181, 0.8959, 0.5477, 0.5388, 0.5275, 0.1546, 0.6189, 0.9023, 0.1543, 0.9024, 0.1313, 0.5631, 0.7924, 0.1718, 0.6109, 0.4695, 0.8208, 0.1098, 0.0029, 0.2668, 0.906, 0.7429, 0.8358, 0.4819, 0.1002, 0.1232, 0.468, 0.6886, 0.3939, 0.0901, 0.3196, 0.2759, 0.9644, 0.3702, 0.8115, 0.5608, 0.7437, 0.8064, 0.0459, 0.2605, 0.7837, 0.0644, 0.0196, 0.0042, 0.335, 0.5424, 0, 0, 0, 0.8409, 0, 0, 0.9148, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.9183, 0, 0, 0, 0, 0, 0, 0, 0.346, 0.0706, 0, 0, 0, 0, 0.5265, 0.2067, 0, \
          3, 6, 1, 1, 2, 1, 4.3605, 6.3027, -4.2875, -4.793, 5.5668, 2.9501, 0.4735, 0.3308, 0.9615, 0.1078, 0.1636, 0.4877, 0.9305, 0.3245, 0.5691, 0.0232, 0.2887, 0.1498, 0.7734, 0.4055, 0.0959, 0.5317, 0.2155, 0.0812, 0.1962, 0.2981, 0.634, 0.1192, 0.1573, 0.5663, 0.2451, 0.8036, 0.3074, 0.0266, 0.1655, 0.8553, 0.8139, 0.7529, 0.0241, 0.202, 0.527, 0.193, 0.9407, 0.2127, 0.4476, 0.874, 0.3375, 0.8256, 0.946, 0.3191, 0.1824, 0.5234, 0.3576, 0.2712, 0, 0, 0.9296, 0, 0, 0.4642, 0, 0, 0, 0, 0, 0, 0.2907, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.5459, 0.7893, 0, 0, 0, 0, 0.6603, 0, 0, 0, 0.6609, 0, \
          1, 3, 3, 1, 2, 4, -2.4698, -1.3314, 4.4844, 6.5406, 0.641, 1.7992, 0.4425, 0.6331, 0.641, 0.9201, 0.1026, 0.2371, 0.6148, 0.1197, 0.1911, 0.8501, 0.8921, 0.6323, 0.5404, 0.0652, 0.5294, 0.243, 0.5431, 0.925, 0.3653, 0.806, 0.9878, 0.7474, 0.4822, 0.4618, 0.2658, 0.9827, 0.4493, 0.4567, 0.3487, 0.8603, 0.7177, 0.4425, 0.8532, 0.3511, 0.2088, 0.2112, 0.6529, 0.321, 0.4202, 0.2796, 0.4476, 0.4466, 0.1965, 0.0621, 0.5719, 0.186, 0.0976, 0.1627, 0.4226, 0, 0, 0, 0.4547, 0, 0, 0, 0, 0, 0.2538, 0, 0.0196, 0.0162, 0, 0, 0, 0, 0, 0.137, 0.135, 0.435, 0, 0, 0, 0.9015, 0, 0, 0, 0.7775, 0, 0, 0, 0, 0, 0, \
          2, 1, 0.5, 1, 1, 13, 5.3955, 0.1766, -2.4992, -1.3573, -6.9427, 0.1084, 0.5224, 0.0716, 0.3277, 0.7526, 0.2162, 0.1625, 0.6167, 0.5611, 0.7657, 0.4191, 0.3057, 0.4788, 0.9186, 0.112, 0.8689, 0.8616, 0.4173, 0.7679, 0.5827, 0.9364, 0.2299, 0.6918, 0.5298, 0.61, 0.6706, 0.8732, 0.6408, 0.061, 0.2862, 0.6976, 0.3087, 0.4173, 0.6837, 0.264, 0.828, 0.4119, 0.8686, 0.1413, 0.5555, 0.5556, 0.6812, 0.433, 0.1865, 0.9628, 0.7991, 0.5372, 0.8613, 0.1297, 0.8862, 0, 0, 0, 0.7234, 0, 0, 0, 0, 0.3817, 0, 0, 0, 0, 0, 0.1941, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.9134, 0, 0.5237, 0.1505, 0, 0, 0, 0.1323, 0, 0.0991, 0

        ; one FM7 operator's envelope: Env([0, l1..l4], [t1..t4]) x sustain (linear) as EnvGen.kr runs it
        ; for FM7: each segment a whole number of scsynth's 64-sample blocks (at least one, the fraction
        ; carried to the next), ramped sample by sample
        opcode SDfmenv, a, i[]ii
          ip[], iop, isus xin
          il = 12 + 4*iop
          it = 36 + 4*iop
          ib = 64/sr
          ir = 0
          id[] init 4
          ii = 0
          while ii < 4 do
            ; (a time past a day is a day: the note ends long before)
            ix = limit(ip[it + ii]*isus, 0, 86400)/ib + ir
            id[ii] = max(1, int(ix))
            ir = ix - id[ii]
            ii += 1
          od
          aenv linseg 0, id[0]*ib, ip[il], id[1]*ib, ip[il + 1], id[2]*ib, ip[il + 2], id[3]*ib, ip[il + 3], 1, ip[il + 3]
          xout aenv
        endop

        ; FM7 with modulation: each operator's phase is modulated (radians) by the previous sample's
        ; outputs of all six, times the matrix row; sample by sample
        opcode SDfm7, a, kkkkkkaaaaaai[]i[]
          kf1, kf2, kf3, kf4, kf5, kf6, a1, a2, a3, a4, a5, a6, ip[], io[] xin
          setksmps 1
          kp1 init 0
          kp2 init 0
          kp3 init 0
          kp4 init 0
          kp5 init 0
          kp6 init 0
          ky1 init 0
          ky2 init 0
          ky3 init 0
          ky4 init 0
          ky5 init 0
          ky6 init 0
          ir = 1/(2*$M_PI)
          km1 = (ip[60]*ky1 + ip[61]*ky2 + ip[62]*ky3 + ip[63]*ky4 + ip[64]*ky5 + ip[65]*ky6)*ir
          km2 = (ip[66]*ky1 + ip[67]*ky2 + ip[68]*ky3 + ip[69]*ky4 + ip[70]*ky5 + ip[71]*ky6)*ir
          km3 = (ip[72]*ky1 + ip[73]*ky2 + ip[74]*ky3 + ip[75]*ky4 + ip[76]*ky5 + ip[77]*ky6)*ir
          km4 = (ip[78]*ky1 + ip[79]*ky2 + ip[80]*ky3 + ip[81]*ky4 + ip[82]*ky5 + ip[83]*ky6)*ir
          km5 = (ip[84]*ky1 + ip[85]*ky2 + ip[86]*ky3 + ip[87]*ky4 + ip[88]*ky5 + ip[89]*ky6)*ir
          km6 = (ip[90]*ky1 + ip[91]*ky2 + ip[92]*ky3 + ip[93]*ky4 + ip[94]*ky5 + ip[95]*ky6)*ir
          ; (a modulation is kept within +-1e6 turns, where doubles still hold the phase)
          ky1 = k(a1)*tablei(frac(kp1 + limit(km1, -1e6, 1e6)), giSDSine, 1, 0, 1)
          ky2 = k(a2)*tablei(frac(kp2 + limit(km2, -1e6, 1e6)), giSDSine, 1, 0, 1)
          ky3 = k(a3)*tablei(frac(kp3 + limit(km3, -1e6, 1e6)), giSDSine, 1, 0, 1)
          ky4 = k(a4)*tablei(frac(kp4 + limit(km4, -1e6, 1e6)), giSDSine, 1, 0, 1)
          ky5 = k(a5)*tablei(frac(kp5 + limit(km5, -1e6, 1e6)), giSDSine, 1, 0, 1)
          ky6 = k(a6)*tablei(frac(kp6 + limit(km6, -1e6, 1e6)), giSDSine, 1, 0, 1)
          kp1 = frac(kp1 + kf1/sr)
          kp2 = frac(kp2 + kf2/sr)
          kp3 = frac(kp3 + kf3/sr)
          kp4 = frac(kp4 + kf4/sr)
          kp5 = frac(kp5 + kf5/sr)
          kp6 = frac(kp6 + kf6/sr)
          xout a(io[0]*ky1 + io[1]*ky2 + io[2]*ky3 + io[3]*ky4 + io[4]*ky5 + io[5]*ky6)
        endop
        """#
}
