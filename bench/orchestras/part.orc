sr = 48000
ksmps = 64
nchnls = 2
0dbfs = 1
instr 1 ; a bank of p4 sines: one part's load
  iN = p4
  aSum = 0
  kI = 0
  while kI < iN do
    aSum += poscil(0.5 / iN, 110 + kI * 3)
    kI += 1
  od
  outs aSum, aSum
endin
