<CsoundSynthesizer>
<CsOptions>
</CsOptions>
<CsInstruments>
; motion — a synth steered by the device's motion (CsoundMotion's channel names).
; Tilt left/right (accelerometerX, attitudeRoll) bends the pitch over two octaves; tilt
; forward/back (accelerometerY) opens a moogladder; face up/down (accelerometerZ) sets its
; resonance; turning (gyro) and pitching the device (attitudePitch) send it into reverbsc.
; TouchOSC sends /accxyz: see motion.oscmap.yaml.
sr = 48000
ksmps = 64
nchnls = 2
0dbfs = 1

chn_k "accelerometerX", 1, 2, 0, -1, 1
chn_k "accelerometerY", 1, 2, 0, -1, 1
chn_k "accelerometerZ", 1, 2, -1, -1, 1
chn_k "gyroX", 1, 2, 0, -10, 10
chn_k "gyroY", 1, 2, 0, -10, 10
chn_k "gyroZ", 1, 2, 0, -10, 10
chn_k "attitudeRoll", 1, 2, 0, -3.1416, 3.1416
chn_k "attitudePitch", 1, 2, 0, -3.1416, 3.1416
chn_k "attitudeYaw", 1, 2, 0, -3.1416, 3.1416
chn_k "level", 1, 2, 0.5, 0, 1
chnset -1, "accelerometerZ"
chnset 0.5, "level"

gaL init 0
gaR init 0

instr 1 ; the motion synth (held while the performance runs)
  kx = chnget:k("accelerometerX")
  ky = chnget:k("accelerometerY")
  kz = chnget:k("accelerometerZ")
  kgx = chnget:k("gyroX")
  kgy = chnget:k("gyroY")
  kgz = chnget:k("gyroZ")
  kroll = chnget:k("attitudeRoll")
  kpitch = chnget:k("attitudePitch")
  knote = limit(57 + 12 * (kx + kroll / 3.1416), 24, 96)
  kfreq = port(cpsmidinn(knote), 0.05)
  kcut = limit(200 * 2 ^ (2.5 * (ky + 1) + abs(kgy) * 0.1), 60, 12000)
  kcut = port(kcut, 0.05)
  kres = port(limit(0.1 + 0.4 * (kz + 1), 0, 0.9), 0.05)
  ksend = port(limit(0.15 + abs(kpitch) / 3.1416 + (abs(kgx) + abs(kgz)) * 0.02, 0, 1), 0.05)
  klevel = port(chnget:k("level"), 0.02)
  asaw vco2 0.3, kfreq
  apulse vco2 0.2, kfreq * 1.003, 2, 0.3
  af moogladder asaw + apulse, kcut, kres
  af *= klevel * linsegr(0, 0.05, 1, 0.3, 0)
  outs af * (1 - ksend * 0.5), af * (1 - ksend * 0.5)
  gaL += af * ksend
  gaR += af * ksend
endin

instr 99 ; the reverb send
  al, ar reverbsc gaL, gaR, 0.85, 9000
  outs al, ar
  clear gaL, gaR
endin
</CsInstruments>
<CsScore>
i1 0 12
i99 0 14
</CsScore>
</CsoundSynthesizer>
