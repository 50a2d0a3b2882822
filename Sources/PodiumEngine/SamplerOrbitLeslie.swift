// An orbit's leslie (Csound): SuperDirt's third orbit effect after the delay and the reverb. Part
// of `SamplerOrchestra.effects` (SamplerEffects.swift), called by `podium_orbit_fx`.
extension SamplerOrchestra {
    /// `podium_leslie`, before `podium_orbit_fx` (`orbitEffects`), which calls it.
    static let leslieEffect = #"""
        ; The orbit's leslie: a port of SuperDirt's dirt_leslie (core-synths-global.scd).
        ; In: the dry sound of the orbit's notes while the leslie is engaged (a note that
        ; sets leslie, lrate or lsize engages it until its end + giPodiumIdleTime; its
        ; own sound keeps it engaged 4 s more: DirtPause's grace time); while it is not,
        ; the orbit passes that sound on unchanged (SuperDirt's paused synth).
        ; Out: the sound x (1 - leslie) (ReplaceOut on the dry bus) + a rotating speaker,
        ; each channel on its own, split at 800 Hz (HPF; the low band is the rest):
        ;   low:  x leslie x (1 - throb), throb = SinOsc(Lag(lrate 0.8, 20)) 0..1.3 lsize,
        ;         x (gL + gR) of Balance2 at SinOsc.kr(Lag(lrate 0.8, 4), pi/2) -0.2..0.2;
        ;   high: delayed distance / 343 s (DelayC: cubic, at least a sample),
        ;         distance = SinOsc(Lag(lrate, 10)) 0..lsize, x leslie x (1 - distance),
        ;         x (gL + gR) of Balance2 at SinOsc.kr(Lag(lrate, 2), pi/2) -0.4..0.4;
        ;   both x 1.2. dirt_leslie duplicates its stereo input (in.dup), so each Balance2
        ;   pans a channel against itself and Out's expansion of the nested channels adds
        ;   the two sides back onto that channel: a level of gL + gR, no pan.
        ;   Lag (to -60 dB in t s) is portk with the half-time t log 2 / log 1000, from
        ;   SuperDirt's defaults (its synth exists before any event sets lrate).
        ; The delays are rings in tables (giPodiumLeslieRings), whole blocks of at least
        ; 1 s (DelayC's maximum there), written a block at a time before the block is
        ; read; cleared when the leslie engages (what they held is stale). Not done: the
        ; synth's envelope at its very first start (Env.asr: 10 ms in, once).
        opcode podium_leslie, aa, aaik
          ainl, ainr, io, kwoke xin
          iost = 8 * io
          iTl = table:i(2 * io, giPodiumLeslieRings)
          iTr = table:i(2 * io + 1, giPodiumLeslieRings)
          iR = ftlen(iTl)
          kles table iost + 4, giPodiumOrbitState
          krate table iost + 5, giPodiumOrbitState
          ksize table iost + 6, giPodiumOrbitState
          ilag = log(2) / log(1000)
          krate10 portk krate, 10 * ilag, 6.7
          krate20 portk krate * 0.8, 20 * ilag, 6.7 * 0.8
          krate4 portk krate * 0.8, 4 * ilag, 6.7 * 0.8
          krate2 portk krate, 2 * ilag, 6.7
          adist poscil 0.5 * ksize, krate10
          adist = adist + 0.5 * ksize                 ; .range(0, lsize)
          athrob poscil 0.65 * ksize, krate20
          athrob = athrob + 0.65 * ksize              ; .range(0, lsize * 1.3)
          kbal1 poscil 0.2, krate4, -1, 0.25
          kbal2 poscil 0.4, krate2, -1, 0.25
          ; Balance2's two sides (cos, sin of (pos + 1) pi / 4) added, x 1.2 x leslie
          kg1 = 1.2 * kles * (cos((kbal1 + 1) * $M_PI / 4) + sin((kbal1 + 1) * $M_PI / 4))
          kg2 = 1.2 * kles * (cos((kbal2 + 1) * $M_PI / 4) + sin((kbal2 + 1) * $M_PI / 4))
          ahil buthp ainl, 800
          ahir buthp ainr, 800
          ; the delays: the block written at kP, then read distance / 343 s behind each sample
          kw, kramp init 0, 0
          aramp init 0                                ; 0, 1, .. ksmps - 1
          if kramp == 0 then
            while kramp < ksmps do
              vaset kramp, kramp, aramp
              kramp += 1
            od
          endif
          if kwoke == 1 then
            vcopy iTl, iTl, iR, 0, -1e9                ; (zeros)
            vcopy iTr, iTr, iR, 0, -1e9
          endif
          kP = kw % iR
          tablew ahil, kP + aramp, iTl
          tablew ahir, kP + aramp, iTr
          aix = kP + iR + aramp - limit(adist * (sr / 343), 1, sr)
          adell tablexkt aix, iTl, 0, 4, 0, 0, 1
          adelr tablexkt aix, iTr, 0, 4, 0, 0, 1
          kw += ksmps
          alow = (1 - athrob) * kg1
          ahigh = (1 - adist) * kg2
          awetl = (ainl - ahil) * alow + adell * ahigh
          awetr = (ainr - ahir) * alow + adelr * ahigh
          ; engaged 4 s past its own sound (DirtPause: DetectSilence at 1e-4, 4 s)
          kpk max_k abs(awetl) + abs(awetr), 1, 1
          if kpk > 1e-4 * 0dbfs then
            know times
            tablew limit(know + 4, table:k(iost + 7, giPodiumOrbitState), 1e300), iost + 7, giPodiumOrbitState
          endif
          kdry = 1 - kles
          xout ainl * kdry + awetl, ainr * kdry + awetr
        endop
        """#
}
