// SuperDirt's synths as Csound instruments, a struck membrane: superhex, MembraneHexagon's
// waveguide mesh (19 scattering junctions) struck by a 10 ms decay, sample by sample.
// Each is SuperDirt's SynthDef re-expressed (not copied), measured against scsynth's renders of
// the same events (DirtSynthTests); they use `DirtSynths.shared`'s tables and opcodes and their own below.
extension DirtSynths {
    static let mesh: [(name: String, code: String)] = [
        ("superhex", #"""
        instr superhex ; podium: freq amp pan accelerate speed:1 rate:1 +effects
          ifreq = limit(p4, 0, sr/2)
          iamp = p5
          ipan = p6
          iacc = p7
          ispeed = p8
          irate = p9
          isus = max(p3 - 0.001, 0.001)
          aenv SDlinen isus, 0.02, 0.96, 0.02, -3
          aenv SDlevel aenv
          ktens = 0.05*ifreq/400*SDfscale(ispeed, iacc, isus)
          iloss = 1 - 0.01*limit(irate, -1e6, 1e6)/max(ifreq, 0.01)
          ; Decay.ar(Impulse.ar(0), 0.01): 1, b, b^2 ... as scsynth's first block gives it, 1 + b, b + b^2 ...
          ib = exp(log(0.001)/(0.01*sr))
          aexc expseg 1 + ib, 1, exp(log(ib)*sr)*(1 + ib)
          asnd SDmembrane aexc, ktens, iloss
          aL, aR SDpan2 asnd*aenv, 1, ipan, p3
          SDdirtout aL, aR, iamp, p(17), p77
        endin
        """#)
    ]

    /// The tables and opcodes only these synths use.
    static let meshShared = #"""
        ; ---------------------------------------------------------------- superhex
        ; MembraneHexagon (sc3-plugins): a hexagonal waveguide mesh of 19 scattering junctions (42 lines
        ; of unit delays each way, a self-loop per junction for the tension, inverting low-passed rim
        ; guides on the 12 edge junctions), its input on junctions 0-8, its output junction 0. Generated
        ; from the mesh as Membrane_shape builds it; sample by sample. The first cycle runs twice, the
        ; first time with the constructor's input (as scsynth does).
        opcode SDmembrane, a, akk
          ain, ktens, kloss xin
          setksmps 1
          kb0, kb1, kb2, kb3, kb4, kb5, kb6, kb7, kb8, kb9 init 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
          kb10, kb11, kb12, kb13, kb14, kb15, kb16, kb17, kb18, kb19 init 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
          kb20, kb21, kb22, kb23, kb24, kb25, kb26, kb27, kb28, kb29 init 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
          kb30, kb31, kb32, kb33, kb34, kb35, kb36, kb37, kb38, kb39 init 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
          kb40, kb41, kb42, kb43, kb44, kb45, kb46, kb47, kb48, kb49 init 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
          kb50, kb51, kb52, kb53, kb54, kb55, kb56, kb57, kb58, kb59 init 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
          kb60, kb61, kb62, kb63, kb64, kb65, kb66, kb67, kb68, kb69 init 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
          kb70, kb71, kb72, kb73, kb74, kb75, kb76, kb77, kb78, kb79 init 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
          kb80, kb81, kb82, kb83, kb84, kb85, kb86, kb87, kb88, kb89 init 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
          kb90, kb91, kb92, kb93, kb94, kb95, kb96, kb97, kb98, kb99 init 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
          kb100, kb101, kb102, kb103, kb104, kb105, kb106, kb107, kb108, kb109 init 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
          kb110, kb111, kb112, kb113, kb114, kc92, kc94, kc96, kc98, kc100 init 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
          kc102, kc104, kc106, kc108, kc110, kc112, kc114 init 0, 0, 0, 0, 0, 0, 0
          kfirst init 1
          ktens = (ktens == 0 ? 0.0001 : min(abs(ktens), 0.433))
          kloss = limit(kloss, 0, 0.99999)
          kyj = 72/(ktens*ktens*64)
          k2r = 2/kyj
          kreps = (kfirst == 1 ? 2 : 1)
          kinp = (kfirst == 1 ? 1 : k(ain))/9
          while kreps > 0 do
            kT0 = (((kb1 + kb3 + kb5 + kb10 + kb56 + kb60) + (kyj - 6)*kb84)*k2r + kinp)*kloss
            kT1 = (((kb0 + kb8 + kb52 + kb79 + kb81 + kb83) + (kyj - 6)*kb85)*k2r + kinp)*kloss
            kT2 = (((kb2 + kb66 + kb73 + kb75 + kb77 + kb82) + (kyj - 6)*kb86)*k2r + kinp)*kloss
            kT3 = (((kb4 + kb38 + kb62 + kb67 + kb69 + kb71) + (kyj - 6)*kb87)*k2r + kinp)*kloss
            kT4 = (((kb30 + kb34 + kb58 + kb61 + kb63 + kb65) + (kyj - 6)*kb88)*k2r + kinp)*kloss
            kT5 = (((kb20 + kb24 + kb28 + kb55 + kb57 + kb59) + (kyj - 6)*kb89)*k2r + kinp)*kloss
            kT6 = (((kb7 + kb9 + kb11 + kb14 + kb18 + kb54) + (kyj - 6)*kb90)*k2r + kinp)*kloss
            kT7 = (((kb6 + kb12 + kb51 + kb53 + kb92) + (kyj - 5)*kb91)*k2r + kinp)*kloss
            kT8 = (((kb17 + kb19 + kb21 + kb22 + kb94) + (kyj - 5)*kb93)*k2r + kinp)*kloss
            kT9 = (((kb13 + kb15 + kb16 + kb96) + (kyj - 4)*kb95)*k2r)*kloss
            kT10 = (((kb23 + kb25 + kb27 + kb98) + (kyj - 4)*kb97)*k2r)*kloss
            kT11 = (((kb26 + kb29 + kb31 + kb33 + kb100) + (kyj - 5)*kb99)*k2r)*kloss
            kT12 = (((kb32 + kb35 + kb37 + kb102) + (kyj - 4)*kb101)*k2r)*kloss
            kT13 = (((kb36 + kb39 + kb41 + kb64 + kb104) + (kyj - 5)*kb103)*k2r)*kloss
            kT14 = (((kb40 + kb43 + kb70 + kb106) + (kyj - 4)*kb105)*k2r)*kloss
            kT15 = (((kb42 + kb45 + kb68 + kb76 + kb108) + (kyj - 5)*kb107)*k2r)*kloss
            kT16 = (((kb44 + kb46 + kb74 + kb110) + (kyj - 4)*kb109)*k2r)*kloss
            kT17 = (((kb47 + kb48 + kb72 + kb80 + kb112) + (kyj - 5)*kb111)*k2r)*kloss
            kT18 = (((kb49 + kb50 + kb78 + kb114) + (kyj - 4)*kb113)*k2r)*kloss
            kx = kb0
            kb0 = kT0 - kb1
            kb1 = kT1 - kx
            kx = kb2
            kb2 = kT0 - kb3
            kb3 = kT2 - kx
            kx = kb4
            kb4 = kT0 - kb5
            kb5 = kT3 - kx
            kx = kb6
            kb6 = kT6 - kb7
            kb7 = kT7 - kx
            kx = kb8
            kb8 = kT6 - kb9
            kb9 = kT1 - kx
            kx = kb10
            kb10 = kT6 - kb11
            kb11 = kT0 - kx
            kx = kb12
            kb12 = kT9 - kb13
            kb13 = kT7 - kx
            kx = kb14
            kb14 = kT9 - kb15
            kb15 = kT6 - kx
            kx = kb16
            kb16 = kT8 - kb17
            kb17 = kT9 - kx
            kx = kb18
            kb18 = kT8 - kb19
            kb19 = kT6 - kx
            kx = kb20
            kb20 = kT8 - kb21
            kb21 = kT5 - kx
            kx = kb22
            kb22 = kT10 - kb23
            kb23 = kT8 - kx
            kx = kb24
            kb24 = kT10 - kb25
            kb25 = kT5 - kx
            kx = kb26
            kb26 = kT10 - kb27
            kb27 = kT11 - kx
            kx = kb28
            kb28 = kT11 - kb29
            kb29 = kT5 - kx
            kx = kb30
            kb30 = kT11 - kb31
            kb31 = kT4 - kx
            kx = kb32
            kb32 = kT11 - kb33
            kb33 = kT12 - kx
            kx = kb34
            kb34 = kT12 - kb35
            kb35 = kT4 - kx
            kx = kb36
            kb36 = kT12 - kb37
            kb37 = kT13 - kx
            kx = kb38
            kb38 = kT13 - kb39
            kb39 = kT3 - kx
            kx = kb40
            kb40 = kT13 - kb41
            kb41 = kT14 - kx
            kx = kb42
            kb42 = kT14 - kb43
            kb43 = kT15 - kx
            kx = kb44
            kb44 = kT15 - kb45
            kb45 = kT16 - kx
            kx = kb46
            kb46 = kT17 - kb47
            kb47 = kT16 - kx
            kx = kb48
            kb48 = kT18 - kb49
            kb49 = kT17 - kx
            kx = kb50
            kb50 = kT7 - kb51
            kb51 = kT18 - kx
            kx = kb52
            kb52 = kT7 - kb53
            kb53 = kT1 - kx
            kx = kb54
            kb54 = kT5 - kb55
            kb55 = kT6 - kx
            kx = kb56
            kb56 = kT5 - kb57
            kb57 = kT0 - kx
            kx = kb58
            kb58 = kT5 - kb59
            kb59 = kT4 - kx
            kx = kb60
            kb60 = kT4 - kb61
            kb61 = kT0 - kx
            kx = kb62
            kb62 = kT4 - kb63
            kb63 = kT3 - kx
            kx = kb64
            kb64 = kT4 - kb65
            kb65 = kT13 - kx
            kx = kb66
            kb66 = kT3 - kb67
            kb67 = kT2 - kx
            kx = kb68
            kb68 = kT3 - kb69
            kb69 = kT15 - kx
            kx = kb70
            kb70 = kT3 - kb71
            kb71 = kT14 - kx
            kx = kb72
            kb72 = kT2 - kb73
            kb73 = kT17 - kx
            kx = kb74
            kb74 = kT2 - kb75
            kb75 = kT16 - kx
            kx = kb76
            kb76 = kT2 - kb77
            kb77 = kT15 - kx
            kx = kb78
            kb78 = kT1 - kb79
            kb79 = kT18 - kx
            kx = kb80
            kb80 = kT1 - kb81
            kb81 = kT17 - kx
            kx = kb82
            kb82 = kT1 - kb83
            kb83 = kT2 - kx
            kb84 = kT0 - kb84
            kb85 = kT1 - kb85
            kb86 = kT2 - kb86
            kb87 = kT3 - kb87
            kb88 = kT4 - kb88
            kb89 = kT5 - kb89
            kb90 = kT6 - kb90
            kb91 = kT7 - kb91
            kx = kT7 - kb92
            kb92 = (kc92 - kx)*0.5
            kc92 = -kx
            kb93 = kT8 - kb93
            kx = kT8 - kb94
            kb94 = (kc94 - kx)*0.5
            kc94 = -kx
            kb95 = kT9 - kb95
            kx = kT9 - kb96
            kb96 = (kc96 - kx)*0.5
            kc96 = -kx
            kb97 = kT10 - kb97
            kx = kT10 - kb98
            kb98 = (kc98 - kx)*0.5
            kc98 = -kx
            kb99 = kT11 - kb99
            kx = kT11 - kb100
            kb100 = (kc100 - kx)*0.5
            kc100 = -kx
            kb101 = kT12 - kb101
            kx = kT12 - kb102
            kb102 = (kc102 - kx)*0.5
            kc102 = -kx
            kb103 = kT13 - kb103
            kx = kT13 - kb104
            kb104 = (kc104 - kx)*0.5
            kc104 = -kx
            kb105 = kT14 - kb105
            kx = kT14 - kb106
            kb106 = (kc106 - kx)*0.5
            kc106 = -kx
            kb107 = kT15 - kb107
            kx = kT15 - kb108
            kb108 = (kc108 - kx)*0.5
            kc108 = -kx
            kb109 = kT16 - kb109
            kx = kT16 - kb110
            kb110 = (kc110 - kx)*0.5
            kc110 = -kx
            kb111 = kT17 - kb111
            kx = kT17 - kb112
            kb112 = (kc112 - kx)*0.5
            kc112 = -kx
            kb113 = kT18 - kb113
            kx = kT18 - kb114
            kb114 = (kc114 - kx)*0.5
            kc114 = -kx
            kreps -= 1
            kinp = k(ain)/9
          od
          kfirst = 0
          xout a(kT0)
        endop
        """#
}
