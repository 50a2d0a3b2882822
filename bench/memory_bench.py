#!/usr/bin/env python3
"""Resident memory of a long `podium play` under a steady event stream (issue 11: bounded memory).

One `jackd -d dummy`; `podium play` of a small orchestra, receiving EVENTS short notes over OSC
(`/podium/event`) at RATE a second — 100 000 events is a set of about half an hour at one note
a second per each of fifty players, or three hours at ten a second. The process's VmRSS is read
from /proc at the start (after a warm-up of 1000 events) and at each fifth of the stream.
Runs: the default (every performance keeps a session: its journal streams to events.log) and
--no-session; with --compare BINARY, that podium binary too (an older build, say).
"""
import argparse, os, socket, subprocess, sys, tempfile, threading, time

from pythonosc import osc_message_builder

from fuzz_bench import free_port, start_jack  # beside this file

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PODIUM = os.path.join(ROOT, ".build", "release", "podium")
ORCHESTRA = """nchnls = 2
0dbfs = 1
instr 1
  a1 oscili 0.05, p4
  outs a1, a1
endin
"""


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def start_podium(command, who, patience, stdin=None, stdout=subprocess.PIPE, stderr=subprocess.STDOUT):
    """`podium play` started, once it says "OSC on"; its output lines are collected as they come
    (the process and the list). Ends the bench with those lines if it does not start in time."""
    p = subprocess.Popen(command, stdin=stdin, stdout=stdout, stderr=stderr, text=True)
    lines, ready = [], threading.Event()

    def read():
        for line in (p.stdout if stdout == subprocess.PIPE else p.stderr):
            lines.append(line)
            if "OSC on" in line:
                ready.set()
    threading.Thread(target=read, daemon=True).start()
    if not ready.wait(patience):
        p.kill()
        sys.exit(f"{who}: podium did not start:\n" + "".join(lines[-30:]))
    return p, lines


def event(i):
    m = osc_message_builder.OscMessageBuilder(address="/podium/event")
    for a in (1, 0.0, 0.02, 220.0 + (i % 200)):
        m.add_arg(a)
    return m.build().dgram


def run(podium, server, orchestra, extra, events, rate, sessions):
    port = free_port()
    p, err = start_podium([podium, "play", orchestra, "--server", server, "--no-connect", "--osc-port", str(port), "--no-repl",
                           "--no-watch", "--quiet", "--sessions", sessions] + extra, "memory_bench", patience=30,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    samples = []
    start = time.monotonic()
    marks = {1000} | {events * k // 5 for k in range(1, 6)}
    for i in range(1, events + 1):
        sock.sendto(event(i), ("127.0.0.1", port))
        if i in marks:
            time.sleep(0.3)  # what was sent is applied and journaled
            samples.append((i, rss_mb(p.pid)))
        delay = start + i / rate - time.monotonic()
        if delay > 0:
            time.sleep(delay)
    p.terminate()
    p.wait(30)
    log = 0
    for dirpath, _, files in os.walk(sessions):
        log += sum(os.path.getsize(os.path.join(dirpath, f)) for f in files if f == "events.log")
    return samples, log, "".join(err)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=100_000)
    ap.add_argument("--rate", type=float, default=4000)
    ap.add_argument("--podium", default=PODIUM)
    ap.add_argument("--compare", help="another podium binary, run the same way (default session settings)")
    ap.add_argument("--session-only", action="store_true", help="only the default run (a session), e.g. for a 10-minute stream")
    a = ap.parse_args()
    name = f"podium-bench-mem-{os.getpid()}"
    jack, _ = start_jack(name)
    work = tempfile.mkdtemp(prefix="podium-memory-")
    orchestra = os.path.join(work, "steady.orc")
    with open(orchestra, "w") as f:
        f.write(ORCHESTRA)
    runs = [("this podium, a session (default)", a.podium, [])]
    if not a.session_only:
        runs.append(("this podium, --no-session", a.podium, ["--no-session"]))
    if a.compare:
        runs.append((f"{os.path.relpath(a.compare, ROOT) if a.compare.startswith(ROOT) else a.compare}", a.compare, []))
    try:
        print(f"### Resident memory under a steady event stream ({a.events} OSC events at {a.rate:.0f}/s, {a.events / a.rate / 60:.1f} minutes)")
        print()
        fifths = [a.events * k // 5 for k in range(1, 6)]
        print("| run | RSS after 1000 events | " + " | ".join(f"after {n}" for n in fifths) + " | growth after the first fifth | events.log |")
        print("|---|---:|" + "---:|" * len(fifths) + "---:|---:|")
        for label, binary, extra in runs:
            sessions = tempfile.mkdtemp(prefix="s-", dir=work)
            samples, log, err = run(binary, name, orchestra, extra, a.events, a.rate, sessions)
            values = dict(samples)
            first = values[1000]
            cells = " | ".join(f"{values[n]:.1f} MB" for n in fifths)
            # The first fifth warms up (Csound's instance pools, the allocator); after it a
            # journal kept in memory keeps growing, a streamed one does not.
            print(f"| {label} | {first:.1f} MB | {cells} | {values[fifths[-1]] - values[fifths[0]]:+.1f} MB | {log / 1e6:.1f} MB |")
        print()
    finally:
        jack.terminate()
        jack.wait()
        subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
