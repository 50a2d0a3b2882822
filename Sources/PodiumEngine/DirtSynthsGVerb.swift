// SuperDirt's synths as Csound instruments: GVerb as sc3-plugins 3.13 has it (its diffusers, the
// prime-length delays, the tail), which superprimes and superwavemechanics run one of per partial
// (`DirtSynthsSpaces`). The SuperCollider mirror's GVerb is newer and differs in one place that
// changes the sound: this follows 3.13.0.
extension DirtSynths {
    /// GVerb's opcodes (SDgvdiff, SDisprime, SDgverb), compiled before `spacesShared`.
    static let gverbShared = #"""
        ; ---------------------------------------------------------------- GVerb
        ; GVerb's diffuser: an all-pass of isize samples (its caller's ksmps at most)
        opcode SDgvdiff, a, aii
          ain, isize, icoef xin
          abuf delayr isize/sr
          ad deltapn isize
          aw = ain - icoef*ad
          delayw aw
          xout ad + icoef*aw
        endop

        ; 1 if n is a prime
        opcode SDisprime, i, i
          inum xin
          ip = (inum >= 2 ? 1 : 0)
          iq = 2
          while iq*iq <= inum && ip == 1 do
            ip = (inum % iq == 0 ? 0 : 1)
            iq += 1
          od
          xout ip
        endop

        ; SC GVerb (mono in, two out), as scsynth 3.13 runs it: an input one-pole damper and diffuser,
        ; four tapped early reflections, a four-line feedback delay network (Hadamard-like matrix, each
        ; line damped), the sum diffused three times per side. As its code does: the first FDN line's
        ; length is the prime nearest the largest delay; the other lines and taps are set a block
        ; later from the truncated lengths; the dry, early and tail levels rise from 0 over the first
        ; 64 samples. The room is kept within 1..299 (below 1 scsynth reads outside its delay lines).
        ; Runs in blocks as long as its shortest loop allows (the caller's ksmps at most).
        opcode SDgverb, aa, aiiiiiiii
          ain, iroom, irev, idamp, ibw, ispread, idry, iearly, itail xin
          iroom = limit(iroom, 1, 299)
          irev = max(irev, 0.001)
          ild = sr*iroom/340
          ; the first line: the prime nearest the largest delay (above first), as nearestprime finds it
          ip = int(ild)
          il0 = (SDisprime(ip) == 1 ? ip : 0)
          ik = 1
          while il0 == 0 && ik <= int(ip*0.5) do
            il0 = (SDisprime(ip + ik) == 1 ? ip + ik : (SDisprime(ip - ik) == 1 ? ip - ik : 0))
            ik += 1
          od
          il0 = max(il0, 2)
          il1 = int(0.81649*ild)
          il2 = int(0.7071*ild)
          il3 = int(0.63245*ild)
          ids = round(0.63245*ild)/1341
          ia = int(ispread*0.125541)
          ic = 369 + ia
          ia = int(3*ispread*0.854046)
          id = 931 + ia
          iL0 = max(round(ids*210), 1)
          iL1 = max(round(ids*(ic - 210)), 1)
          iL2 = max(round(ids*(id - ic)), 1)
          iL3 = max(round(ids*(1341 - id)), 1)
          ia = int(ispread*-0.568366)
          ic = 369 + ia
          ia = int(3*ispread*-0.126815)
          id = 931 + ia
          iR1 = max(round(ids*(ic - 210)), 1)
          iR2 = max(round(ids*(id - ic)), 1)
          iR3 = max(round(ids*(1341 - id)), 1)
          it0 = 5 + int(0.41*ild)
          it1 = 5 + int(0.3*ild)
          it2 = 5 + int(0.155*ild)
          ialpha = 0.001^(1/(sr*irev))
          ig0 = -(ialpha^il0)
          ig1 = -(ialpha^il1)
          ig2 = -(ialpha^il2)
          ig3 = -(ialpha^il3)
          imin = min(iL0, iL1, iL2, iL3, iR1, iR2, iR3, il0, il1, il2, il3)
          iks = ksmps
          while iks > imin || ksmps % iks != 0 do
            iks -= 1
          od
          setksmps iks
          ib = 64/sr
          adry linseg 0, ib, idry, 1, idry
          aearly linseg 0, ib, iearly, 1, iearly
          atail linseg 0, ib, itail, 1, itail
          idd = 1 - ibw
          az biquad ain, 1 - idd, 0, 0, 1, -idd, 0
          az SDgvdiff az, iL0, 0.75
          au0 delay az, it0/sr
          au1 delay az, it1/sr
          au2 delay az, it2/sr
          au3 delay az, 5/sr
          au0 *= ialpha^it0
          au1 *= ialpha^it1
          au2 *= ialpha^it2
          au3 *= ialpha^5
          a1buf delayr il1/sr
          ad1 deltapn il1
          a2buf delayr il2/sr
          ad2 deltapn il2
          a3buf delayr il3/sr
          ad3 deltapn il3
          ad1 biquad ig1*ad1, 1 - idamp, 0, 0, 1, -idamp, 0
          ad2 biquad ig2*ad2, 1 - idamp, 0, 0, 1, -idamp, 0
          ad3 biquad ig3*ad3, 1 - idamp, 0, 0, 1, -idamp, 0
          a0buf delayr il0/sr
          ad0 deltapn il0
          ad0 biquad ig0*ad0, 1 - idamp, 0, 0, 1, -idamp, 0
          asum = atail*(ad0 - ad1 + ad2 - ad3) + aearly*(au0 - au1 + au2 - au3 + ain)
          ; (each delayw writes the earliest unwritten delayr: lines 1, 2, 3, then 0)
          delayw au1 + 0.5*(ad0 - ad1 - ad2 + ad3)
          delayw au2 + 0.5*(-ad0 + ad1 - ad2 + ad3)
          delayw au3 + 0.5*(ad0 + ad1 + ad2 + ad3)
          delayw au0 + 0.5*(ad0 + ad1 - ad2 - ad3)
          aL SDgvdiff asum, iL1, 0.75
          aL SDgvdiff aL, iL2, 0.625
          aL SDgvdiff aL, iL3, 0.625
          aR SDgvdiff asum, iR1, 0.75
          aR SDgvdiff aR, iR2, 0.625
          aR SDgvdiff aR, iR3, 0.625
          xout aL + ain*adry, aR + ain*adry
        endop

        """#
}
