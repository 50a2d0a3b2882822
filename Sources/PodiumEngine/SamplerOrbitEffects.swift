// Each orbit's global effects (Csound): the reverb and the delay (UDOs), and the tables their
// buffers live in, made when the part compiles (off the audio thread). Part of
// `SamplerOrchestra.effects` (SamplerEffects.swift).
extension SamplerOrchestra {
    /// podium_reverb, podium_orbit_fx, then the global code that makes their tables.
    static let orbitEffects = #"""
        ; A note's part in its orbit's effects (the sampler's notes and SDdirtout): the
        ; reverb's, delay's and leslie's parameters it gives (the latest sending note wins;
        ; the leslie's as value + 1, 0 not given), the orbit kept running until the note's
        ; end + giPodiumIdleTime, podium_orbits started when it does not run. Returns 1
        ; when the note's dry sound goes through the orbit's leslie: it sets one of its
        ; controls, or the leslie is engaged (SamplerOrbitLeslie.swift).
        opcode podium_orbit_note, i, iiiiiiiiii
          islot, iroom, isize, idelay, itime, ifb, iles, irate, ilsize, idur xin
          inow times
          iost = 8 * islot                            ; this orbit's place in giPodiumOrbitState
          iset = (iles != 0 || irate != 0 || ilsize != 0 ? 1 : 0)
          ilesl = (iset == 1 || inow < table:i(iost + 7, giPodiumOrbitState) ? 1 : 0)
          if iroom <= 0 && idelay <= 0 && ilesl == 0 igoto podium_orbit_note_done
            if iset == 0 igoto podium_orbit_note_size
              ; (in the ranges they mean something in: a mix, a rate in Hz, a cabinet up to a
              ; metre, past which dirt_leslie's (1 - distance) turns its gain over and up;
              ; `leslie 1e6 # lsize 1e6` made the orbit 1e12 times louder)
              tableiw (iles != 0 ? limit(iles - 1, 0, 1) : table:i(iost + 4, giPodiumOrbitState)), iost + 4, giPodiumOrbitState
              tableiw (irate != 0 ? limit(irate - 1, -1000, 1000) : table:i(iost + 5, giPodiumOrbitState)), iost + 5, giPodiumOrbitState
              tableiw (ilsize != 0 ? limit(ilsize - 1, 0, 1) : table:i(iost + 6, giPodiumOrbitState)), iost + 6, giPodiumOrbitState
              tableiw limit(inow + idur + giPodiumIdleTime, table:i(iost + 7, giPodiumOrbitState), 1e300), iost + 7, giPodiumOrbitState
        podium_orbit_note_size:
            if iroom <= 0 igoto podium_orbit_note_delay
              tableiw limit(isize, 0, 1), iost, giPodiumOrbitState
        podium_orbit_note_delay:
            if idelay <= 0 igoto podium_orbit_note_until
              tableiw itime, iost + 1, giPodiumOrbitState
              tableiw ifb, iost + 2, giPodiumOrbitState
        podium_orbit_note_until:
            ; (until = max(until, end + idle); limit, not max: max is variadic, 16 KB per instance)
            tableiw limit(inow + idur + giPodiumIdleTime, table:i(iost + 3, giPodiumOrbitState), 1e300), iost + 3, giPodiumOrbitState
            if active:i("podium_orbits") > 0 || giPodiumOrbitsAskedAt == inow igoto podium_orbit_note_done
              giPodiumOrbitsAskedAt = inow
              schedule "podium_orbits", 0, -1
        podium_orbit_note_done:
          xout ilesl
        endop

        ; The reverb of an orbit, both channels: a port of SuperDirt's dirt_reverb
        ; (core-synths-global.scd), its "Rand" values fixed per orbit and channel.
        ; Each of its 2 x 7 delay lines (4 + 2 allpasses and the loop's delay) is a
        ; ring in a table made by the global code below (so nothing big is allocated
        ; here), a power of two long (tablera and tablewa wrap it with a mask):
        ; tablewa writes a block at a time, tablera first reads the block written one
        ; line length ago. An allpass (alpass: y read, z = x + g y written, out = y - g z)
        ; keeps (1 - g) z in its ring, so that two ntrpol make it without temporary
        ; a-rate variables: w = (1 - g) z = ntrpol(y', x, 1 - g) with y' = (1 - g) y read,
        ; out = (1 - g^2) y - g x = ntrpol(y', w, -g / (1 - g)).
        ; After a wake (kwakes changed) what the rings hold is stale: while a line is
        ; on its first pass, the part of it a block is about to read is cleared first,
        ; so it reads as silence. Blocks must not be longer than a line:
        ; giPodiumRevKsmps (set by the global code) shortens them when ksmps is larger
        ; than the shortest line (very low sr or large ksmps).
        opcode podium_reverb, aa, akik
          setksmps giPodiumRevKsmps
          ain, kdepth, ip, kwakes xin        ; ip: the orbit's place in giPodiumFxParm
          ; (one init for all: each init or plain assignment of k or i variables is an
          ; ASSIGNM of 432 bytes, whatever the number of variables; but an assignment
          ; of several k variables at once allocates 32 bytes in every k-cycle: none here)
          kseen, kn, kw, kramp, kpl0, kpl1, kpl2, kpl3, kpl4, kpl5, kpl6, kpr0, kpr1, kpr2, kpr3, kpr4, kpr5, kpr6 init -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
          if kwakes != kseen then            ; kn: samples written since the orbit woke
            kseen = kwakes
            kn = 0
          endif
          ; kw: samples written since podium_orbits started: every ring is written
          ; (and read) at kw mod its length (+ its read offset)
          ipr = ip + 32                      ; the right channel's place
          ; the lines: table, read offset (table length - line length), allpass coefficients
          iTl0 = table:i(ip + 1, giPodiumFxParm)
          iOl0 = table:i(ip + 24, giPodiumFxParm)
          iAl0 = table:i(ip + 8, giPodiumFxParm)
          iBl0 = table:i(ip + 15, giPodiumFxParm)
          iTl1 = table:i(ip + 2, giPodiumFxParm)
          iOl1 = table:i(ip + 25, giPodiumFxParm)
          iAl1 = table:i(ip + 9, giPodiumFxParm)
          iBl1 = table:i(ip + 16, giPodiumFxParm)
          iTl2 = table:i(ip + 3, giPodiumFxParm)
          iOl2 = table:i(ip + 26, giPodiumFxParm)
          iAl2 = table:i(ip + 10, giPodiumFxParm)
          iBl2 = table:i(ip + 17, giPodiumFxParm)
          iTl3 = table:i(ip + 4, giPodiumFxParm)
          iOl3 = table:i(ip + 27, giPodiumFxParm)
          iAl3 = table:i(ip + 11, giPodiumFxParm)
          iBl3 = table:i(ip + 18, giPodiumFxParm)
          iTl4 = table:i(ip + 5, giPodiumFxParm)
          iOl4 = table:i(ip + 28, giPodiumFxParm)
          iTl5 = table:i(ip + 6, giPodiumFxParm)
          iOl5 = table:i(ip + 29, giPodiumFxParm)
          iAl5 = table:i(ip + 13, giPodiumFxParm)
          iBl5 = table:i(ip + 20, giPodiumFxParm)
          iTl6 = table:i(ip + 7, giPodiumFxParm)
          iOl6 = table:i(ip + 30, giPodiumFxParm)
          iAl6 = table:i(ip + 14, giPodiumFxParm)
          iBl6 = table:i(ip + 21, giPodiumFxParm)
          iTr0 = table:i(ipr + 1, giPodiumFxParm)
          iOr0 = table:i(ipr + 24, giPodiumFxParm)
          iAr0 = table:i(ipr + 8, giPodiumFxParm)
          iBr0 = table:i(ipr + 15, giPodiumFxParm)
          iTr1 = table:i(ipr + 2, giPodiumFxParm)
          iOr1 = table:i(ipr + 25, giPodiumFxParm)
          iAr1 = table:i(ipr + 9, giPodiumFxParm)
          iBr1 = table:i(ipr + 16, giPodiumFxParm)
          iTr2 = table:i(ipr + 3, giPodiumFxParm)
          iOr2 = table:i(ipr + 26, giPodiumFxParm)
          iAr2 = table:i(ipr + 10, giPodiumFxParm)
          iBr2 = table:i(ipr + 17, giPodiumFxParm)
          iTr3 = table:i(ipr + 4, giPodiumFxParm)
          iOr3 = table:i(ipr + 27, giPodiumFxParm)
          iAr3 = table:i(ipr + 11, giPodiumFxParm)
          iBr3 = table:i(ipr + 18, giPodiumFxParm)
          iTr4 = table:i(ipr + 5, giPodiumFxParm)
          iOr4 = table:i(ipr + 28, giPodiumFxParm)
          iTr5 = table:i(ipr + 6, giPodiumFxParm)
          iOr5 = table:i(ipr + 29, giPodiumFxParm)
          iAr5 = table:i(ipr + 13, giPodiumFxParm)
          iBr5 = table:i(ipr + 20, giPodiumFxParm)
          iTr6 = table:i(ipr + 7, giPodiumFxParm)
          iOr6 = table:i(ipr + 30, giPodiumFxParm)
          iAr6 = table:i(ipr + 14, giPodiumFxParm)
          iBr6 = table:i(ipr + 21, giPodiumFxParm)
          ; after a wake: clear the part of each line that is stale in the block about
          ; to be read (one loop over the 14 lines: less instance memory than 14 copies)
          aramp, azero init 0, 0             ; aramp: 0, 1, .. ksmps - 1 (made in the first k-cycle)
          if kramp == 0 then
            while kramp < ksmps do
              vaset kramp, kramp, aramp
              kramp += 1
            od
          endif
          if kn < table:k(ip + 23, giPodiumFxParm) then   ; (the orbit's longest line)
            kj = 0
            while kj < 14 do
              ki = ip + 1 + kj + 25 * int(kj / 7)         ; its line table in giPodiumFxParm
              kT table ki, giPodiumFxParm
              kO table ki + 23, giPodiumFxParm
              kN tableng kT
              kc = kN - kO - kn                           ; stale samples still to be read
              if kc > 0 then
                azi = (kw + kO) % kN + limit:a(aramp, 0, limit:k(kc, 1, ksmps) - 1)
                tablewkt azero, azi, kT, 0, 0, 1          ; (wrapping; repeats the last one)
              endif
              kj += 1
            od
          endif
          ; ---- left: input diffusion, 4 x AllpassN(in, 0.03, Rand(0.005, 0.02), 1)
          ay tablera iTl0, kpl0, iOl0
          aw ntrpol ay, ain, iAl0
          kpl0 tablewa iTl0, aw, 0, 0
          a1 ntrpol ay, aw, iBl0
          ay tablera iTl1, kpl1, iOl1
          aw ntrpol ay, a1, iAl1
          kpl1 tablewa iTl1, aw, 0, 0
          a1 ntrpol ay, aw, iBl1
          ay tablera iTl2, kpl2, iOl2
          aw ntrpol ay, a1, iAl2
          kpl2 tablewa iTl2, aw, 0, 0
          a1 ntrpol ay, aw, iBl2
          ay tablera iTl3, kpl3, iOl3
          aw ntrpol ay, a1, iAl3
          kpl3 tablewa iTl3, aw, 0, 0
          a1 ntrpol ay, aw, iBl3
          ; loop: *(depth + Rand(0, 0.05)) -> OnePole(0.5) -> AllpassN(Rand(0.01, 0.05), 2)
          ;       -> DelayN(0.19 + Rand(+-0.003)) -> AllpassN(Rand(0.03, 0.15), 2)
          ;       -> + in -> LeakDC; 64 samples added for SC's LocalIn block delay
          atap tablera iTl4, kpl4, iOl4
          ay tablera iTl5, kpl5, iOl5
          aw ntrpol ay, atap, iAl5
          kpl5 tablewa iTl5, aw, 0, 0
          aoutl ntrpol ay, aw, iBl5
          aoutl dcblock aoutl + a1, 0.995
          kg limit kdepth + table:i(ip + 22, giPodiumFxParm), 0, 0.99  ; SuperDirt can exceed 1 at size 1; keep it stable
          afb tone aoutl * kg, sr * cosinv(0.75) / (2 * $M_PI)
          ay tablera iTl6, kpl6, iOl6
          aw ntrpol ay, afb, iAl6
          kpl6 tablewa iTl6, aw, 0, 0
          afb ntrpol ay, aw, iBl6
          kpl4 tablewa iTl4, afb, 0, 0
          ; ---- right: input diffusion, 4 x AllpassN(in, 0.03, Rand(0.005, 0.02), 1)
          ay tablera iTr0, kpr0, iOr0
          aw ntrpol ay, ain, iAr0
          kpr0 tablewa iTr0, aw, 0, 0
          a1 ntrpol ay, aw, iBr0
          ay tablera iTr1, kpr1, iOr1
          aw ntrpol ay, a1, iAr1
          kpr1 tablewa iTr1, aw, 0, 0
          a1 ntrpol ay, aw, iBr1
          ay tablera iTr2, kpr2, iOr2
          aw ntrpol ay, a1, iAr2
          kpr2 tablewa iTr2, aw, 0, 0
          a1 ntrpol ay, aw, iBr2
          ay tablera iTr3, kpr3, iOr3
          aw ntrpol ay, a1, iAr3
          kpr3 tablewa iTr3, aw, 0, 0
          a1 ntrpol ay, aw, iBr3
          ; loop: *(depth + Rand(0, 0.05)) -> OnePole(0.5) -> AllpassN(Rand(0.01, 0.05), 2)
          ;       -> DelayN(0.26 + Rand(+-0.003)) -> AllpassN(Rand(0.03, 0.15), 2)
          ;       -> + in -> LeakDC; 64 samples added for SC's LocalIn block delay
          atap tablera iTr4, kpr4, iOr4
          ay tablera iTr5, kpr5, iOr5
          aw ntrpol ay, atap, iAr5
          kpr5 tablewa iTr5, aw, 0, 0
          aoutr ntrpol ay, aw, iBr5
          aoutr dcblock aoutr + a1, 0.995
          kg limit kdepth + table:i(ipr + 22, giPodiumFxParm), 0, 0.99  ; SuperDirt can exceed 1 at size 1; keep it stable
          afb tone aoutr * kg, sr * cosinv(0.75) / (2 * $M_PI)
          ay tablera iTr6, kpr6, iOr6
          aw ntrpol ay, afb, iAr6
          kpr6 tablewa iTr6, aw, 0, 0
          afb ntrpol ay, aw, iBr6
          kpr4 tablewa iTr4, afb, 0, 0
          kn += ksmps
          kw += ksmps
          xout aoutl, aoutr
        endop

        ; effects of orbit io, then (recursively) of orbits io+1 .. icount-1
        ; (no arrays, variadic opcodes or conditional expressions: see the header).
        ; Delay: two rings (L, R) of whole blocks, written a block at a time with
        ; tablew, read with tablexkt's 4-point Lagrange interpolation (as deltap3).
        opcode podium_orbit_fx, 0, ii
          io, icount xin
          ; this orbit's sends (audio channels): read, then cleared
          Srev sprintf "podium.orbit.%d.rev", io
          Sdell sprintf "podium.orbit.%d.dell", io
          Sdelr sprintf "podium.orbit.%d.delr", io
          Slesl sprintf "podium.orbit.%d.lesl", io
          Slesr sprintf "podium.orbit.%d.lesr", io
          arev chnget Srev
          adl chnget Sdell
          adr chnget Sdelr
          alesl chnget Slesl                   ; dry sound of notes routed to the leslie
          alesr chnget Slesr
          azero init 0
          chnset azero, Srev
          chnset azero, Sdell
          chnset azero, Sdelr
          chnset azero, Slesl
          chnset azero, Slesr
          ; the first k-cycle (may begin mid-block) only drops what piled up while no
          ; podium_orbits ran: no audio work in it
          kfirst, kramp, kloud, kwas, kwakes, kdts, kt, kt0, kleson init 1, 0, -1e9, 0, 0, 0, 0, 0, 0
          kskip = kfirst
          kfirst = 0
          aramp init 0                   ; 0, 1, .. ksmps - 1 (made in the first k-cycle)
          if kramp == 0 then
            while kramp < ksmps do
              vaset kramp, kramp, aramp
              kramp += 1
            od
          endif
          ; pause when idle: no sends expected and output silent for giPodiumIdleTime
          know times
          kuntil table 8 * io + 3, giPodiumOrbitState
          ; kwakes: times the effects woke (the reverb clears on a change); kt: samples
          ; written to the delay rings (while running); kt0: kt when the effects last
          ; woke, older samples are stale; kloud: when the output was last audible
          iTl = table:i(64 * io, giPodiumFxParm)        ; the delay rings
          iTr = table:i(64 * io + 32, giPodiumFxParm)
          iR = ftlen(iTl)
          iOutl = table:i(64 * io + 31, giPodiumFxParm)  ; its output pair
          iOutr = table:i(64 * io + 63, giPodiumFxParm)
          if know < kuntil || know < kloud + giPodiumIdleTime then
            kdt table 8 * io + 1, giPodiumOrbitState
            kdt limit kdt, (ksmps + 2) / sr, giPodiumMaxDelay  ; >= 1 block (feedback)
            if kwas == 0 then                             ; waking up: jump to the new time
              kdts = kdt
              kt0 = kt
              kwas = 1
              kwakes += 1
            else                                          ; running: glide (~50 ms)
              kdts += (kdt - kdts) * (1 - exp(-1 / (0.05 * kr)))
            endif
            ksize table 8 * io, giPodiumOrbitState
            ksize limit ksize, 0, 1
            ksize portk ksize, 0.002
            kdepth = 0.01 * (98 ^ ksize)                  ; size.linexp(0, 1, 0.01, 0.98)
            if kskip == 1 kgoto podium_orbit_fx_quiet
            arvl, arvr podium_reverb arev, kdepth, 64 * io, kwakes
            kfb table 8 * io + 2, giPodiumOrbitState
            kfb limit kfb, 0, 0.9                         ; SwitchDelay clamps to 0..0.9
            ; delay: two rings of iR samples; sample n of this block is read at ring
            ; position kpos + n, with deltap3's (Lagrange) cubic interpolation
            kds = kdts * sr                               ; delay in samples, >= ksmps + 2
            kP = kt % iR                                  ; ring position written next
            kpos wrap kP - kds, 0, iR
            ; the block reads ksmps + 3 samples from kz on, written kdist samples ago;
            ; those written before the effects woke (kc) are cleared first: silence
            kz wrap floor(kpos) - 1, 0, iR
            kdist wrap kP - kz, 0, iR
            kc = kt0 - kt + kdist
            if kc > 0 then
              kc limit kc, 0, ksmps + 4
              vcopy iTl, iTl, kc, kz, -1e9
              vcopy iTl, iTl, kc + kz - iR, 0, -1e9       ; (the part after the wrap)
              vcopy iTr, iTr, kc, kz, -1e9
              vcopy iTr, iTr, kc + kz - iR, 0, -1e9
            endif
            aix = kpos + aramp
            atl tablexkt aix, iTl, 0, 4, 0, 0, 1
            atr tablexkt aix, iTr, 0, 4, 0, 0, 1
            aiw = kP + aramp                              ; (a block never wraps: iR is whole blocks)
            tablew adl + atl * kfb, aiw, iTl
            tablew adr + atr * kfb, aiw, iTr
            kt += ksmps
            ; the leslie, while engaged; else the sound routed to it passes unchanged
            kleu table 8 * io + 7, giPodiumOrbitState
            if know < kleu then
              kwoke = 1 - kleson
              kleson = 1
              alsl, alsr podium_leslie alesl, alesr, io, kwoke
            else
              kleson = 0
              alsl = alesl
              alsr = alesr
            endif
            aoutl = arvl + atl + alsl                     ; the orbit's output
            aoutr = arvr + atr + alsr
            if giPodiumDelayDry == 0 goto podium_orbit_fx_wet
              aoutl = aoutl + adl * giPodiumDelayDry
              aoutr = aoutr + adr * giPodiumDelayDry
        podium_orbit_fx_wet:
            kpk max_k abs(aoutl) + abs(aoutr), 1, 1
            if kpk > 1e-5 * 0dbfs then
              kloud = know
            endif
            ; add to its output pair (podium_orbits plays them: one outch there, not
            ; one here, 16 KB each)
            ao table aramp, iOutl
            tablew ao + aoutl, aramp, iOutl
            ao table aramp, iOutr
            tablew ao + aoutr, aramp, iOutr
            gkPodiumOutNow = 1
        podium_orbit_fx_quiet:
          else
            kwas = 0
          endif
          if io + 1 < icount then
            podium_orbit_fx io + 1, icount
          endif
        endop

        /* ------------------------------------------------------------------------
           Effect buffers: function tables made here, when the part is compiled (not
           in podium_orbits' init pass, which runs in the audio callback), filled with
           zeros (GEN 7: their pages are resident before the callback starts, no page
           faults there). Per orbit and channel: the delay ring (giPodiumMaxDelay, a whole
           number of blocks) and the reverb's 7 lines (each the power of two at or
           above its length); their numbers and constants go to giPodiumFxParm.
           The orbits' send channels are made here too.
           ------------------------------------------------------------------------ */
        iPodiumRing = ceil((giPodiumMaxDelay * sr + 4) / ksmps) * ksmps ; longest delay + interpolation
        iPodiumShort = 1e9                            ; shortest reverb line
        iPodiumLes = ceil((sr + ksmps + 4) / ksmps) * ksmps ; the leslie's ring: 1 s + a block + interpolation
        iPodiumO = 0
        podium_tables_channel:                        ; one channel (L, R, L, R, ..) a pass
          iPodiumT ftgen 0, 0, -iPodiumRing, -7, 0, iPodiumRing, 0  ; (zeros written: pages resident)
          iPodiumB = 32 * iPodiumO                    ; its place in giPodiumFxParm
          tableiw iPodiumT, iPodiumB, giPodiumFxParm
          iPodiumSeed = 10 * iPodiumO                 ; orbit io, channel c: 20 io + 10 c
          iPodiumJ = 0
        podium_tables_line:
            ; SuperDirt's Rand values as fixed pseudo random numbers 0..1 (hash of seed + k)
            iPodiumH = 1 + iPodiumJ                   ; k: 1..4 input allpasses, 6 delay, 7, 8 loop allpasses
            iPodiumH = (iPodiumJ == 4 ? 6 : (iPodiumJ == 5 ? 7 : (iPodiumJ == 6 ? 8 : iPodiumH)))
            iPodiumH = frac(abs(sin((iPodiumSeed + iPodiumH) * 12.9898 + 78.233) * 43758.5453))
            ; lengths in samples as alpass (rounded) and deltapn (truncated) made them
            iPodiumLpt = (iPodiumJ < 4 ? 0.005 + 0.015 * iPodiumH : (iPodiumJ == 5 ? 0.03 + 0.12 * iPodiumH : 0.01 + 0.04 * iPodiumH))
            iPodiumDel = (iPodiumO % 2 == 0 ? 0.19 : 0.26) + 0.006 * iPodiumH - 0.003 + 64 / sr
            iPodiumN = (iPodiumJ == 4 ? int(iPodiumDel * sr) : round(iPodiumLpt * sr))
            iPodiumS = 2 ^ ceil(log(iPodiumN) / log(2))
            iPodiumS = (iPodiumS < iPodiumN ? 2 * iPodiumS : iPodiumS)
            iPodiumT ftgen 0, 0, iPodiumS, -7, 0, iPodiumS, 0  ; (positive size: masked; zeros written)
            tableiw iPodiumT, iPodiumB + 1 + iPodiumJ, giPodiumFxParm
            tableiw iPodiumS - iPodiumN, iPodiumB + 24 + iPodiumJ, giPodiumFxParm
            ; alpass's coefficient g = 0.001 ^ (looptime / rvt), rvt 1 (input) or 2 (loop)
            iPodiumG = exp(-6.9078 * iPodiumLpt / (iPodiumJ < 4 ? 1 : 2))
            tableiw 1 - iPodiumG, iPodiumB + 8 + iPodiumJ, giPodiumFxParm
            tableiw -iPodiumG / (1 - iPodiumG), iPodiumB + 15 + iPodiumJ, giPodiumFxParm
            iPodiumM = 64 * int(iPodiumO / 2) + 23    ; (the orbit's longest line: at its left channel)
            tableiw max(table:i(iPodiumM, giPodiumFxParm), iPodiumN), iPodiumM, giPodiumFxParm
            iPodiumShort = min(iPodiumShort, iPodiumN)
            iPodiumJ += 1
            if iPodiumJ < 7 igoto podium_tables_line
          iPodiumH = frac(abs(sin((iPodiumSeed + 5) * 12.9898 + 78.233) * 43758.5453))
          tableiw 0.05 * iPodiumH, iPodiumB + 22, giPodiumFxParm  ; loop gain offset Rand(0, 0.05)
          if iPodiumO % 2 == 1 igoto podium_tables_next
            Spodium sprintf "podium.orbit.%d.rev", iPodiumO / 2   ; the orbit's sends
            chn_a Spodium, 3
            Spodium sprintf "podium.orbit.%d.dell", iPodiumO / 2
            chn_a Spodium, 3
            Spodium sprintf "podium.orbit.%d.delr", iPodiumO / 2
            chn_a Spodium, 3
            Spodium sprintf "podium.orbit.%d.lesl", iPodiumO / 2
            chn_a Spodium, 3
            Spodium sprintf "podium.orbit.%d.lesr", iPodiumO / 2
            chn_a Spodium, 3
            iPodiumT ftgen 0, 0, -iPodiumLes, -7, 0, iPodiumLes, 0  ; the leslie's rings (zeros written)
            tableiw iPodiumT, iPodiumO, giPodiumLeslieRings
            iPodiumT ftgen 0, 0, -iPodiumLes, -7, 0, iPodiumLes, 0
            tableiw iPodiumT, iPodiumO + 1, giPodiumLeslieRings
        podium_tables_next:
          ; the output tables: channel pair p's are made with orbit p's, others share them
          iPodiumP = int(iPodiumO / 2) % limit(int(nchnls / 2), 1, giPodiumOrbits)
          if iPodiumP != int(iPodiumO / 2) igoto podium_tables_shared
            iPodiumT ftgen 0, 0, -ksmps, -2, 0
            tableiw iPodiumT, iPodiumB + 31, giPodiumFxParm
            igoto podium_tables_out_done
        podium_tables_shared:
            tableiw table:i(64 * iPodiumP + 32 * (iPodiumO % 2) + 31, giPodiumFxParm), iPodiumB + 31, giPodiumFxParm
        podium_tables_out_done:
          iPodiumO += 1
          if iPodiumO < 2 * giPodiumOrbits igoto podium_tables_channel
        ; (low sr or large ksmps) the largest divisor of ksmps that no line is shorter than
        iPodiumK = min(ksmps, iPodiumShort)
        podium_tables_ksmps:
          iPodiumK -= (ksmps % iPodiumK == 0 ? 0 : 1)
          if ksmps % iPodiumK != 0 igoto podium_tables_ksmps
        giPodiumRevKsmps = (iPodiumK == ksmps ? 0 : iPodiumK)

        """#
}
