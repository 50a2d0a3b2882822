#!/usr/bin/env python3
"""Podium benchmarks against peers measured in the same run. Prints markdown tables.

render: `podium render` vs `csound -o OUT -f FILE` on the same files — median wall time of
N alternating runs, the ratio, and whether the samples are identical.
"""
import argparse, os, platform, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PODIUM = os.path.join(ROOT, ".build", "release", "podium")
RENDER_FILES = [
    "Orchestras/sine.csd",
    "Orchestras/chords.csd",
    "Tests/PodiumTests/Fixtures/noise.csd",
    "bench/orchestras/voices.csd",
]


def timed(cmd):
    t = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    dt = time.perf_counter() - t
    if r.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{r.stderr.decode()[-800:]}")
    return dt


def samples(path):
    return subprocess.run(["sox", path, "-t", "f32", "-"], capture_output=True, check=True).stdout


def bench_render(repeat):
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for rel in RENDER_FILES:
            f = os.path.join(ROOT, rel)
            ours, theirs = os.path.join(tmp, "p.wav"), os.path.join(tmp, "c.wav")
            tp, tc = [], []
            timed([PODIUM, "render", f, "-o", ours])  # warm caches
            timed(["csound", "-o", theirs, "-f", f])
            for _ in range(repeat):
                tc.append(timed(["csound", "-o", theirs, "-f", f]))
                tp.append(timed([PODIUM, "render", f, "-o", ours]))
            mp, mc = statistics.median(tp), statistics.median(tc)
            same = samples(ours) == samples(theirs)
            dur = float(subprocess.run(["soxi", "-D", ours], capture_output=True, text=True).stdout)
            rows.append((rel, dur, mc, mp, mp / mc, same))
    print(f"### Offline render: podium vs csound CLI (median of {repeat} alternating runs)\n")
    print("| file | audio s | csound s | podium s | ratio | samples |")
    print("|---|---:|---:|---:|---:|---|")
    for rel, dur, mc, mp, ratio, same in rows:
        print(f"| {rel} | {dur:.2f} | {mc:.3f} | {mp:.3f} | {ratio:.3f} | {'identical' if same else 'DIFFERENT'} |")
    total_c = sum(r[2] for r in rows); total_p = sum(r[3] for r in rows)
    print(f"| **all** | | {total_c:.3f} | {total_p:.3f} | {total_p / total_c:.3f} | |\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sections", nargs="*", help="render (default: all)")
    ap.add_argument("--repeat", type=int, default=7)
    a = ap.parse_args()
    if not a.sections or "render" in a.sections:
        bench_render(a.repeat)


if __name__ == "__main__":
    main()
