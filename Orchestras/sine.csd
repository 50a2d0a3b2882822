<CsoundSynthesizer>
<CsOptions>
</CsOptions>
<CsInstruments>
; A 440 Hz sine for ten seconds: the classic first .csd.
sr = 48000
ksmps = 64
nchnls = 2
0dbfs = 1

chn_k "amp", 1, 2, 0.3, 0, 1
chn_k "freq", 1, 3, 440, 20, 20000
chnset 0.3, "amp"   ; chn_k's default is a hint for hosts; set the start value here
chnset 440, "freq"

instr 1
  kamp chnget "amp"
  kfreq chnget "freq"
  kamp port kamp, 0.02
  asig oscili kamp, kfreq
  aenv linseg 0, 0.01, 1, p3 - 0.02, 1, 0.01, 0
  outs asig * aenv, asig * aenv
endin
</CsInstruments>
<CsScore>
i1 0 10
</CsScore>
</CsoundSynthesizer>
