<CsoundSynthesizer>
<CsOptions>
</CsOptions>
<CsInstruments>
; Input 1 straight to output 1, in the same k-cycle: a loop for measuring what lies around it.
nchnls = 1
nchnls_i = 1
0dbfs = 1
instr 1
  a1 inch 1
  out a1
endin
</CsInstruments>
<CsScore>
i1 0 3600
</CsScore>
</CsoundSynthesizer>
