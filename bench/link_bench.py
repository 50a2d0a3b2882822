#!/usr/bin/env python3
"""Ableton Link: two linked `podium play` hosts on one `jackd -d dummy`, Csound's own Link
opcodes in the csound CLI, and an aalink peer.

Every process that enables Link runs in one of two network namespaces made here and joined by
a veth pair (multicast never leaves the machine); JACK is not namespaced, so both hosts and
`jack_rec` share one server and one frame clock. Reported:
  onsets    the same `@beat` note sent to both hosts, N times per tempo: the difference of their
            onsets in one recording (B − A, ms: median, spread, worst)
  adoption  a tempo change on one host until the other's clock has it; the same from an aalink
            peer (polled every 10 ms: the numbers are upper bounds)
  drift     both hosts linked for --minutes (default 10): a note on both every --every seconds,
            the onset difference over time, and the phase corrections each host made
Run as root (ip netns). Usage: link_bench.py [--podium PATH] [--minutes M] [--every S] [--notes N]
"""
import argparse, array, os, re, shutil, statistics, subprocess, sys, tempfile, time, uuid, wave

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEER = os.path.join(ROOT, "Tests", "PodiumTests", "Fixtures", "link_peer.py")
ORCHESTRA = os.path.join(ROOT, "Tests", "PodiumTests", "Fixtures", "link_steps.csd")
# Seen a peer (a host that just quit may still be counted for a few seconds: Link's peer TTL).
PEERED = r"^link on, [1-9][0-9]* peers?"
CSOUND_PEER = os.path.join(ROOT, "bench", "link_csound_peer.csd")
# Only this plugin of Debian's csound-plugins, unpacked by `scripts/setup release bench`.
CSOUND_LINK = os.path.join(ROOT, ".build", "csound-link", "libableton_link_opcodes.so")
CSOUND_BUFFERS = ("256", "1024")  # -b, -B: the csound CLI's defaults


def sh(*args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


class Namespaces:
    """Two namespaces joined by a veth pair, multicast routed over it; removed by close()."""

    def __init__(self):
        tag = uuid.uuid4().hex[:6]
        self.names = [f"plb-a-{tag}", f"plb-b-{tag}"]
        for n in self.names:
            sh("ip", "netns", "add", n)
            sh("ip", "netns", "exec", n, "ip", "link", "set", "lo", "up")
        sh("ip", "link", "add", f"va{tag}", "netns", self.names[0], "type", "veth", "peer", "name", f"vb{tag}", "netns", self.names[1])
        for n, dev, host in ((self.names[0], f"va{tag}", 1), (self.names[1], f"vb{tag}", 2)):
            for cmd in (["ip", "addr", "add", f"10.78.0.{host}/24", "dev", dev], ["ip", "link", "set", dev, "multicast", "on"],
                        ["ip", "link", "set", dev, "up"], ["ip", "route", "add", "224.0.0.0/4", "dev", dev]):
                sh("ip", "netns", "exec", n, *cmd)

    def close(self):
        for n in self.names:
            subprocess.run(["ip", "netns", "delete", n], stderr=subprocess.DEVNULL)


class Child:
    """A process driven line by line (stdin), its stdout collected by a reader thread."""

    def __init__(self, argv):
        import threading
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=open(os.path.join(tempfile.gettempdir(), "podium-link-bench.err"), "a"), text=True, bufsize=1)
        self.lines = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.lines.append(line.rstrip("\n"))

    def say(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def ask(self, line, match, timeout, every=0.01):
        start, n = time.monotonic(), len(self.lines)
        while time.monotonic() - start < timeout:
            if line:
                self.say(line)
            time.sleep(every)
            hit = [l for l in self.lines[n:] if (match(l) if callable(match) else re.search(match, l))]
            if hit:
                return hit[-1], time.monotonic() - start
        return None, None

    def close(self, quit_line):
        if not quit_line:  # the csound CLI: SIGTERM can leave it hung in its exit handlers
            self.p.kill()
            self.p.wait(10)
            return
        try:
            self.say(quit_line)
            self.p.stdin.close()
            self.p.wait(10)
        except Exception:
            self.p.kill()


def tempo_is(target):
    """A `:tempo` reply at `target` BPM (Link carries tempo as µs per beat: 133 → 133.00006)."""
    def match(line):
        m = re.match(r"^tempo ([0-9.]+) BPM", line)
        return bool(m) and abs(float(m.group(1)) - target) < 0.01
    return match


def onsets(samples, threshold=0.01):
    out, was = [], False
    for i, v in enumerate(samples):
        loud = abs(v) > threshold
        if loud and not was and i > 0:
            out.append(i)
        was = loud
    return out


def record(server, seconds, path, ports=("poda:out_1", "podb:out_1")):
    return subprocess.Popen(["jack_rec", "-f", path, "-d", str(seconds), "-b", "16", *ports],
                            env={**os.environ, "JACK_DEFAULT_SERVER": server}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def read(path):
    """The two channels of jack_rec's 16-bit WAV, as floats."""
    with wave.open(path) as w:
        data = array.array("h", w.readframes(w.getnframes()))
    return [x / 32768 for x in data[0::2]], [x / 32768 for x in data[1::2]]


def differences(a, b, frames_per_beat):
    """B's onsets against A's: the nearest, modulo a beat (a line read on either side of a beat line)."""
    out = []
    for ob in b:
        if not a:
            break
        oa = min(a, key=lambda x: abs(x - ob))
        d = ob - oa
        out.append(d - round(d / frames_per_beat) * frames_per_beat)
    return out


def row(label, d):
    ms = [x / 48.0 for x in d]
    if not ms:
        return f"| {label} | 0 | – | – | – |"
    return f"| {label} | {len(ms)} | {statistics.median(ms):+.3f} | {max(ms) - min(ms):.3f} | {max(abs(x) for x in ms):.3f} |"


def send_notes(hosts, n, beat):
    """The same `@beat` note to every host, n times, a new beat each time."""
    for i in range(n):
        time.sleep(beat * (1.1 + (i % 3) * 0.3))
        for h in hosts:
            h.say("@beat i2 0 0.25 0.5")


def csound_table(o, ns, server, tmp, host, children):
    """Csound's own Link opcodes (csound CLI on JACK, namespace B) against podium (namespace A)."""
    b, big = CSOUND_BUFFERS
    print()
    print(f"### Csound's own Link opcodes (csound-plugins link_metro, csound CLI on JACK, ksmps 16, -b {b} -B {big}) against a linked podium host")
    print()
    if not os.path.exists(CSOUND_LINK):
        print(f"not measured: {CSOUND_LINK} is missing (scripts/setup release bench unpacks it from Debian's csound-plugins)")
        print()
        return
    print("| clicks at | n | median csound − podium (ms) | spread (ms) | worst abs (ms) |")
    print("|---|---:|---:|---:|---:|")
    crashes = 0
    for tempo in (90, 120, 175):
        pod = host(0, "poda", tempo)
        # A JACK client name of its own each time: the last csound (killed) may still be known
        # to the server, and a csound whose name is taken waited without ever linking.
        # The csound CLI with these opcodes sometimes aborts soon after it starts ("corrupted size
        # vs. prev_size in fastbins", glibc): counted, and started again (three tries).
        linked = False
        for attempt in range(3):
            client = f"csdlink{tempo}{'abc'[attempt]}"
            cs = Child(["ip", "netns", "exec", ns.names[1], "env", f"JACK_DEFAULT_SERVER={server}", "csound", "-d", "-m0", "-+rtaudio=jack",
                        f"-+jack_client={client}", "-odac", "-b", b, "-B", big, f"--opcode-lib={CSOUND_LINK}", CSOUND_PEER])
            children.append((cs, ""))
            linked = pod.ask(":link", PEERED, 20)[0] is not None and cs.p.poll() is None
            if linked or cs.p.poll() is None:
                break
            crashes += 1
            children.remove((cs, ""))
        if not linked:
            print(f"| {tempo} BPM | 0 | podium did not see csound within 20 s | – | – |")
            pod.close(":quit")
            cs.close("")
            children.clear()
            continue
        time.sleep(1.2)
        pod.say(f":tempo {tempo}")  # the session takes podium's tempo whichever founded it
        time.sleep(1.5)
        beat = 60 / tempo
        seconds = int(o.notes * beat * 1.6 + 3)
        wav = os.path.join(tmp, f"csound{tempo}.wav")
        rec = record(server, seconds, wav, ("poda:out_1", f"{client}:output1"))
        time.sleep(0.5)
        send_notes([pod], o.notes, beat)
        rec.wait(seconds + 10)
        sp, sc = read(wav)
        print(row(f"{tempo} BPM", [-d for d in differences(onsets(sc), onsets(sp), 48000 * beat)]))
        pod.close(":quit")
        cs.close("")
        children.clear()
    if crashes:
        print(f"\n(csound aborted as it started {crashes} time{'s' if crashes > 1 else ''}: \"corrupted size vs. prev_size in fastbins\"; started again)")
    print()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--podium", default=os.path.join(ROOT, ".build", "release", "podium"))
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--every", type=float, default=20)
    ap.add_argument("--notes", type=int, default=12)
    o = ap.parse_args()
    if os.getuid() != 0:
        sys.exit("link_bench: needs root (ip netns)")
    tmp = tempfile.mkdtemp(prefix="podium-link-bench-")
    orc = ORCHESTRA
    server = f"podium-link-bench-{os.getpid()}"
    jack = subprocess.Popen(["jackd", "-n", server, "-r", "-d", "dummy", "-r", "48000", "-p", "256"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1)
    ns = Namespaces()
    children = []

    def host(i, name, tempo):
        c = Child(["ip", "netns", "exec", ns.names[i], o.podium, "play", orc, "--server", server, "--name", name, "--no-connect",
                   "--no-osc", "--no-watch", "--no-session", "--link", "--tempo", str(tempo)])
        children.append((c, ":quit"))
        return c

    try:
        print("### Ableton Link: two linked podium hosts on one JACK server (dummy, 48 kHz, period 256)")
        print()
        print("| notes at | n | median B − A (ms) | spread (ms) | worst abs (ms) |")
        print("|---|---:|---:|---:|---:|")
        adoption = []
        for tempo in (90, 120, 175):
            a, b = host(0, "poda", tempo), host(1, "podb", tempo)
            for c in (a, b):
                if c.ask(":link", PEERED, 30)[0] is None:
                    raise SystemExit(f"link_bench: the hosts did not see each other: {c.lines[-1:]}")
            time.sleep(1.5)
            beat = 60 / tempo
            seconds = int(o.notes * beat * 1.6 + 3)
            wav = os.path.join(tmp, f"notes{tempo}.wav")
            rec = record(server, seconds, wav)
            time.sleep(0.5)
            send_notes([a, b], o.notes, beat)
            rec.wait(seconds + 10)
            sa, sb = read(wav)
            print(row(f"{tempo} BPM", differences(onsets(sa), onsets(sb), 48000 * beat)))
            if tempo == 120:
                for target in (133, 97, 150, 110, 128):
                    time.sleep(1.2)  # Link's audio thread keeps its own commit for a second
                    a.say(f":tempo {target}")
                    _, t = b.ask(":tempo", tempo_is(target), 5)
                    adoption.append(("host → host", t))
            for c in (a, b):
                c.close(":quit")
            children.clear()
        csound_table(o, ns, server, tmp, host, children)
        peer_ns = ns.names[0]
        pod = host(0, "poda", 120)
        peer = Child(["ip", "netns", "exec", peer_ns, "python3", PEER, "120"])
        children.append((peer, "quit"))
        pod.ask(":link", PEERED, 30)
        for target in (133, 97, 150, 110, 128):
            time.sleep(1.2)
            peer.say(f"tempo {target}")
            _, t = pod.ask(":tempo", tempo_is(target), 5)
            adoption.append(("aalink → podium", t))
        pod.close(":quit")
        peer.close("quit")
        children.clear()
        print()
        print("| tempo change | n | median (ms) | worst (ms) |")
        print("|---|---:|---:|---:|")
        for kind in ("host → host", "aalink → podium"):
            ts = [t * 1000 for k, t in adoption if k == kind and t is not None]
            missed = sum(1 for k, t in adoption if k == kind and t is None)
            print(f"| {kind} | {len(ts)}{f' ({missed} not within 5 s)' if missed else ''} | {statistics.median(ts):.0f} | {max(ts):.0f} |" if ts else f"| {kind} | 0 | – | – |")
        print()

        # Drift: both hosts linked for o.minutes, a note on both every o.every seconds.
        a, b = host(0, "poda", 120), host(1, "podb", 120)
        for c in (a, b):
            c.ask(":link", PEERED, 30)
        time.sleep(1.5)
        seconds = int(o.minutes * 60 + 5)
        wav = os.path.join(tmp, "drift.wav")
        rec = record(server, seconds, wav)
        time.sleep(1)
        start = time.monotonic()
        while time.monotonic() - start < o.minutes * 60 - o.every / 2:
            a.say("@beat i2 0 0.25 0.5")
            b.say("@beat i2 0 0.25 0.5")
            time.sleep(o.every)
        states = [c.ask(":link", r"^link on", 5)[0] for c in (a, b)]
        rec.wait(seconds + 30)
        sa, sb = read(wav)
        d = differences(onsets(sa), onsets(sb), 24000)
        print(f"### Drift: two hosts linked for {o.minutes:g} minutes at 120 BPM, a note on both every {o.every:g} s")
        print()
        print("| notes | first B − A (ms) | last B − A (ms) | worst abs (ms) | host A | host B |")
        print("|---:|---:|---:|---:|---|---|")
        corr = [re.search(r"followed .*", s or "").group(0) if s and "followed" in s else "?" for s in states]
        if d:
            print(f"| {len(d)} | {d[0] / 48:+.3f} | {d[-1] / 48:+.3f} | {max(abs(x) for x in d) / 48:.3f} | {corr[0]} | {corr[1]} |")
        print()
    finally:
        for c, q in children:
            c.close(q)
        ns.close()
        jack.terminate()
        jack.wait(10)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
