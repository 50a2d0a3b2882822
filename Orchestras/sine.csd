<CsoundSynthesizer>
<CsOptions>
</CsOptions>
<CsInstruments>
; A 440 Hz sine for ten seconds: the classic first .csd.
sr = 48000
ksmps = 64
nchnls = 2
0dbfs = 1

;           name    mode type default min max   x    y  width height attributes
; x, y, width and height place the channel's control on Podium's stage page (a canvas that
; scales to the screen); the attributes name its label and widget.
chn_k "amp",  1, 2, 0.3, 0, 1,       0,   0,  90, 280, "label=level"
chn_k "freq", 1, 3, 440, 20, 20000,  110, 60, 200, 220, "label=pitch widget=knob"
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
