#!/usr/bin/env python3
"""Checks the extra per-event effect UDOs (SamplerEffectsExtra.swift) against scsynth's renders.

  render_fx.py [--ksmps N] [--keep DIR] [RENDER ...]     (default: every render in CASES)

For each fx_* render of the SuperDirt reference (/work/shared/superdirt-reference, or
$SUPERDIRT_REFERENCE) it writes a .csd that plays the reference's source through one UDO the
way SuperDirt's event does, renders it with the csound CLI (48 kHz float WAV, offline), and
compares the features of dirt_features.py (the judge of Podium's synth tests: its functions
and tolerances) with the reference's. Prints "render feature reference ours pass|fail" and
exits 0 only if every line passes. (The noise renders have no reference pitch: no pitch line.)

The sources, as the reference's README describes them:
  saw   -- SuperCollider's Saw.ar(220), rebuilt: a band-limited impulse train (harmonics 1..109
           of 220 Hz, all of one level) through a leaky integrator y = x + 0.999 y[-1] whose
           state starts at -0.46 (this reproduces fx_dry_saw within 1e-3, after its first 20 ms)
  noise -- WhiteNoise.ar from scsynth's seeded RNG cannot be rebuilt here: the reference's own
           fx_dry_noise / 0.4 (its effect input exactly, but for the gate's last 1 ms).
Each is panned to the centre (x 0.7071, Pan2), goes through the effect (UDO), then SuperDirt's
dirt_gate: x 0.4 (amp 0.4, gain 1), held 0.999 s then a 1 ms sine fade, silent after 1 s.
"""
import json, os, re, subprocess, sys, tempfile, textwrap
import numpy as np
from scipy.io import wavfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import dirt_features as judge  # noqa: E402  (Fixtures/dirt_features.py)

SWIFT = os.path.join(HERE, "../../../../Sources/PodiumEngine/SamplerEffectsExtra.swift")
REFERENCE = os.environ.get("SUPERDIRT_REFERENCE", "/work/shared/superdirt-reference")

# every UDO, off (as when the event does not give its control): must leave the signal as it is
ALL_OFF = ("podium_fx_vowel al, ar, 0, 0 | podium_fx_tremolo al, ar, 0, 0 | podium_fx_djf al, ar, -1 | "
           "podium_fx_bpf al, ar, 0, 0 | podium_fx_envelope al, ar, -1, 0, -1, 0 | podium_fx_ring al, ar, 0, 0, 0 | "
           "podium_fx_distort al, ar, 0 | podium_fx_triode al, ar, 0 | podium_fx_krush al, ar, 0, 0 | "
           "podium_fx_octer al, ar, 0, 0, 0 | podium_fx_fshift al, ar, 0, 0, 0, 261.6256 | "
           "podium_fx_phaser al, ar, 0, 0 | podium_fx_squiz al, ar, 0 | podium_fx_waveloss al, ar, 0, 2")

# render: (source, UDO calls on al, ar with SuperDirt's values for the event, separated by |)
CASES = {
    "fx_dry_saw": ("saw", ALL_OFF),
    "fx_dry_noise": ("noise", ALL_OFF),
    "fx_vowel_a": ("saw", "podium_fx_vowel al, ar, 1, 0"),
    "fx_vowel_o": ("saw", "podium_fx_vowel al, ar, 4, 0"),
    "fx_tremolo_rate4_depth0.5": ("saw", "podium_fx_tremolo al, ar, 4, 0.5"),
    "fx_tremolo_rate8_depth1": ("saw", "podium_fx_tremolo al, ar, 8, 1"),
    "fx_djf0.2": ("noise", "podium_fx_djf al, ar, 0.2"),
    "fx_djf0.8": ("noise", "podium_fx_djf al, ar, 0.8"),
    "fx_bpf_bandf500": ("noise", "podium_fx_bpf al, ar, 500, 0"),
    "fx_bpf_bandf2000_bandq10": ("noise", "podium_fx_bpf al, ar, 2000, 10"),
    "fx_envelope_att0.1_rel0.3": ("saw", "podium_fx_envelope al, ar, 0.1, 0, 0.3, 0"),
    "fx_envelope_att0.01_hold0.3_rel0.2": ("saw", "podium_fx_envelope al, ar, 0.01, 0.3, 0.2, 0"),
    "fx_ring1_ringf300": ("saw", "podium_fx_ring al, ar, 1, 300, 0"),
    "fx_ring0.5_ringf1000": ("saw", "podium_fx_ring al, ar, 0.5, 1000, 0"),
    "fx_distort0.5": ("saw", "podium_fx_distort al, ar, 0.5"),
    "fx_distort0.9": ("saw", "podium_fx_distort al, ar, 0.9"),
    "fx_triode0.5": ("saw", "podium_fx_triode al, ar, 0.5"),
    "fx_triode1": ("saw", "podium_fx_triode al, ar, 1"),
    "fx_krush2_kcutoff1000": ("saw", "podium_fx_krush al, ar, 2, 1000"),
    "fx_krush4_kcutoff3000": ("saw", "podium_fx_krush al, ar, 4, 3000"),
    "fx_octer0.5": ("saw", "podium_fx_octer al, ar, 0.5, 0, 0"),
    "fx_octer1_octersub0.5": ("saw", "podium_fx_octer al, ar, 1, 0.5, 0"),
    "fx_fshift100": ("saw", "podium_fx_fshift al, ar, 100, 0, 0, 261.6256"),
    "fx_fshift-50": ("saw", "podium_fx_fshift al, ar, -50, 0, 0, 261.6256"),
    "fx_phaser_rate2_depth0.5": ("saw", "podium_fx_phaser al, ar, 2, 0.5"),
    "fx_phaser_rate8_depth1": ("saw", "podium_fx_phaser al, ar, 8, 1"),
    "fx_squiz2": ("saw", "podium_fx_squiz al, ar, 2"),
    "fx_squiz4": ("saw", "podium_fx_squiz al, ar, 4"),
    "fx_waveloss30": ("saw", "podium_fx_waveloss al, ar, 30, 2"),
    "fx_waveloss60": ("saw", "podium_fx_waveloss al, ar, 60, 2"),
}

CSD = """<CsoundSynthesizer>
<CsOptions>
-d -m0 --nodisplays
</CsOptions>
<CsInstruments>
sr = 48000
ksmps = {ksmps}
nchnls = 2
0dbfs = 1

{udos}

giBlit ftgen 0, 0, 65536, -11, 109, 1, 1     ; (1 / 109) x the sum of cosines 1..109 (peak 1)

instr 1
  if p4 == 1 goto noise
    ab poscil3 109 * 2 * 220 / sr * 1.0013, 220, giBlit  ; Saw.ar(220): BLIT, 2 f / sr a harmonic
    as filter2 ab, 1, 1, 1, -0.999                  ; leaky integrator, state
    as += expon(-0.46 * 0.999, 1, -0.46 * 0.999 ^ (sr + 1))  ; starting at -0.46
    as *= 0.70710678                                ; Pan2 at the centre
    goto fx
noise:
    as diskin2 "{noise}", 1
    as /= 0.4                                       ; (the reference's dry output / amp)
fx:
  al = as
  ar = as
{calls}
  aph linseg 0, 0.999, 0, 0.001, 1, 1, 1          ; dirt_gate: 0.999 s, 1 ms sine fade
  ag = 0.4 * (0.5 + 0.5 * cos($M_PI * aph))
  outs al * ag, ar * ag
endin
</CsInstruments>
<CsScore>
i 1 0 1 {noise_flag}
f 0 2
</CsScore>
</CsoundSynthesizer>
"""


def udo_text():
    swift = open(SWIFT).read()
    return textwrap.dedent(re.search(r'#"""\n(.*?)"""#', swift, re.S).group(1))


def render(name, ksmps, workdir):
    source, call = CASES[name]
    csd = os.path.join(workdir, name + ".csd")
    wav = os.path.join(workdir, name + ".wav")
    with open(csd, "w") as f:
        f.write(CSD.format(ksmps=ksmps, udos=udo_text(),
                           calls="\n".join("  al, ar " + c.strip() for c in call.split("|")), noise_flag=int(source == "noise"),
                           noise=os.path.join(REFERENCE, "renders/fx_dry_noise.wav")))
    run = subprocess.run(["csound", "-o", wav, "--format=float", "-W", csd], capture_output=True, text=True)
    if run.returncode != 0 or not os.path.exists(wav):
        sys.exit(f"{name}: csound failed\n{run.stderr[-3000:]}")
    frames = wavfile.read(wav)[1].astype(np.float64)
    x = np.zeros(2 * judge.SR)
    mono = frames.mean(axis=1)[: 2 * judge.SR]
    x[: len(mono)] = mono
    return x


def compare(name, x, r):
    """dirt_features.py's checks and tolerances, on one 2 s render x (mono mix)."""
    nz = np.nonzero(x)[0]
    rms_total = judge.db(np.sqrt(np.mean(x[: nz[-1] + 1 if len(nz) else 1] ** 2)))
    frames10 = [judge.db(np.sqrt(np.mean(f ** 2))) for f in x[: 100 * 480].reshape(100, 480)]
    loud = [k for k, v in enumerate(r["rms_db_10ms"][:100]) if v > -40]
    within = sum(1 for k in loud if abs(frames10[k] - r["rms_db_10ms"][k]) <= 3) / max(len(loud), 1)
    centroid, rolloff = judge.spectral_medians(x)
    rows = []
    if r.get("pitch_median_hz") is not None:
        pitch = judge.pitch_median(x)
        rows.append(("pitch_median_hz", r["pitch_median_hz"], pitch and round(pitch, 2),
                     pitch is not None and abs(pitch / r["pitch_median_hz"] - 1) <= 0.01))
    rows += [("rms_total_db", r["rms_total_db"], round(rms_total, 2), abs(rms_total - r["rms_total_db"]) <= 1.5),
             ("rms_envelope_within_3db", 0.9, round(within, 3), within >= 0.9),
             ("centroid_median_hz", r["centroid_median_hz"], centroid and round(centroid, 1),
              centroid is not None and abs(centroid / r["centroid_median_hz"] - 1) <= 0.15),
             ("rolloff85_median_hz", r["rolloff85_median_hz"], rolloff and round(rolloff, 1),
              rolloff is not None and abs(rolloff / r["rolloff85_median_hz"] - 1) <= 0.20)]
    return [(name, feature, expected, got, ok) for feature, expected, got, ok in rows]


def main():
    args, ksmps, keep = sys.argv[1:], 64, None
    if "--ksmps" in args:
        i = args.index("--ksmps"); ksmps = int(args[i + 1]); del args[i:i + 2]
    if "--keep" in args:
        i = args.index("--keep"); keep = args[i + 1]; del args[i:i + 2]
    names = args or list(CASES)
    reference = json.load(open(os.path.join(REFERENCE, "features.json")))
    workdir = keep or tempfile.mkdtemp(prefix="fx-check-")
    os.makedirs(workdir, exist_ok=True)
    rows = []
    for name in names:                   # one render at a time
        rows += compare(name, render(name, ksmps, workdir), reference[name]["features"])
    width = max(len(r[0]) for r in rows)
    print(f"{'render':{width}}  {'feature':24} {'reference':>10} {'ours':>10}")
    for name, feature, expected, got, ok in rows:
        print(f"{name:{width}}  {feature:24} {expected!s:>10} {got!s:>10}  {'pass' if ok else 'FAIL'}")
    failed = sum(1 for r in rows if not r[4])
    print(f"{len(rows) - failed}/{len(rows)} pass (ksmps {ksmps})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
