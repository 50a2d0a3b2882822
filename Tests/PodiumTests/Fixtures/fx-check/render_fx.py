#!/usr/bin/env python3
"""Checks the extra per-event effect UDOs (SamplerEffectsExtra.swift) against scsynth's renders.

  render_fx.py [--ksmps N] [--keep DIR] [--exact-input] [RENDER ...]   (default: all of CASES)

For each fx_* render of the SuperDirt reference (/work/shared/superdirt-reference, or
$SUPERDIRT_REFERENCE) it writes a .csd that plays the reference's source through one UDO the
way SuperDirt's event does, renders it with the csound CLI (48 kHz float WAV, offline), and
compares the features of dirt_features.py (the judge of Podium's synth tests: its functions
and tolerances) with the reference's. Prints "render feature reference ours pass|fail" and
exits 0 only if every judged line passes. Lines marked "info" are shown, not judged:
  - the pitch of a render the reference finds mostly unvoiced (pitch_voiced_fraction < 0.5: the
    median of a few frames' guesses; the noise renders have no pitch at all);
  - for the random effects ("random" below: waveloss, scram), whose realisation differs from
    scsynth's (its random numbers cannot be had in Csound), the 10 ms frame match. Those are
    rendered with 8 seeds, and each other feature passes when the reference's value lies within
    the range of ours, widened by the tolerance (for waveloss also the fraction of silent samples,
    dropped segments, widened by 0.05): the reference is then one of the process's realisations.
--exact-input feeds the reference's own fx_dry_saw / 0.4 instead of the rebuilt saw: the UDO
alone, without the source's error (the spectral ones amplify it: conformer, smear).

The sources, as the reference's README describes them:
  saw   -- SuperCollider's Saw.ar(220), rebuilt as scsynth computes it: a band-limited impulse
           train (1/N) sum cos(k w t), k = 1..N = 109 (plus 1.22e-6: the bias of scsynth's table
           lookups, found by fitting) through a leaky integrator y = x + 0.999 y[-1] whose state
           starts at -0.46. It matches fx_dry_saw / 0.4 to -56 dB (RMS of the difference re the
           signal's, after the first 20 ms; peaks of the difference 0.008 at the saw's jumps).
  noise -- WhiteNoise.ar from scsynth's seeded RNG cannot be rebuilt here: the reference's own
           fx_dry_noise / 0.4 (its effect input exactly, but for the gate's last 1 ms).
Each is panned to the centre (x 0.7071, Pan2), goes through the effect (UDO), then SuperDirt's
dirt_gate: x 0.4 (amp 0.4, gain 1), held 0.999 s then a 1 ms sine fade, silent after 1 s.
fx_dry_saw and fx_dry_noise go through every UDO switched off (as for an event without them).
"""
import json, os, re, subprocess, sys, tempfile, textwrap, warnings
import numpy as np
from scipy.io import wavfile

warnings.filterwarnings("ignore", category=wavfile.WavFileWarning)   # (csound's extra chunks)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import dirt_features as judge  # noqa: E402  (Fixtures/dirt_features.py)

# SamplerOrchestra.extraEffects' parts, in the order it joins them.
SWIFT = [os.path.join(HERE, "../../../../Sources/PodiumEngine", f) for f in
         ("SamplerEffectsExtra.swift", "SamplerEffectsDistortion.swift", "SamplerEffectsSpectralHelpers.swift", "SamplerEffectsSpectral.swift")]
REFERENCE = os.environ.get("SUPERDIRT_REFERENCE", "/work/shared/superdirt-reference")

# every UDO, off (as when the event does not give its control): must leave the signal as it is
ALL_OFF = ("podium_fx_vowel al, ar, 0, 0 | podium_fx_tremolo al, ar, 0, 0 | podium_fx_djf al, ar, -1 | "
           "podium_fx_bpf al, ar, 0, 0 | podium_fx_envelope al, ar, -1, 0, -1, 0 | podium_fx_ring al, ar, 0, 0, 0 | "
           "podium_fx_distort al, ar, 0 | podium_fx_triode al, ar, 0 | podium_fx_krush al, ar, 0, 0 | "
           "podium_fx_octer al, ar, 0, 0, 0 | podium_fx_fshift al, ar, 0, 0, 0, 261.6256 | "
           "podium_fx_phaser al, ar, 0, 0 | podium_fx_squiz al, ar, 0 | podium_fx_waveloss al, ar, 0, 2 | "
           "podium_fx_sdelay al, ar, -1, -1 | podium_fx_freeze al, ar, -1 | podium_fx_comb al, ar, -1 | "
           "podium_fx_smear al, ar, -1 | podium_fx_scram al, ar, -1 | podium_fx_binshift al, ar, -1 | "
           "podium_fx_hbrick al, ar, -1 | podium_fx_lbrick al, ar, -1 | podium_fx_conformer al, ar, -1, -1 | "
           "podium_fx_enhance al, ar, -1")

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
    "fx_sdelay_ts0.5_xs3": ("saw", "podium_fx_sdelay al, ar, 3, 0.5"),
    "fx_sdelay_ts1_xs7": ("saw", "podium_fx_sdelay al, ar, 7, 1"),
    "fx_freeze0": ("saw", "podium_fx_freeze al, ar, 0"),
    "fx_freeze1": ("saw", "podium_fx_freeze al, ar, 1"),
    "fx_comb0.2": ("noise", "podium_fx_comb al, ar, 0.2"),
    "fx_comb0.5": ("noise", "podium_fx_comb al, ar, 0.5"),
    "fx_smear0.3": ("saw", "podium_fx_smear al, ar, 0.3"),
    "fx_smear0.8": ("saw", "podium_fx_smear al, ar, 0.8"),
    "fx_scram0.2": ("saw", "podium_fx_scram al, ar, 0.2", "random"),
    "fx_scram0.6": ("saw", "podium_fx_scram al, ar, 0.6", "random"),
    "fx_binshift0.2": ("saw", "podium_fx_binshift al, ar, 0.2"),
    "fx_binshift0.6": ("saw", "podium_fx_binshift al, ar, 0.6"),
    "fx_hbrick0.3": ("noise", "podium_fx_hbrick al, ar, 0.3"),
    "fx_hbrick0.6": ("noise", "podium_fx_hbrick al, ar, 0.6"),
    "fx_lbrick0.3": ("noise", "podium_fx_lbrick al, ar, 0.3"),
    "fx_lbrick0.7": ("noise", "podium_fx_lbrick al, ar, 0.7"),
    "fx_conformer_real0.5_imag0.5": ("saw", "podium_fx_conformer al, ar, 0.5, 0.5"),
    "fx_conformer_real0.2_imag0.8": ("saw", "podium_fx_conformer al, ar, 0.2, 0.8"),
    "fx_enhance0.5": ("saw", "podium_fx_enhance al, ar, 0.5"),
    "fx_enhance0.9": ("saw", "podium_fx_enhance al, ar, 0.9"),
    "fx_waveloss30": ("saw", "podium_fx_waveloss al, ar, 30, 2", "random"),
    "fx_waveloss60": ("saw", "podium_fx_waveloss al, ar, 60, 2", "random"),
}
SEEDS = range(1, 9)       # realisations of the random effects

CSD = """<CsoundSynthesizer>
<CsOptions>
-d -m0 --nodisplays
</CsOptions>
<CsInstruments>
sr = 48000
ksmps = {ksmps}
nchnls = 2
0dbfs = 1
seed {seed}

{udos}

giBlit ftgen 0, 0, 65536, -11, 109, 1, 1     ; (1 / 109) x the sum of cosines 1..109 (peak 1)

instr 1
  if p4 == 1 goto file
    ab poscil3 1, 220, giBlit                       ; Saw.ar(220): BLIT (1 / N) sum cos, N = 109,
    as filter2 ab + 1.22e-6, 1, 1, 1, -0.999        ; (its tables' tiny bias), leaky integrator, state
    ay1 expon -0.46 * 0.999, 1, -0.46 * 0.999 ^ (sr + 1)     ; starting at -0.46
    as += ay1
    as *= 0.70710678                                ; Pan2 at the centre
    goto fx
file:
    as diskin2 "{dry}", 1
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
i 1 0 1 {from_file}
f 0 2
</CsScore>
</CsoundSynthesizer>
"""


def udo_text():
    return "\n".join(textwrap.dedent(re.search(r'#"""\n(.*?)"""#', open(f).read(), re.S).group(1)) for f in SWIFT)


def render(name, ksmps, workdir, seed=1, exact=False):
    """The render's frames (L, R)."""
    source, calls = CASES[name][:2]
    csd, wav = (os.path.join(workdir, f"{name}.{seed}.{ext}") for ext in ("csd", "wav"))
    dry = "fx_dry_noise" if source == "noise" else "fx_dry_saw"
    with open(csd, "w") as f:
        f.write(CSD.format(ksmps=ksmps, seed=seed, udos=udo_text(), from_file=int(source == "noise" or exact),
                           calls="\n".join("  al, ar " + c.strip() for c in calls.split("|")),
                           dry=os.path.join(REFERENCE, "renders", dry + ".wav")))
    run = subprocess.run(["csound", "-o", wav, "--format=float", "-W", csd], capture_output=True, text=True)
    if run.returncode != 0 or not os.path.exists(wav):
        sys.exit(f"{name}: csound failed\n{run.stderr[-3000:]}")
    return wavfile.read(wav)[1].astype(np.float64)


def features(frames):
    """dirt_features.py's measures of a render's first 2 s (mono mix), and its silent fraction."""
    x = np.zeros(2 * judge.SR)
    mono = frames.mean(axis=1)[: 2 * judge.SR]
    x[: len(mono)] = mono
    nz = np.nonzero(x)[0]
    centroid, rolloff = judge.spectral_medians(x)
    return {"pitch_median_hz": judge.pitch_median(x),
            "rms_total_db": judge.db(np.sqrt(np.mean(x[: nz[-1] + 1 if len(nz) else 1] ** 2))),
            "frames": [judge.db(np.sqrt(np.mean(f ** 2))) for f in x[: 100 * 480].reshape(100, 480)],
            "centroid_median_hz": centroid, "rolloff85_median_hz": rolloff,
            "silent_fraction": float(np.mean(frames[: judge.SR - 100] == 0))}


def within(ref, got, feature):
    """dirt_features.py's tolerances."""
    if got is None:
        return False
    if feature == "rms_total_db":
        return abs(got - ref) <= 1.5
    return abs(got / ref - 1) <= {"pitch_median_hz": 0.01, "centroid_median_hz": 0.15, "rolloff85_median_hz": 0.20}[feature]


def compare(name, runs, r):
    """Rows (render, feature, reference, ours, verdict) for one render's realisations runs."""
    rows = []
    loud = [k for k, v in enumerate(r["rms_db_10ms"][:100]) if v > -40]
    match = max(sum(1 for k in loud if abs(f["frames"][k] - r["rms_db_10ms"][k]) <= 3) / max(len(loud), 1) for f in runs)
    for feature in ("pitch_median_hz", "rms_total_db", "frames", "centroid_median_hz", "rolloff85_median_hz"):
        if feature == "frames":
            rows.append((name, "rms_envelope_within_3db", 0.9, round(match, 3),
                         "info" if len(runs) > 1 else "pass" if match >= 0.9 else "FAIL"))
            continue
        ref = r.get(feature)
        if ref is None:                      # (noise: no pitch)
            continue
        got = [f[feature] for f in runs]
        if len(runs) == 1:
            shown, ok = got[0] and round(got[0], 2), within(ref, got[0], feature)
        else:                                # the reference within our realisations' range
            lo, hi = min(g for g in got if g is not None), max(g for g in got if g is not None)
            shown, ok = f"{lo:.4g}..{hi:.4g}", within(ref, lo, feature) or within(ref, hi, feature) or lo <= ref <= hi
        unvoiced = feature == "pitch_median_hz" and r.get("pitch_voiced_fraction", 1) < 0.5
        rows.append((name, feature, ref, shown, "info" if unvoiced else "pass" if ok else "FAIL"))
    return rows


def main():
    args, ksmps, keep, exact = sys.argv[1:], 64, None, False
    if "--ksmps" in args:
        i = args.index("--ksmps"); ksmps = int(args[i + 1]); del args[i:i + 2]
    if "--keep" in args:
        i = args.index("--keep"); keep = args[i + 1]; del args[i:i + 2]
    if "--exact-input" in args:
        args.remove("--exact-input"); exact = True
    names = args or list(CASES)
    reference = json.load(open(os.path.join(REFERENCE, "features.json")))
    workdir = keep or tempfile.mkdtemp(prefix="fx-check-")
    os.makedirs(workdir, exist_ok=True)
    rows = []
    for name in names:                   # one render at a time
        random = "random" in CASES[name]
        runs = [features(render(name, ksmps, workdir, seed, exact)) for seed in (SEEDS if random else [1])]
        rows += compare(name, runs, reference[name]["features"])
        if name.startswith("fx_waveloss"):
            ref = features(wavfile.read(os.path.join(REFERENCE, "renders", name + ".wav"))[1].astype(np.float64))
            got = [f["silent_fraction"] for f in runs]
            ok = min(got) - 0.05 <= ref["silent_fraction"] <= max(got) + 0.05
            rows.append((name, "silent_fraction", round(ref["silent_fraction"], 3),
                         f"{min(got):.3f}..{max(got):.3f}", "pass" if ok else "FAIL"))
    width = max(len(r[0]) for r in rows)
    print(f"{'render':{width}}  {'feature':24} {'reference':>10} {'ours':>16}")
    for name, feature, expected, got, verdict in rows:
        print(f"{name:{width}}  {feature:24} {expected!s:>10} {got!s:>16}  {verdict}")
    judged = [r for r in rows if r[4] != "info"]
    failed = sum(1 for r in judged if r[4] == "FAIL")
    print(f"{len(judged) - failed}/{len(judged)} judged lines pass ({len(rows) - len(judged)} info; ksmps {ksmps}"
          f"{'; exact input' if exact else ''})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
