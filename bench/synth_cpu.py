#!/usr/bin/env python3
"""CPU per voice of SuperDirt's synths: scsynth rendering SuperDirt's own SynthDefs against
Podium's Csound ports, in the same run (issue 59).

SuperDirt's SynthDefs are built by sclang from a SuperDirt checkout (--superdirt DIR: its
library/ and synths/ files loaded as SuperDirt loads them, with its classes on the class path;
nothing of it is kept here) and written as .scsyndef files. For each synth, scsynth renders in
non-real-time mode (-N) a score of N voices started at once (n 0: freq 261.63 Hz, sustain S s,
pan 0.5) for S seconds, and the same score with no voice; the CPU of the difference (user +
system, the best of three), per voice and second of sound, is its cost. Podium's half is
`podium-bench synth-cpu-podium` (a performance's engine, offline, the same N and S, its own
thread's CPU clock). Both in % of one core.

Needs Debian's supercollider-language, supercollider-server, sc3-plugins-server and
sc3-plugins-language (sclang runs headless: QT_QPA_PLATFORM=offscreen).
"""
import argparse, os, resource, shutil, struct, subprocess, sys, tempfile

from pythonosc import osc_message_builder

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, ".build", "release", "podium-bench")

DEFS_SCD = """
var root = "%(superdirt)s", out = "%(out)s/";
// (`~dirt.numChannels` read as 2: an Event answers `numChannels` with Object's 1)
~dirt = (soundLibrary: (addSynth: { |self ...args| nil }));
["library/default-synths-extra.scd", "synths/default-synths.scd", "synths/tutorial-synths.scd"].do { |f|
    File.readAllString(root +/+ f).replace("~dirt.numChannels", "2").interpret };
SynthDescLib.global.synthDescs.keysValuesDo { |name, desc| if(desc.def.notNil) { desc.def.writeDefFile(out) } };
"PODIUM-DEFS-DONE".postln;
0.exit;
"""


def make_defs(superdirt, work):
    out = os.path.join(work, "defs")
    os.makedirs(out, exist_ok=True)
    conf = os.path.join(work, "sclang.yaml")
    with open(conf, "w") as f:
        f.write(f"includePaths:\n    - {os.path.join(superdirt, 'classes')}\nexcludeDefaultPaths: false\n")
    script = os.path.join(work, "defs.scd")
    with open(script, "w") as f:
        f.write(DEFS_SCD % {"superdirt": superdirt, "out": out})
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QTWEBENGINE_DISABLE_SANDBOX="1")
    r = subprocess.run(["sclang", "-l", conf, script], env=env, capture_output=True, text=True, timeout=300, cwd=work)
    if "PODIUM-DEFS-DONE" not in r.stdout:
        sys.exit("sclang did not build SuperDirt's SynthDefs:\n" + r.stdout[-2000:] + r.stderr[-2000:])
    return out


def message(address, *args):
    m = osc_message_builder.OscMessageBuilder(address=address)
    for a in args:
        m.add_arg(a)
    return m.build().dgram


def bundle(seconds, messages):
    """An NRT score entry: its size, then a bundle whose timetag counts seconds from 0."""
    whole = int(seconds)
    frac = int((seconds - whole) * (1 << 32))
    body = b"#bundle\0" + struct.pack(">II", whole, frac)
    for m in messages:
        body += struct.pack(">i", len(m)) + m
    return struct.pack(">i", len(body)) + body


def scsynth_cpu(defs, synth, voices, seconds, work):
    """`synth` a name, or a list of names the voices take in turn."""
    names = synth if isinstance(synth, list) else [synth]
    start = [message("/d_loadDir", defs)]
    news = [message("/s_new", names[i % len(names)], 1000 + i, 0, 0, "freq", 261.6256, "sustain", float(seconds), "pan", 0.5, "out", 0)
            for i in range(voices)]
    score = bundle(0, start) + (bundle(0.0, news) if news else b"") + bundle(seconds, [message("/c_set", 0, 0)])
    path = os.path.join(work, "score.osc")
    with open(path, "wb") as f:
        f.write(score)
    best = float("inf")
    for _ in range(3):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(["scsynth", "-N", path, "_", os.path.join(work, "out.wav"), "48000", "WAV", "float",
                        "-o", "2", "-i", "0", "-m", "262144", "-w", "2048", "-n", "32768"],
                       capture_output=True, check=True, timeout=300)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--superdirt", required=True, help="a SuperDirt checkout (github.com/musikinformatik/SuperDirt)")
    ap.add_argument("--voices", type=int, default=16)
    ap.add_argument("--seconds", type=float, default=4)
    ap.add_argument("--synths", default="", help="comma-separated; all of Podium's by default")
    ap.add_argument("--mixed", type=int, default=200, help="then N voices of every synth in turn, in one engine (0: not)")
    args = ap.parse_args()
    for tool in ("sclang", "scsynth"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is missing: apt-get install supercollider-language supercollider-server sc3-plugins-server sc3-plugins-language")
    work = tempfile.mkdtemp(prefix="podium-synth-cpu-")
    try:
        defs = make_defs(os.path.abspath(args.superdirt), work)
        r = subprocess.run([BENCH, "synth-cpu-podium", "--voices", str(args.voices), "--seconds", str(args.seconds)]
                           + (["--synths", args.synths] if args.synths else []), capture_output=True, text=True, check=True)
        podium = {line.split()[0]: float(line.split()[1]) for line in r.stdout.splitlines() if len(line.split()) == 2}
        base = scsynth_cpu(defs, "superpiano", 0, args.seconds, work)
        print(f"### CPU per voice: SuperDirt's synths in scsynth 3.13 (NRT, SuperDirt's own SynthDefs) and in Podium (Csound 6.18, offline engine); "
              f"{args.voices} voices of n 0 held {args.seconds:g} s, less none; % of one core per voice\n")
        print("| synth | scsynth | Podium | Podium / scsynth |")
        print("|---|---:|---:|---:|")
        ratios = []
        for synth, ours in podium.items():
            if not os.path.exists(os.path.join(defs, synth + ".scsyndef")):
                print(f"| {synth} | (no SynthDef) | {ours:.3f} | |")
                continue
            theirs = 100 * (scsynth_cpu(defs, synth, args.voices, args.seconds, work) - base) / args.voices / args.seconds
            ratio = ours / theirs if theirs > 0.001 else float("nan")
            if theirs > 0.001:
                ratios.append(ratio)
            print(f"| {synth} | {theirs:.3f} | {ours:.3f} | {ratio:.2f}× |")
        if ratios:
            ratios.sort()
            print(f"\nMedian ratio {ratios[len(ratios) // 2]:.2f}× over {len(ratios)} synths (range {ratios[0]:.2f}–{ratios[-1]:.2f}×).")
        if args.mixed > 0:
            r = subprocess.run([BENCH, "synth-cpu-podium", "--mixed", str(args.mixed), "--seconds", str(args.seconds)],
                               capture_output=True, text=True, check=True)
            ours = float(r.stdout.split()[1]) - float(r.stdout.split()[2])  # (less the idle engine's)
            r = subprocess.run([BENCH, "synth-cpu-podium", "--voices", "1", "--seconds", "0.01"], capture_output=True, text=True, check=True)
            every = [line.split()[0] for line in r.stdout.splitlines() if len(line.split()) == 2]
            names = [n for n in every if os.path.exists(os.path.join(defs, n + ".scsyndef"))]
            # (less the empty render's CPU: starting scsynth and loading the SynthDefs)
            theirs = 100 * (scsynth_cpu(defs, names, args.mixed, args.seconds, work) - base) / args.seconds
            print(f"\n{args.mixed} voices at once, every synth in turn ({len(names)} synths), less an idle engine: scsynth {theirs:.1f} %, "
                  f"Podium {ours:.1f} % of one core ({ours / theirs:.2f}×); over 100 % cannot play in real time on one core.")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
