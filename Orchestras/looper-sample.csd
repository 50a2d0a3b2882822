<CsoundSynthesizer>
<CsOptions>
-o looper-sample.wav --format=short -r 44100
</CsOptions>
<CsInstruments>
; Makes looper-sample.wav (run from Orchestras/: csound looper-sample.csd): a two-second,
; one-bar drum-and-bass phrase at 44.1 kHz, so that playing it at JACK's 48 kHz needs resampling.
sr = 44100
ksmps = 32
nchnls = 1
0dbfs = 1
seed 7
instr 1 ; kick
  afreq expseg 150, 0.07, 48, p3 - 0.07, 40
  a1 oscili expseg(0.9, p3, 0.001), afreq
  out a1
endin
instr 2 ; snare
  an noise 0.4, 0
  out butterbp(an, 2200, 1800) * expseg(1, p3, 0.001)
endin
instr 3 ; bass
  a1 vco2 0.3, cpsmidinn(p4), 10
  out moogladder(a1, 900, 0.3) * linseg(0, 0.01, 1, p3 - 0.06, 1, 0.05, 0)
endin
</CsInstruments>
<CsScore>
i1 0 0.4
i1 1 0.4
i2 0.5 0.2
i2 1.5 0.2
i3 0 0.24 40
i3 0.25 0.24 40
i3 0.75 0.24 43
i3 1.25 0.24 45
i3 1.5 0.24 43
i1 1.75 0.24
e 2
</CsScore>
</CsoundSynthesizer>
