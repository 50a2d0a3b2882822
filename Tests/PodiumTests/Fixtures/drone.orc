; An orchestra file without a score section (used with drone.sco).
sr = 48000
ksmps = 64
nchnls = 2
0dbfs = 1

instr 1
  a1 vco2 p4, p5, 2, 0.3
  a2 butterlp a1, 2000
  outs a2, a2
endin
