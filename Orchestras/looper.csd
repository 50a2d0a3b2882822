<CsoundSynthesizer>
<CsOptions>
</CsOptions>
<CsInstruments>
; looper — an audio file loaded into memory once and looped (the Core Audio player's job).
; looper-sample.wav is 44.1 kHz: it is resampled (cubic interpolation) to the engine's rate.
; Channels: play (1 plays, 0 stops), speed (1 = original pitch and tempo; negative: backwards),
; loopstart and loopend (fractions of the file), level.
sr = 48000
ksmps = 64
nchnls = 2
0dbfs = 1

chn_k "play", 1, 2, 1, 0, 1
chn_k "speed", 1, 2, 1, -4, 4
chn_k "loopstart", 1, 2, 0, 0, 1
chn_k "loopend", 1, 2, 1, 0, 1
chn_k "level", 1, 2, 0.8, 0, 1
chnset 1, "play"
chnset 1, "speed"
chnset 0, "loopstart"
chnset 1, "loopend"
chnset 0.8, "level"

; loaded once (GEN01, size from the file), found beside this orchestra
giLoop ftgen 0, 0, 0, 1, "looper-sample.wav", 0, 0, 1
giLength = nsamp(giLoop)
giRatio = ftsr(giLoop) / sr      ; file samples per output sample at speed 1

instr 1 ; the player (held while the performance runs)
  kplay port chnget:k("play"), 0.01
  kspeed port chnget:k("speed"), 0.05
  kstart = limit(chnget:k("loopstart"), 0, 0.999) * giLength
  kend = limit(chnget:k("loopend"), 0, 1) * giLength
  kend = kend > kstart + 64 ? kend : kstart + 64
  ; the read position, in file samples, wrapped into [start, end)
  apos init 0
  aout init 0
  kpos init 0
  kn = 0
  while kn < ksmps do
    kpos += kspeed * giRatio
    if kpos >= kend then
      kpos = kstart + (kpos - kend)
    elseif kpos < kstart then
      kpos = kend - (kstart - kpos)
    endif
    apos[kn] = kpos
    kn += 1
  od
  aout table3 apos, giLoop
  aout *= kplay * port(chnget:k("level"), 0.02)
  outs aout, aout
endin
</CsInstruments>
<CsScore>
i1 0 8
</CsScore>
</CsoundSynthesizer>
