<CsoundSynthesizer>
<CsOptions>
</CsOptions>
<CsInstruments>
; Random opcodes: Csound's default seeds are fixed, so two renders agree.
sr = 44100
ksmps = 16
nchnls = 1
0dbfs = 1

instr 1
  knote randomh 48, 72, 8
  asig vco2 0.2, cpsmidinn(int(knote))
  anoise rand 0.05
  afilt moogladder asig + anoise, 800 + jspline:k(600, 1, 4), 0.4
  out afilt
endin
</CsInstruments>
<CsScore>
i1 0 2
i1 1 1.5
</CsScore>
</CsoundSynthesizer>
