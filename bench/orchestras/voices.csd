<CsoundSynthesizer>
<CsInstruments>
; A heavy render for timing: 16 vco2 + moogladder + madsr voices for 20 seconds.
sr = 48000
ksmps = 64
nchnls = 2
0dbfs = 1

instr 1
  kenv madsr 0.05, 0.2, 0.6, 0.5
  a1 vco2 0.02 * kenv, p4
  a2 moogladder a1, 600 + 2400 * kenv, 0.5
  outs a2, a2
endin

instr 100 ; spawns the voices
  icount = 0
  while icount < 16 do
    schedule 1, icount * 0.01, 19.5, 55 * 2 ^ (icount / 5)
    icount += 1
  od
endin
</CsInstruments>
<CsScore>
i100 0 0.1
f0 20
</CsScore>
</CsoundSynthesizer>
