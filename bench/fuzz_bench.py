#!/usr/bin/env python3
"""Bad input against a running `podium play`, with a control run of good input at the same rate.

Two runs of `podium play bench/orchestras/fuzz.csd` on one `jackd -d dummy` (real-time
scheduling when this machine allows it, as on stage), each recording its output:
  control  sensible OSC (fader moves, short notes) at RATE messages per second
  fuzz     the fuzzer's nearly valid OSC (COUNT datagrams at RATE) and, alongside, a tenth as
           many csound --port text packets
Reported per run: how podium ended (a crash is a signal), JACK client drops (reconnects),
xruns, the longest callback, silenced and clipped output, non-finite samples and the peak in
the recording, and whether podium still answers /podium/status once the fuzz is over.
"""
import argparse, array, json, math, os, re, shutil, socket, subprocess, sys, tempfile, time

from pythonosc import osc_message_builder

import podium_bench  # beside this file: its sox reader

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PODIUM = os.path.join(ROOT, ".build", "release", "podium")
FUZZER = os.path.join(ROOT, "Tests", "PodiumTests", "Fixtures", "input_fuzz.py")
BENCH = os.path.join(ROOT, ".build", "release", "podium-bench")
ORCHESTRA = os.path.join(ROOT, "bench", "orchestras", "fuzz.csd")


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def asks_status(port, patience=30.0):
    """Seconds until podium answers /podium/status once the input has stopped (None: not
    within `patience`), asked from a socket that waits for the reply."""
    message = osc_message_builder.OscMessageBuilder(address="/podium/status").build().dgram
    start = time.monotonic()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        s.settimeout(0.5)
        while time.monotonic() - start < patience:
            s.sendto(message, ("127.0.0.1", port))
            try:
                while True:
                    if b"/podium/status.reply" in s.recv(65536):
                        return time.monotonic() - start
            except socket.timeout:
                continue
    return None


def start_jack(name):
    realtime = subprocess.run(["chrt", "-f", "10", "true"], capture_output=True).returncode == 0
    jack = subprocess.Popen(["jackd", "-n", name, "-R" if realtime else "-r", "-d", "dummy", "-r", "48000", "-p", "256"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.5)
    return jack, realtime


def samples(path):
    a = array.array("f")
    a.frombytes(podium_bench.samples(path))
    return a


def one_run(kind, server, count, rate, seed, tmp, control_server):
    osc_port, text_port = free_port(), free_port()
    sessions = os.path.join(tmp, kind)
    seconds = count / rate
    # The datagrams are made before the window (a Python fuzzer costs a third of a CPU at
    # 10,000/s): in the window the control and the fuzz cost the sender the same, a sendto each.
    streams = [("control", osc_port, count, seed, rate)] if kind == "control" else \
        [("osc", osc_port, count, seed, rate), ("text", text_port, count // 10, seed + 1, rate / 10)]
    files = []
    for what, port, n, s, r in streams:
        path = os.path.join(tmp, f"{kind}-{what}.bin")
        subprocess.run([sys.executable, FUZZER, "make", what, str(n), str(s), path], check=True)
        files.append((port, path, r))
    # The machine's own share: an idle client on a second server of the same period, over the
    # same window (`podium-bench idle-xruns`, a process of its own: libjack keeps one server per process).
    idle = subprocess.Popen([BENCH, "idle-xruns", "--server", control_server, "--seconds", f"{seconds + 4.5:.1f}"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) if control_server else None
    cmd = [PODIUM, "play", ORCHESTRA, "--server", server, "--jack-server", "none", "--no-connect", "--no-repl",
           "--no-watch", "--quiet", "--osc-port", str(osc_port), "--csound-port", str(text_port), "--record",
           "--sessions", sessions, "--duration", f"{seconds + 60:.0f}", "--name", f"podium-{kind}"]
    podium = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    time.sleep(2.5)
    senders = [subprocess.Popen([sys.executable, FUZZER, "send", str(port), path, str(r)], stderr=subprocess.PIPE, text=True)
               for port, path, r in files]
    sent = {}
    for s in senders:
        _, err = s.communicate()
        try:
            sent.update(json.loads(err.strip().splitlines()[-1]))
        except (ValueError, IndexError):
            pass
    for _, path, _ in files:
        os.remove(path)
    idle_xruns = None
    if idle:
        out, _ = idle.communicate(timeout=seconds + 60)
        idle_xruns = int(out.strip().splitlines()[-1]) if out.strip() else None
    answers = asks_status(osc_port)
    podium.terminate()  # SIGTERM: a clean stop, statistics printed
    _, err = podium.communicate(timeout=seconds + 120)
    stopped = next((l for l in err.splitlines() if "stopped." in l), "")
    with open(os.path.join(tmp, f"{kind}.stderr"), "w") as f:
        f.write(err)

    def stat(label):
        m = re.search(label + r" (\d+)", stopped)
        return int(m.group(1)) if m else None

    longest = re.search(r"max (\d+) µs of (\d+) µs(?: \(k-cycle \d+, CPU (\d+) µs)?", stopped)
    wavs = [os.path.join(d, f) for d, _, fs in os.walk(sessions) for f in fs if f == "audio.wav"]
    audio = samples(wavs[0]) if wavs else array.array("f")
    nonfinite = sum(1 for x in audio if not math.isfinite(x))
    peak = max((abs(x) for x in audio if math.isfinite(x)), default=0.0)
    return {
        "run": kind, "sent": sum(v for k, v in sent.items() if k != "total"), "seconds": seconds,
        "exit": podium.returncode, "drops": err.count("reconnect"), "xruns": stat("xruns"), "idle": idle_xruns,
        "longest": (f"{longest.group(1)} of {longest.group(2)}" + (f" ({longest.group(3)})" if longest.group(3) else "")) if longest else "?",
        "silenced": stat("silenced k-cycles"), "clipped": stat("clipped samples"),
        "nonfinite": nonfinite, "peak": peak, "answers": answers, "kinds": sent,
        "budget": int(m.group(1)) if (m := re.search(r"compiles refused by the budget[^:]*: (\d+)", err)) else 0,
        "error": "" if stopped else err[-400:], "stopped": stopped,
    }


def answered(r):
    return "NO" if r["answers"] is None else f"{r['answers']:.2f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--messages", type=int, default=1_000_000)
    ap.add_argument("--rate", type=float, default=10_000)
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--keep", help="keep the runs' sessions (events.log, audio) and podium's stderr in this directory")
    ap.add_argument("--runs", default="control,fuzz", help="which runs (control,fuzz)")
    a = ap.parse_args()
    name = f"podium-fuzz-{os.getpid()}"
    jack, realtime = start_jack(name)
    control, _ = start_jack(name + "-idle") if os.access(BENCH, os.X_OK) else (None, None)
    tmp = a.keep or tempfile.mkdtemp()
    os.makedirs(tmp, exist_ok=True)
    try:
        rows = [one_run(kind, name, a.messages, a.rate, a.seed, tmp, name + "-idle" if control else None) for kind in a.runs.split(",")]
    finally:
        for j in [jack, control]:
            if j:
                j.terminate()
                j.wait()
        if not a.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"### Bad input: {a.messages:,} fuzzed OSC messages (+ {a.messages // 10:,} csound-port packets) "
          f"at {a.rate:,.0f}/s vs a control of good input at the same rate "
          f"(period 256, jackd {'-R' if realtime else '-r'})\n")
    print("(xruns of an idle client: a client that does nothing, on a second server of the same period, over the same "
          "window — what the machine's scheduling does by itself under that run's load. Longest callback: wall time, "
          "and the CPU time of that callback.)\n")
    print("| run | messages | exit | client drops | xruns | xruns of an idle client | longest callback µs (CPU) | silenced k-cycles | clipped samples "
          "| non-finite samples | peak | compiles refused by the budget | answers /podium/status after the input, s |")
    print("|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---|")
    for r in rows:
        idle = "?" if r["idle"] is None else r["idle"]
        print(f"| {r['run']} | {r['sent']:,} | {r['exit']} | {r['drops']} | {r['xruns']} | {idle} | {r['longest']} | {r['silenced']} "
              f"| {r['clipped']} | {r['nonfinite']} | {r['peak']:.3f} | {r['budget']:,} | {answered(r)} |")
    fuzz = rows[-1]["kinds"]
    print("\nFuzz by kind: " + ", ".join(f"{k} {v:,}" for k, v in sorted(fuzz.items()) if k != "total") + "\n")
    if os.environ.get("FUZZ_BENCH_VERBOSE"):
        for r in rows:
            print(f"{r['run']}: {r['stopped']}\n")
    for r in rows:
        if r["error"]:
            print(f"{r['run']}: podium did not report its end: {r['error']}\n")


if __name__ == "__main__":
    main()
