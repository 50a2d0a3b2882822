<CsoundSynthesizer>
<CsInstruments>
; Default 0dbfs (32768), a tempo statement, carried p-fields and two sections.
sr = 22050
ksmps = 10
nchnls = 2

instr 1
  aenv expseg 1, p3, 0.001
  a1 poscil p4 * aenv, p5
  outs a1, a1 * 0.5
endin
</CsInstruments>
<CsScore>
t 0 120
i1 0 1 8000 220
i1 1 . . 330
i1 2 . . 440
s
i1 0 0.5 12000 550
e
</CsScore>
</CsoundSynthesizer>
