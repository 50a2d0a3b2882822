<CsoundSynthesizer>
<CsOptions>
</CsOptions>
<CsInstruments>
; A short progression of plucked chords through a reverb: an example with a score.
sr = 48000
ksmps = 32
nchnls = 2
0dbfs = 1

gaL init 0
gaR init 0

instr pluck
  icps = cpsmidinn(p4)
  iamp = p5
  asig pluck iamp, icps, icps, 0, 1
  aenv madsr 0.005, 0.3, 0.4, 0.6
  asig = asig * aenv
  ipan = p6
  aL, aR pan2 asig, ipan
  outs aL * 0.7, aR * 0.7
  gaL += aL * 0.3
  gaR += aR * 0.3
endin

instr reverb
  aL, aR reverbsc gaL, gaR, 0.85, 12000
  outs aL, aR
  clear gaL, gaR
endin
</CsInstruments>
<CsScore>
i "reverb" 0 9
; C major 7, A minor 7, F major 7, G 7
i "pluck" 0 1.8 60 0.3 0.2
i . 0.02 . 64 . 0.4
i . 0.04 . 67 . 0.6
i . 0.06 . 71 . 0.8
i "pluck" 2 1.8 57 0.3 0.2
i . 2.02 . 60 . 0.4
i . 2.04 . 64 . 0.6
i . 2.06 . 67 . 0.8
i "pluck" 4 1.8 53 0.3 0.2
i . 4.02 . 57 . 0.4
i . 4.04 . 60 . 0.6
i . 4.06 . 64 . 0.8
i "pluck" 6 2.5 55 0.3 0.2
i . 6.02 . 59 . 0.4
i . 6.04 . 62 . 0.6
i . 6.06 . 65 . 0.8
e
</CsScore>
</CsoundSynthesizer>
