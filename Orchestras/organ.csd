<CsoundSynthesizer>
<CsOptions>
</CsOptions>
<CsInstruments>
; organ — a tonewheel organ in the spirit of iHammond.
; Nine drawbars (channels drawbar1 … drawbar9: 16' 5 1/3' 8' 4' 2 2/3' 2' 1 3/5' 1 1/3' 1',
; 0 … 8 as on the instrument), percussion (perc on/off, percharmonic 2 or 3, perclevel,
; percfast), vibrato/chorus (vibrato depth, chorus mix), drive, and a rotary speaker (rotary
; on/off, rotaryfast: the slow/fast switch, with the rotors' ramp).
; Held notes use fractional instrument numbers so chords hold and release per key:
;   i1.060 0 -1 60   starts middle C;   i-1.060 0 0   releases it.
; A MIDI keyboard plays instr 1 too (massign).
sr = 48000
ksmps = 64
nchnls = 2
0dbfs = 1

chn_k "drawbar1", 1, 2, 8, 0, 8
chn_k "drawbar2", 1, 2, 8, 0, 8
chn_k "drawbar3", 1, 2, 8, 0, 8
chn_k "drawbar4", 1, 2, 0, 0, 8
chn_k "drawbar5", 1, 2, 0, 0, 8
chn_k "drawbar6", 1, 2, 0, 0, 8
chn_k "drawbar7", 1, 2, 0, 0, 8
chn_k "drawbar8", 1, 2, 0, 0, 8
chn_k "drawbar9", 1, 2, 0, 0, 8
chn_k "perc", 1, 2, 1, 0, 1
chn_k "percharmonic", 1, 2, 2, 2, 3
chn_k "perclevel", 1, 2, 0.5, 0, 1
chn_k "percfast", 1, 2, 1, 0, 1
chn_k "vibrato", 1, 2, 0.3, 0, 1
chn_k "chorus", 1, 2, 0.5, 0, 1
chn_k "drive", 1, 2, 0.2, 0, 1
chn_k "rotary", 1, 2, 1, 0, 1
chn_k "rotaryfast", 1, 2, 0, 0, 1
chn_k "volume", 1, 2, 0.7, 0, 1
; the drawbar registration "888000000" and the effects' starting values
chnset 8, "drawbar1"
chnset 8, "drawbar2"
chnset 8, "drawbar3"
chnset 1, "perc"
chnset 2, "percharmonic"
chnset 0.5, "perclevel"
chnset 1, "percfast"
chnset 0.3, "vibrato"
chnset 0.5, "chorus"
chnset 0.2, "drive"
chnset 1, "rotary"
chnset 0.7, "volume"

massign 0, 1
giSine ftgen 0, 0, 8192, 10, 1
gaOrgan init 0

instr 1 ; one key: nine tonewheels and the percussion
  if p4 == 0 then                  ; from a MIDI keyboard (massign): the key played
    inote notnum
  else                             ; from the score, the REPL or OSC: p4
    inote = p4
  endif
  ifreq = cpsmidinn(inote)
  ; the drawbars' pitches, in ratios of the 8' fundamental
  k1 chnget "drawbar1"
  k2 chnget "drawbar2"
  k3 chnget "drawbar3"
  k4 chnget "drawbar4"
  k5 chnget "drawbar5"
  k6 chnget "drawbar6"
  k7 chnget "drawbar7"
  k8 chnget "drawbar8"
  k9 chnget "drawbar9"
  a1 oscili k1 / 8, ifreq * 0.5, giSine
  a2 oscili k2 / 8, ifreq * 1.5, giSine
  a3 oscili k3 / 8, ifreq, giSine
  a4 oscili k4 / 8, ifreq * 2, giSine
  a5 oscili k5 / 8, ifreq * 3, giSine
  a6 oscili k6 / 8, ifreq * 4, giSine
  a7 oscili k7 / 8, ifreq * 5, giSine
  a8 oscili k8 / 8, ifreq * 6, giSine
  a9 oscili k9 / 8, ifreq * 8, giSine
  ; percussion: the 2nd or 3rd harmonic, a decaying click at each key
  iperc = chnget:i("perc")
  iharm = chnget:i("percharmonic") >= 2.5 ? 3 : 2
  idecay = chnget:i("percfast") >= 0.5 ? 0.2 : 1
  aperc oscili iperc * chnget:i("perclevel") * 0.5, ifreq * iharm, giSine
  aperc *= expseg(1, idecay, 0.001, 1, 0.001)
  aenv linsegr 0, 0.005, 1, 0.01, 0
  gaOrgan += (a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + aperc) * aenv * 0.06
endin

instr 90 ; vibrato/chorus, drive, rotary speaker: always on
  ain = gaOrgan
  clear gaOrgan
  ; vibrato/chorus: a modulated delay, mixed with the dry signal for chorus
  kvib chnget "vibrato"
  kcho chnget "chorus"
  amod oscili 0.0005 + kvib * 0.0015, 6.9, giSine
  avib vdelay3 ain, (0.002 + amod) * 1000, 10
  avc = avib * (1 - kcho * 0.5) + ain * kcho * 0.5
  ; drive: a soft clipper
  kdrive chnget "drive"
  adrv = tanh(avc * (1 + kdrive * 8)) / (1 + kdrive * 2)
  ; rotary speaker: horn (treble) and drum (bass) rotating; speeds ramp like the real motors
  kon chnget "rotary"
  kfast chnget "rotaryfast"
  khorn portk 0.8 + kfast * 5.9, 0.8
  kdrum portk 0.7 + kfast * 5.0, 2.5
  alo butterlp adrv, 800
  ahi = adrv - alo
  ahornL oscili 1, khorn, giSine
  ahornR oscili 1, khorn, giSine, 0.25
  adrumL oscili 1, kdrum, giSine
  adrumR oscili 1, kdrum, giSine, 0.25
  ahL vdelay3 ahi, (1 + ahornL * 0.35) * 1000 / 1000, 10
  ahR vdelay3 ahi, (1 + ahornR * 0.35) * 1000 / 1000, 10
  arotL = ahL * (1 + 0.4 * ahornL) + alo * (1 + 0.2 * adrumL)
  arotR = ahR * (1 + 0.4 * ahornR) + alo * (1 + 0.2 * adrumR)
  kvol port chnget:k("volume"), 0.02
  aL = (kon * arotL + (1 - kon) * adrv) * kvol
  aR = (kon * arotR + (1 - kon) * adrv) * kvol
  outs aL, aR
endin
</CsInstruments>
<CsScore>
i90 0 13
; a C major seventh held, then released key by key
i1.060 0 -1 60
i1.064 0.5 -1 64
i1.067 1 -1 67
i1.071 1.5 -1 71
i-1.071 5 0
i-1.067 5.5 0
i-1.064 6 0
i-1.060 6.5 0
; a run with fast rotors
i1 7 0.3 62
i1 7.3 0.3 65
i1 7.6 0.3 69
i1 7.9 2 72
</CsScore>
</CsoundSynthesizer>
