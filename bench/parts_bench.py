#!/usr/bin/env python3
"""bench/run parts: one orchestra's load played by one podium process against the same load
split into two parts (two podium play on one JACK server), at period 64 on a real-time dummy
server. JACK2 runs clients that do not feed one another in parallel, each on its own thread; one
Csound computes on one thread. A part is bench/orchestras/part.orc's bank of sines, sized so that
it takes SHARE of one core (calibrated here by rendering it offline first)."""
import argparse, os, re, subprocess, sys, tempfile, time

PODIUM = ".build/release/podium"
ORC = "bench/orchestras/part.orc"


def render_load(n, seconds=4):
    """Seconds of CPU per second of audio for a part of n sines (offline render, one core)."""
    with tempfile.TemporaryDirectory() as d:
        sco = os.path.join(d, "s.sco")
        open(sco, "w").write(f"i1 0 {seconds} {n}\n")
        t = time.monotonic()
        subprocess.run([PODIUM, "render", ORC, "--score", sco, "-o", os.path.join(d, "x.wav")], check=True, capture_output=True)
        return (time.monotonic() - t) / seconds


def server(name, period):
    p = subprocess.Popen(["jackd", "-n", name, "-R", "-t", "5000", "-d", "dummy", "-r", "48000", "-p", str(period)],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        if subprocess.run(["jack_lsp"], env=dict(os.environ, JACK_DEFAULT_SERVER=name, JACK_NO_START_SERVER="1"),
                          capture_output=True).returncode == 0:
            return p
        time.sleep(0.05)
    raise SystemExit(f"jackd {name} did not start")


def xruns(status_line):
    m = re.search(r"xruns (\d+)", status_line)
    return int(m.group(1)) if m else None


def play(parts, name, period, seconds, chain=False):
    """Each entry of `parts` a list of sine counts for one process; the server's xruns in a window of
    `seconds` after the start (counted by each process's client; the most any saw), and the
    processes' DSP loads."""
    jack = server(name, period)
    procs = []
    try:
        with tempfile.TemporaryDirectory() as d:
            for i, voices in enumerate(parts):
                sco = os.path.join(d, f"p{i}.sco")
                open(sco, "w").write("".join(f"i1 0 {seconds + 10} {n}\n" for n in voices))
                procs.append(subprocess.Popen([PODIUM, "play", ORC, "--score", sco, "--server", name, "--name", f"part{i}", "--no-connect",
                                               "--no-session", "--no-osc", "--no-web", "--no-watch", "--ksmps", str(period)],
                                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1))
            time.sleep(3)  # started, compiled, the checker forked
            if chain:  # part0 feeds part1: JACK2 runs part1 after part0 in each cycle
                env = dict(os.environ, JACK_DEFAULT_SERVER=name, JACK_NO_START_SERVER="1")
                for c in (1, 2):
                    subprocess.run(["jack_connect", f"part0:out_{c}", f"part1:in_{c}"], env=env, check=True)
                time.sleep(1)
            before = [ask(p) for p in procs]
            time.sleep(seconds)
            after = [ask(p) for p in procs]
            counts = [xruns(a) - xruns(b) for a, b in zip(after, before) if xruns(a) is not None and xruns(b) is not None]
            loads = [re.search(r"DSP load ([\d.]+)%", a) for a in after]
            return (max(counts) if counts else None, [float(m.group(1)) if m else None for m in loads])
    finally:
        for p in procs:
            try:
                p.stdin.write(":quit\n"); p.stdin.flush()
            except Exception:
                pass
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
        jack.terminate(); jack.wait()


def ask(p):
    """The :status line of a piped podium."""
    p.stdin.write(":status\n"); p.stdin.flush()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        line = p.stdout.readline()
        if " xruns " in line:
            return line
    return ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--share", type=float, default=0.52, help="one part's load, of one core")
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--period", type=int, default=64)
    a = ap.parse_args()
    per = render_load(1000) / 1000
    n = max(1, int(a.share / per))
    print(f"### Parts: one process against two, period {a.period} at 48 kHz (jackd -R -d dummy), {a.seconds:.0f} s each")
    print()
    print(f"A part: {n} sines of bench/orchestras/part.orc, {n * per * 100:.0f} % of one core offline (podium render); "
          f"the whole: two parts, {2 * n * per * 100:.0f} %.")
    print()
    print("| how | processes | xruns in the window | DSP load (JACK's, per process) |")
    print("|---|---:|---:|---|")
    tag = os.getpid()
    for label, parts, chain in [("one part alone", [[n]], False), ("both parts in one process", [[n, n]], False),
                                ("two parts, two processes", [[n], [n]], False),
                                ("two parts, the first feeding the second (out → in)", [[n], [n]], True)]:
        x, loads = play(parts, f"podium-parts-{tag}", a.period, a.seconds, chain)
        print(f"| {label} | {len(parts)} | {x if x is not None else '?'} | {', '.join(f'{l:.0f} %' if l is not None else '?' for l in loads)} |")
    print()
    print("Two parts that do not feed one another are woken together, each on its own thread, and take a core "
          "each; a part that takes another's output is ordered after it in every cycle (JACK2 sorts the graph) "
          "and hears it in the same period. The dummy server on a shared 2-core machine makes xruns of its own: "
          "compare each row with 'one part alone', measured in the same run.")
    print()

if __name__ == "__main__":
    main()
