<CsoundSynthesizer>
<CsInstruments>
; Push buttons for the stage page's tests (keys.oscmap.yaml): each key holds instr 1 from press
; to release (a fractional instance, as organ.csd's keys). "held" counts the instances sounding;
; "gate" is a push without a note (1 while held). Silent until a key is held.
sr = 48000
ksmps = 64
nchnls = 2
0dbfs = 1
chn_k "held", 2, 2, 0, 0, 16
chn_k "gate", 1, 2, 0, 0, 1

instr 1
  aenv linsegr 0, 0.005, 1, 0.01, 0
  a1 oscili 0.4 * aenv, cpsmidinn(p4)
  outs a1, a1
endin

instr 90 ; always on: how many keys sound
  chnset active:k(1), "held"
endin
</CsInstruments>
<CsScore>
i90 0 3600
</CsScore>
</CsoundSynthesizer>
