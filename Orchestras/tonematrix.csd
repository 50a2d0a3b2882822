<CsoundSynthesizer>
<CsOptions>
</CsOptions>
<CsInstruments>
; tonematrix — a 16×16 step grid of sine tones on a pentatonic scale (ToneMatrix-style).
; Cells are channels cell_<row>_<col> (rows 1…16 from the highest tone down, columns 1…16 the
; steps); TouchOSC's multitoggle sets them (tonematrix.oscmap.yaml). The steps are clocked
; inside Csound, so they are exact: in podium on its beat clock (four steps a beat; :tempo BPM),
; elsewhere by metro at the "tempo" channel (BPM).
; Up to 16 tones sound at once; each is scaled so that all 16 together never clip.
sr = 48000
ksmps = 64
nchnls = 2
0dbfs = 1

chn_k "tempo", 1, 2, 120, 40, 240
chn_k "volume", 1, 2, 0.8, 0, 1
chnset 120, "tempo"
chnset 0.8, "volume"
; the grid's channels, declared so controllers and the REPL can find them
giRow = 1
while giRow <= 16 do
  giCol = 1
  while giCol <= 16 do
    chn_k sprintf("cell_%d_%d", giRow, giCol), 1, 1, 0, 0, 1
    giCol += 1
  od
  giRow += 1
od

; two octaves and a bit of A minor pentatonic, row 1 the highest
giNotes[] fillarray 93, 91, 88, 86, 84, 81, 79, 76, 74, 72, 69, 67, 64, 62, 60, 57
gkStep init 0

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

instr 1 ; the sequencer: one step per tick, a tone per lit cell
  klast init -1
  kbpm = chnget:k("podium.tempo")          ; podium's beat clock (0 elsewhere: csound, podium render)
  if kbpm > 0 then
    ; In podium: a step is a sixteenth of its beat (step N on beat N/4, bars aligned), at its
    ; exact frame inside the k-cycle, so :tempo and loops stay in time with the grid.
    kbeat = chnget:k("podium.beat")
    kn = max(ceil(kbeat * 4 - 1e-6), klast + 1)
    koffset = (kn / 4 - kbeat) * 60 / kbpm
    ktick = koffset < ksmps / sr ? 1 : 0
    ktempo = kbpm
  else
    ktempo = chnget:k("tempo")
    ktick metro ktempo * 4 / 60
    koffset = 0
  endif
  if ktick == 1 then
    if kbpm > 0 then
      klast = kn
      gkStep = kn % 16 + 1
    else
      gkStep = gkStep % 16 + 1
    endif
    krow = 1
    while krow <= 16 do
      if chnget:k(sprintfk("cell_%d_%d", krow, gkStep)) >= 0.5 then
        event "i", 2, OnFrame(koffset), 60 / ktempo / 2, giNotes[krow - 1]
      endif
      krow += 1
    od
  endif
endin

instr 2 ; a sine tone: 1/16 of full scale, so sixteen at once peak below 0 dB
  iamp = 0.95 / 16
  aenv linseg 0, 0.005, 1, p3 - 0.055, 0.6, 0.05, 0
  a1 oscili iamp * aenv * chnget:i("volume"), cpsmidinn(p4)
  outs a1, a1
endin

instr 10 ; sets a cell from the score (the demo's pattern)
  chnset p6, sprintf("cell_%d_%d", p4, p5)
  turnoff
endin
</CsInstruments>
<CsScore>
; a diagonal and a chord column, then the sequencer for eight seconds
i10 0 0.01 16 1 1
i10 0 0.01 13 3 1
i10 0 0.01 11 5 1
i10 0 0.01 8 7 1
i10 0 0.01 6 9 1
i10 0 0.01 3 11 1
i10 0 0.01 1 13 1
i10 0 0.01 16 15 1
i10 0 0.01 11 15 1
i10 0 0.01 8 15 1
i1 0 8
</CsScore>
</CsoundSynthesizer>
