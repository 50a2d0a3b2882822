<CsoundSynthesizer>
<CsOptions>
</CsOptions>
<CsInstruments>
; synth — Synthia-style: a polyphonic synth whose timbre crosses from square (timbre 0) through
; triangle (0.5) to sine (1), a 16-step drum machine, and an effects chain
; delay → reverb → low-pass EQ → distortion, each with a wet/dry mix or a bypass switch.
; The voice's oscillators are mixed by a pie (synth.oscmap.yaml: /synth/pie; the stage page's
; "mix" panel): the timbre-shaped oscillator, a saw and a square an octave down ("osc_shape",
; "osc_saw", "osc_sub", adding up to 1; all shape by default).
; The drum steps are timed inside Csound to the sample: each step's exact time is computed,
; and its drum is scheduled with the offset inside the k-cycle (podium runs Csound with
; --sample-accurate), not by a host timer.
;   synth notes:  i1 START DUR HZ [AMP]        drums: channel "drums" 0/1, on podium's beat clock
;   (:tempo BPM); elsewhere (the csound CLI, podium render) their own "tempo" channel in BPM,
;   patterns: channels kick_N, snare_N, hat_N (N = 1…16), 0/1
sr = 48000
ksmps = 64
nchnls = 2
0dbfs = 1

chn_k "timbre", 1, 2, 0.5, 0, 1
chn_k "cutoff", 1, 2, 6000, 100, 16000
chn_k "tempo", 1, 2, 112, 40, 240
chn_k "drums", 1, 2, 1, 0, 1
chn_k "delaymix", 1, 2, 0.25, 0, 1
chn_k "delaytime", 1, 2, 0.375, 0.01, 2
chn_k "delayfeedback", 1, 2, 0.4, 0, 0.95
chn_k "reverbmix", 1, 2, 0.2, 0, 1
chn_k "eqcutoff", 1, 2, 12000, 200, 20000
chn_k "eqbypass", 1, 2, 0, 0, 1
chn_k "distortion", 1, 2, 0.1, 0, 1
chn_k "distbypass", 1, 2, 0, 0, 1
chn_k "volume", 1, 2, 0.7, 0, 1
chn_k "osc_shape", 1, 2, 1, 0, 1
chn_k "osc_saw", 1, 2, 0, 0, 1
chn_k "osc_sub", 1, 2, 0, 0, 1
chnset 0.5, "timbre"
chnset 6000, "cutoff"
chnset 112, "tempo"
chnset 1, "drums"
chnset 0.25, "delaymix"
chnset 0.375, "delaytime"
chnset 0.4, "delayfeedback"
chnset 0.2, "reverbmix"
chnset 12000, "eqcutoff"
chnset 0.1, "distortion"
chnset 0.7, "volume"
chnset 1, "osc_shape"

; the default patterns: four on the floor, backbeat, eighth hats
giStep = 1
while giStep <= 16 do
  chn_k sprintf("kick_%d", giStep), 1, 1, 0, 0, 1
  chn_k sprintf("snare_%d", giStep), 1, 1, 0, 0, 1
  chn_k sprintf("hat_%d", giStep), 1, 1, 0, 0, 1
  chnset (giStep - 1) % 4 == 0 ? 1 : 0, sprintf("kick_%d", giStep)
  chnset (giStep == 5 || giStep == 13) ? 1 : 0, sprintf("snare_%d", giStep)
  chnset (giStep - 1) % 2 == 0 ? 1 : 0, sprintf("hat_%d", giStep)
  giStep += 1
od

gaBus init 0

instr 1 ; a synth voice: square → triangle → sine by "timbre", mixed with a saw and a sub
  iamp = p5 > 0 ? p5 : 0.3
  ktimbre port chnget:k("timbre"), 0.02
  asq vco2 1, p4, 10                      ; square
  atri vco2 1, p4, 12                     ; triangle
  asin oscili 1, p4
  kwsq = limit(1 - 2 * ktimbre, 0, 1)
  kwtri = 1 - abs(2 * ktimbre - 1)
  kwsin = limit(2 * ktimbre - 1, 0, 1)
  ; the oscillator mix (the pie), glided from the note's first value
  kshape port chnget:k("osc_shape"), 0.02, chnget:i("osc_shape")
  ksaw port chnget:k("osc_saw"), 0.02, chnget:i("osc_saw")
  ksub port chnget:k("osc_sub"), 0.02, chnget:i("osc_sub")
  asaw vco2 1, p4                         ; saw
  asub vco2 1, p4 / 2, 10                 ; square, an octave down
  amix = (asq * kwsq * 0.5 + atri * kwtri + asin * kwsin) * kshape + (asaw * ksaw + asub * ksub) * 0.5
  af moogladder amix, port(chnget:k("cutoff"), 0.02), 0.2
  aenv madsr 0.01, 0.15, 0.7, 0.3
  gaBus += af * aenv * iamp
endin

; An event koffset seconds into this k-cycle, placed where Csound will start it on that frame:
; Csound starts an event in the k-cycle *nearest* its time (llrint: half rounds to even), at
; (time mod ksmps) inside it, so an offset in the second half of this k-cycle would sound one
; k-cycle late (every other bar, when bars fall mid-cycle). Asked for a k-cycle earlier, it
; starts in this one at the same offset. Whole frames (the frame it falls in; a late step now),
; and a quarter sample that keeps it off the tie without crossing into the next frame.
opcode OnFrame, k, k
  koffset xin
  kframes = max(0, floor(koffset * sr))
  kframes = kframes >= ksmps / 2 ? kframes - ksmps : kframes
  xout (kframes + 0.25) / sr
endop

instr 10 ; the drum clock: steps at exact sample times
  kstep init 0
  knext init 0                            ; the next step's time, in samples from the start
  klast init -1                           ; the last step played on podium's clock
  know = timeinsts() * sr                 ; this k-cycle's first sample
  kbpm = chnget:k("podium.tempo")         ; podium's beat clock (0 elsewhere: csound, podium render)
  if kbpm > 0 then
    ; In podium the steps are sixteenths of its beats (step N on beat N/4, bars aligned), so
    ; :tempo, loops and other players stay in time with the drums.
    kbeat = chnget:k("podium.beat")       ; the beat at this k-cycle's first sample
    kstepLen = sr * 60 / kbpm / 4
    kn = max(ceil(kbeat * 4 - 1e-6), klast + 1)
    knext = know + (kn / 4 - kbeat) * 60 / kbpm * sr
    kstep = kn % 16
  else
    kstepLen = sr * 60 / chnget:k("tempo") / 4
  endif
  while knext < know + ksmps do
    if chnget:k("drums") >= 0.5 then
      koffset = (knext - know) / sr       ; inside this k-cycle (0 ≤ offset < ksmps/sr)
      if chnget:k(sprintfk("kick_%d", kstep + 1)) >= 0.5 then
        event "i", 20, OnFrame(koffset), 0.4
      endif
      if chnget:k(sprintfk("snare_%d", kstep + 1)) >= 0.5 then
        event "i", 21, OnFrame(koffset), 0.25
      endif
      if chnget:k(sprintfk("hat_%d", kstep + 1)) >= 0.5 then
        event "i", 22, OnFrame(koffset), 0.06
      endif
    endif
    kstep = (kstep + 1) % 16
    knext += kstepLen
    klast = kbpm > 0 ? kn : klast
    kn += 1
  od
endin

instr 20 ; kick: a falling sine
  afreq expseg 160, 0.08, 50, p3 - 0.08, 40
  aenv expseg 1, p3, 0.001
  a1 oscili 0.8 * aenv, afreq
  gaBus += a1
endin

instr 21 ; snare: noise and a tone
  aenv expseg 1, p3, 0.001
  an noise 0.5, 0
  at oscili 0.3, 190
  ab butterbp an, 2500, 2000
  gaBus += (ab + at) * aenv * 0.6
endin

instr 22 ; hat: high-passed noise
  aenv expseg 1, p3, 0.001
  an noise 0.4, 0
  ah buthp an, 7000
  gaBus += ah * aenv * 0.5
endin

instr 99 ; effects: delay → reverb → low-pass EQ → distortion
  ain = gaBus
  clear gaBus
  ; delay, wet/dry
  kdt port chnget:k("delaytime"), 0.1
  adel init 0
  adel vdelay3 ain + adel * chnget:k("delayfeedback"), a(kdt) * 1000, 2100
  kdm = chnget:k("delaymix")
  a1 = ain * (1 - kdm) + adel * kdm
  ; reverb, wet/dry
  arl, arr reverbsc a1, a1, 0.8, 10000
  krm = chnget:k("reverbmix")
  aL = a1 * (1 - krm) + arl * krm
  aR = a1 * (1 - krm) + arr * krm
  ; low-pass EQ, or bypassed
  keq port chnget:k("eqcutoff"), 0.02
  kbyp = chnget:k("eqbypass")
  aL = kbyp >= 0.5 ? aL : butterlp(aL, keq)
  aR = kbyp >= 0.5 ? aR : butterlp(aR, keq)
  ; distortion (soft clip), or bypassed
  kd = chnget:k("distortion")
  kdb = chnget:k("distbypass")
  aLd = tanh(aL * (1 + kd * 10)) / (1 + kd * 3)
  aRd = tanh(aR * (1 + kd * 10)) / (1 + kd * 3)
  kvol = port(chnget:k("volume"), 0.02)
  outs (kdb >= 0.5 ? aL : aLd) * kvol, (kdb >= 0.5 ? aR : aRd) * kvol
endin
</CsInstruments>
<CsScore>
i10 0 30
i99 0 32
; a little progression
i1 0 1.9 220 0.25
i1 0 1.9 277.18 0.2
i1 0 1.9 329.63 0.2
i1 2 1.9 196 0.25
i1 2 1.9 246.94 0.2
i1 2 1.9 293.66 0.2
i1 4 3.5 174.61 0.25
i1 4 3.5 220 0.2
i1 4 3.5 261.63 0.2
</CsScore>
</CsoundSynthesizer>
