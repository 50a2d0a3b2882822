<CsoundSynthesizer>
<CsInstruments>
; The fuzz bench's target: a held sine at the "freq" channel, a short note instrument and the
; channels the fuzzer's nearly valid messages name. sr and ksmps come from JACK.
nchnls = 2
0dbfs = 1
chn_k "freq", 1, 2, 440, 1, 20000
chn_k "level", 1
chn_k "button", 1
chn_k "fader1", 1
chn_S "label", 1

instr 1 ; the held tone: 0.5 at "freq"
  a1 oscili 0.5, chnget:k("freq")
  outs a1, a1
endin

instr 2 ; a short step of p4 on output 2 (notes from the fuzz and the control)
  a1 linseg p4, p3, p4
  outs a(0), a1
endin

instr beep
  a1 oscili p4, 880
  outs a1, a1
endin
</CsInstruments>
<CsScore>
i1 0 36000
</CsScore>
</CsoundSynthesizer>
