<CsoundSynthesizer>
<CsOptions>
</CsOptions>
<CsInstruments>
; The tutorial's orchestra: a few named instruments that patterns, score lines and loops play,
; and one effect bus (a reverb). Each instr line declares its p-fields for patterns:
; `; podium: freq amp cutoff` means p4 is freq, p5 amp, p6 cutoff.
sr = 48000
ksmps = 64
nchnls = 2
0dbfs = 1

chn_k "cutoff", 1, 2, 2000, 100, 12000
chn_k "reverb", 1, 2, 0.25, 0, 1
chn_k "volume", 1, 2, 0.8, 0, 1
chnset 2000, "cutoff"
chnset 0.25, "reverb"
chnset 0.8, "volume"

gaVerb init 0

instr beep ; podium: freq amp
  ; a sine with a short bell envelope: the first sound
  iamp = p5 > 0 ? p5 : 0.3
  aenv expsegr 1, p3, 0.001, 0.1, 0.001
  asig oscili iamp * aenv, p4
  outs asig, asig
  gaVerb += asig * 0.3
endin

instr bass ; podium: freq amp cutoff
  ; a saw through a resonant low-pass; cutoff from the pattern, else the "cutoff" channel
  iamp = p5 > 0 ? p5 : 0.3
  kcut = p6 > 0 ? p6 : port(chnget:k("cutoff"), 0.02)
  asig vco2 iamp, p4
  asig moogladder asig, kcut, 0.4
  aenv madsr 0.005, 0.1, 0.7, 0.08
  asig = asig * aenv
  outs asig, asig
  gaVerb += asig * 0.1
endin

instr pluck ; podium: freq amp
  ; a plucked string: melodies and chords
  iamp = p5 > 0 ? p5 : 0.3
  asig pluck iamp, p4, p4, 0, 1
  aenv linsegr 1, p3, 1, 0.2, 0
  asig = asig * aenv
  outs asig, asig
  gaVerb += asig * 0.4
endin

instr kick ; podium: amp
  ; a sine that falls from 160 to 45 Hz
  iamp = p4 > 0 ? p4 : 0.8
  kf expseg 160, 0.12, 45, 0.2, 40
  aenv expseg 1, 0.3, 0.001
  asig oscili iamp * aenv, kf
  outs asig, asig
endin

instr hat ; podium: amp
  ; filtered noise, short
  iamp = p4 > 0 ? p4 : 0.3
  aenv expseg 1, 0.05, 0.001
  asig rand iamp
  asig buthp asig, 7000
  asig = asig * aenv
  outs asig, asig
endin

instr verb
  ; the effect bus: everything sends into gaVerb, this reverb adds it back
  kmix port chnget:k("reverb"), 0.02
  al, ar reverbsc gaVerb, gaVerb, 0.85, 8000
  kvol port chnget:k("volume"), 0.02
  outs al * kmix * kvol, ar * kmix * kvol
  clear gaVerb
endin

</CsInstruments>
<CsScore>
i "verb" 0 3600   ; the reverb bus, for an hour
</CsScore>
</CsoundSynthesizer>
