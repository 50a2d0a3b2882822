<CsoundSynthesizer>
<CsInstruments>
; The Link peer a Csound user would write today (bench/link_bench.py): Csound's own Ableton Link
; opcodes (Debian csound-plugins, libableton_link_opcodes.so) in the csound CLI on JACK.
; link_metro fires on the k-cycle in which the session's beat passes a whole number; each
; trigger starts a 0.1 s step of 0.5 on both outputs (onsets are read from a capture).
sr = 48000
ksmps = 16
nchnls = 2
0dbfs = 1
gi_peer link_create 120
instr 1
  link_enable gi_peer, 1
  ktrig, kbeat, kphase, ktime link_metro gi_peer, 1
  kleft init 0
  if ktrig == 1 then
    kleft = 0.1 * kr
  endif
  kout = kleft > 0 ? 0.5 : 0
  kleft = kleft - 1
  outs a(kout), a(kout)
  printks "peers %d tempo %.3f beat %.3f\n", 1, link_peers(gi_peer), link_tempo_get(gi_peer), kbeat
endin
</CsInstruments>
<CsScore>
i1 0 36000
</CsScore>
</CsoundSynthesizer>
