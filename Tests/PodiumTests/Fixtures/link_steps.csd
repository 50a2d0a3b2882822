<CsoundSynthesizer>
<CsInstruments>
; For the Ableton Link tests and bench/link_bench.py: onsets are read from a capture.
nchnls = 2
0dbfs = 1
instr 2 ; a step of p4 for p3 on both outputs
  a1 linseg p4, p3, p4
  outs a1, a1
endin
instr 3 ; the clock's phase as a ramp on output 2 (a replay must follow Link's re-anchorings)
  outs a(0), a(chnget:k("podium.phase")) * 0.1
endin
</CsInstruments>
<CsScore>
i3 0 3600
</CsScore>
</CsoundSynthesizer>
