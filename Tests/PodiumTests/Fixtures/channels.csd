<CsoundSynthesizer>
<CsInstruments>
sr = 48000
ksmps = 64
nchnls = 1
0dbfs = 1

chn_k "gain", 1, 2, 0.5, 0, 1
chn_k "doubled", 2
chn_S "label", 1
chn_S "echo", 2
chn_k "fader", 3, 3, 100, 20, 20000

instr 1
  kgain chnget "gain"
  chnset kgain * 2, "doubled"
  Slabel chnget "label"
  chnset strcat(Slabel, "!"), "echo"
  out oscili(kgain * 0.1, 440)
endin
</CsInstruments>
<CsScore>
i1 0 600
</CsScore>
</CsoundSynthesizer>
