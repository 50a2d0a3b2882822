#!/usr/bin/env python3
"""Memory over a long set (issue 57): `podium play --dirt` with four pattern slots on samples
from the REPL, SuperDirt messages at --dirt-rate a second (samples and synths, several orbits),
OSC channel sets at --chn-rate a second (a TouchOSC fader), and a hot swap of the orchestra file
every --swap seconds, for --minutes minutes. The process's VmRSS is read every minute; the table
says its growth after the warm-up (the first two minutes), and what the performance counted.
"""
import argparse, os, socket, subprocess, tempfile, time

from pythonosc import osc_message_builder

from fuzz_bench import free_port, start_jack  # beside this file
from memory_bench import rss_mb, start_podium

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PODIUM = os.path.join(ROOT, ".build", "release", "podium")
ORCHESTRA = """nchnls = 2
0dbfs = 1
instr 1 ; podium: freq amp
  kcut chnget "cut"
  a1 vco2 p5 * 0.3, p4
  a1 moogladder a1, 400 + kcut * VERSION, 0.3
  aenv linseg 0, 0.005, 1, p3 - 0.01, 1, 0.005, 0
  outs a1 * aenv, a1 * aenv
endin
"""
SLOTS = [
    'd1 $ s "[bd*2 [~ bd] ~ bd, ~ sn ~ sn]" # gain 0.9 # orbit 0',
    'd2 $ s "hh*16?" # gain "0.7 0.5" # pan sine # orbit 1',
    'd3 $ every 2 (fast 2) $ s "~ cp" # room 0.3 # size 0.7 # orbit 2',
    'd4 $ n "0 [3 7] <5 10> 12" # s "1" # legato 0.5 # gain 0.8',
]


def dirt(i):
    m = osc_message_builder.OscMessageBuilder(address="/dirt/play")
    sound = ["hh", "bd", "superpiano", "supersaw", "cp"][i % 5]
    for a in ("s", sound, "n", float(i % 12), "orbit", i % 4, "gain", 0.6, "legato", 0.2,
              "cps", 0.5625, "cycle", i / 200.0, "delta", 0.1, "cutoff", 800.0 + 40 * (i % 50)):
        m.add_arg(a)
    return m.build().dgram


def chn(i):
    m = osc_message_builder.OscMessageBuilder(address="/podium/chn/cut")
    m.add_arg((i % 1000) / 1000.0)
    return m.build().dgram


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=float, default=30)
    ap.add_argument("--dirt-rate", type=float, default=200)
    ap.add_argument("--chn-rate", type=float, default=1000)
    ap.add_argument("--swap", type=float, default=20)
    ap.add_argument("--podium", default=PODIUM)
    args = ap.parse_args()
    name = f"podium-bench-set-{os.getpid()}"
    jack, realtime = start_jack(name)
    work = tempfile.mkdtemp(prefix="podium-set-")
    orc = os.path.join(work, "set.orc")
    version = 0

    def write_orchestra():
        with open(orc + ".tmp", "w") as f:
            f.write(ORCHESTRA.replace("VERSION", str(2000 + 10 * (version % 50))))
        os.replace(orc + ".tmp", orc)
    write_orchestra()
    osc, dirt_port = free_port(), free_port()
    try:
        p, out = start_podium([args.podium, "play", orc, "--server", name, "--no-connect", "--osc-port", str(osc),
                               "--dirt", "--dirt-port", str(dirt_port), "--sessions", os.path.join(work, "sessions")],
                              "set_soak", patience=60, stdin=subprocess.PIPE)
    except SystemExit:
        jack.kill()
        raise
    for line in SLOTS:
        p.stdin.write(line + "\n")
    p.stdin.flush()
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    start = time.monotonic()
    end = start + args.minutes * 60
    rows = [(0, rss_mb(p.pid))]
    next_minute, next_swap = start + 60, start + args.swap
    sent_dirt = sent_chn = 0
    while time.monotonic() < end and p.poll() is None:
        now = time.monotonic()
        while sent_dirt < (now - start) * args.dirt_rate:
            sock.sendto(dirt(sent_dirt), ("127.0.0.1", dirt_port))
            sent_dirt += 1
        while sent_chn < (now - start) * args.chn_rate:
            sock.sendto(chn(sent_chn), ("127.0.0.1", osc))
            sent_chn += 1
        if now >= next_swap:
            version += 1
            write_orchestra()
            next_swap += args.swap
        if now >= next_minute:
            rows.append((round((now - start) / 60), rss_mb(p.pid)))
            next_minute += 60
        time.sleep(0.002)
    alive = p.poll() is None
    if alive:
        p.stdin.write(":status\n")
        p.stdin.flush()
        time.sleep(1)
        p.stdin.write(":quit\n")
        p.stdin.flush()
        try:
            p.wait(30)
        except subprocess.TimeoutExpired:
            p.kill()
    jack.terminate()
    warm = next((r for m, r in rows if m >= 2), rows[-1][1])
    print(f"### A set's memory: {args.minutes:g} minutes of podium play --dirt (4 pattern slots on samples, "
          f"{args.dirt_rate:g} SuperDirt messages/s, {args.chn_rate:g} OSC channel sets/s, a hot swap every {args.swap:g} s; "
          f"jackd {'-R' if realtime else '-r'} dummy, period 256)")
    print()
    print("| minute | " + " | ".join(str(m) for m, _ in rows) + " |")
    print("|---" * (len(rows) + 1) + "|")
    print("| RSS MB | " + " | ".join(f"{r:.1f}" for _, r in rows) + " |")
    print()
    print(f"Growth after the warm-up (minute 2 → {rows[-1][0]}): {rows[-1][1] - warm:+.1f} MB; "
          f"{sent_dirt} SuperDirt messages, {sent_chn} channel sets, {version} hot swaps; podium {'alive at the end' if alive else 'ENDED: ' + ''.join(out[-20:])}")
    status = [l.strip() for l in out if l.startswith("callbacks ") or "xruns" in l][-1:]
    if status:
        print()
        print("Its last :status line: " + status[0])


if __name__ == "__main__":
    main()
