; A brighter voice for Synthia, hot-swapped in the middle of synth.script's demo
; (`:load synth-lead.orc`): two detuned squares an octave apart and a resonant filter that
; follows "timbre", on the same bus. Notes already sounding finish with the old voice.
instr 1
  iamp = p5 > 0 ? p5 : 0.3
  ktimbre port chnget:k("timbre"), 0.02
  a1 vco2 0.5, p4 * 1.004, 10
  a2 vco2 0.5, p4 * 0.996, 10
  a3 vco2 0.35, p4 * 2, 10
  af moogladder a1 + a2 + a3 * ktimbre, port(chnget:k("cutoff"), 0.02) * (0.5 + ktimbre), 0.45
  aenv madsr 0.005, 0.1, 0.6, 0.25
  gaBus += af * aenv * iamp * 0.8
endin
