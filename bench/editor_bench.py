#!/usr/bin/env python3
"""The editor's costs (`bench/run editor`), against a real `podium play` on a dummy JACK server:

  1. keystroke → the other page: two headless Chromium pages on one buffer; 100 keystrokes 30 ms
     apart on one, each timed from its keydown to the text applied in the other's CodeMirror
     (both pages read performance.timeOrigin + now(): one clock). p50, p99, max.
  2. evaluation → merged: an `instr … endin` evaluated from the page (Ctrl-Enter's message on
     /ws) until its answer (the compile merged), against the same text sent as OSC /podium/orc
     until /podium/done: the page's own cost is the difference. 20 of each, alternating.
  3. 50 pages open (each on /ws and on /collab/patterns, reading everything) while a pattern plays
     and one page types, against none: podium's callback p99 and longest (its stop line) and the
     xruns, in two runs of the same length.
  `editor_bench.py relay [UPDATES [RATE]]`: the relay under a long edit history (50,000 updates at
     450 a second by default), a newcomer's sync, and a page that never reads (`bench/run editor relay`).
  `editor_bench.py soak MINUTES`: three pages typing and evaluating for that long, podium's RSS
     every 10 s and its slope after the first minute (`bench/run editor soak 10`).
Prints markdown tables.
"""
import json, os, re, socket, statistics, subprocess, sys, tempfile, threading, time

import websocket
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains

PODIUM = os.environ.get("PODIUM_EXECUTABLE", ".build/release/podium")
ORC = """nchnls = 1
0dbfs = 1
instr bd ; podium: amp
  aLevel linseg p4, p3, 0
  out aLevel
endin
instr 5
  out oscili(0.1, 440)
endin
"""


def free_port(kind=socket.SOCK_STREAM):
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Podium:
    def __init__(self, server, work, seconds):
        self.web, self.osc = free_port(), free_port(socket.SOCK_DGRAM)
        self.token = "benchtoken"
        orc = os.path.join(work, "set.orc")
        with open(orc, "w") as f:
            f.write(ORC)
        self.p = subprocess.Popen([PODIUM, "play", orc, "--server", server, "--jack-server", "none", "--no-connect", "--no-repl",
                                   "--web-port", str(self.web), "--web-token", self.token, "--osc-port", str(self.osc),
                                   "--no-session", "--no-samples", "--duration", str(seconds)],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines = []
        threading.Thread(target=self.read, daemon=True).start()
        end = time.time() + 30
        while not any("the editor" in l for l in self.lines):
            if time.time() > end or self.p.poll() is not None:
                raise SystemExit("podium did not start: " + "".join(self.lines[-20:]))
            time.sleep(0.05)
        self.base = f"http://127.0.0.1:{self.web}"

    def read(self):
        for line in self.p.stdout:
            self.lines.append(line)

    def ws(self, path):
        return websocket.create_connection(f"ws://127.0.0.1:{self.web}{path}{'&' if '?' in path else '?'}token={self.token}",
                                           origin=self.base)

    def stop(self):
        self.p.wait(timeout=60)
        time.sleep(0.2)
        return "".join(self.lines)


def browser():
    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/bin/chromium"
    for a in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1100,760"]:
        o.add_argument(a)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)


def open_editor(d, base, token, name):
    d.get(f"{base}/editor?token={token}&name={name}&trace=1#patterns")
    end = time.time() + 20
    while not d.execute_script("return !!window.podiumEditor && Object.values(podiumEditor.buffers).every(b => b.room.state === 'synced')"):
        if time.time() > end:
            raise SystemExit("the editor did not sync")
        time.sleep(0.05)


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def keystrokes(pod):
    a, b = browser(), browser()
    try:
        open_editor(a, pod.base, pod.token, "ana")
        open_editor(b, pod.base, pod.token, "ben")
        a.execute_script("podiumEditor.show('patterns'); const cm = podiumEditor.buffers.patterns.cm; cm.focus(); cm.setCursor({line: 0, ch: 0})")
        for i in range(100):
            ActionChains(a).send_keys("abcdefghij"[i % 10]).perform()
            time.sleep(0.03)
        time.sleep(1)
        letters = "abcdefghij"
        sent = [t for t in a.execute_script("return podiumEditor.trace") if t.get("key") and t["key"] in letters]
        got = [t for t in b.execute_script("return podiumEditor.trace") if t.get("text") and t["text"] in letters]
        # In order, each keystroke with the first change after it that carries its letter.
        lat, j = [], 0
        for s_ in sent:
            while j < len(got) and (got[j]["t"] < s_["t"] or got[j]["text"] != s_["key"]):
                j += 1
            if j == len(got):
                break
            lat.append(got[j]["t"] - s_["t"])
            j += 1
        return len(lat), lat
    finally:
        a.quit()
        b.quit()


def evaluations(pod):
    page = pod.ws("/ws")
    page.recv()
    osc = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    osc.bind(("127.0.0.1", 0))
    osc.settimeout(10)
    page_ms, osc_ms = [], []

    def oscmsg(address, text):
        def pad(b):
            return b + b"\0" * (4 - len(b) % 4)
        return pad(address.encode()) + pad(b",s") + pad(text.encode())
    for i in range(20):
        time.sleep(0.5)  # the compile budget: at most 5 compiles a second
        code = f"instr 5\n  out oscili(0.1, {440 + i})\nendin"
        t = time.perf_counter()
        page.send(json.dumps({"type": "eval", "id": i + 1, "buffer": "orchestra", "text": code, "line": 7, "name": "bench"}))
        while True:
            m = json.loads(page.recv())
            if m.get("type") == "evaluated" and m.get("id") == i + 1:
                if not m.get("ok"):
                    raise SystemExit(f"the page's evaluation was refused: {m}")
                break
        page_ms.append((time.perf_counter() - t) * 1000)
        time.sleep(0.5)
        code = f"instr 5\n  out oscili(0.1, {460 + i})\nendin"
        t = time.perf_counter()
        osc.sendto(oscmsg("/podium/orc", code), ("127.0.0.1", pod.osc))
        while True:
            data, _ = osc.recvfrom(65536)
            if data.startswith(b"/podium/fail"):
                raise SystemExit(f"the OSC compile was refused: {data!r}")
            if data.startswith(b"/podium/done"):
                break
        osc_ms.append((time.perf_counter() - t) * 1000)
    page.close()
    return page_ms, osc_ms


def podium_pid(pid):
    """The podium process: `pid` itself, or its child when a wrapper (a profiler) started it."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            kids = [int(k) for k in f.read().split()]
    except OSError:
        kids = []
    with open(f"/proc/{pid}/comm") as f:
        own = f.read().strip()
    return pid if own == "podium" or not kids else next((k for k in kids if open(f"/proc/{k}/comm").read().strip() == "podium"), kids[0])


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def soak(server, work, minutes):
    """Three Chromium pages on one performance for `minutes`: each types into the patterns
    buffer (a line a second, half of them then deleted), evaluates its own slot every 5 s
    (`d1`…`d3`, dense patterns), while the stage page's roll, lit steps and scope run; podium's
    RSS every 10 s. Returns the samples (minutes, MiB)."""
    seconds = minutes * 60
    # It ends by itself soon after the pages (so a profiler around it writes its data).
    pod = Podium(server, work, seconds + 15)
    pages = [browser() for _ in range(3)]
    samples = []
    try:
        for i, d in enumerate(pages):
            open_editor(d, pod.base, pod.token, f"p{i}")
        start = time.time()
        k = 0
        while time.time() - start < seconds:
            for i, d in enumerate(pages):
                d.execute_script(
                    "podiumEditor.show('patterns'); const cm = podiumEditor.buffers.patterns.cm;"
                    "const n = cm.lineCount(); cm.replaceRange(arguments[0] + '\\n', {line: n, ch: 0});"
                    "if (arguments[1]) { const m = cm.lineCount(); if (m > 40) cm.replaceRange('', {line: 0, ch: 0}, {line: 20, ch: 0}) }",
                    f'-- p{i} line {k}: d{i + 1} $ s "bd*{4 + k % 5} [~ sn]" # speed "<1 2>"', k % 2 == 0)
                if k % 5 == 0:
                    pattern = ['d1 $ s "bd*8 [~ sn]" # amp 0.2', 'd2 $ n "0 .. 7" # s "bd" # amp 0.1 # legato 0.3',
                               'd3 $ jux rev $ s "[bd bd*2, bd*4]" # amp 0.1'][i]
                    d.execute_script("window.podiumHooks && window.podiumHooks.evaluate('patterns', arguments[0], 1)", pattern)
            if k % 10 == 0:
                samples.append(((time.time() - start) / 60, rss_mib(podium_pid(pod.p.pid))))
            k += 1
            time.sleep(1)
        samples.append(((time.time() - start) / 60, rss_mib(podium_pid(pod.p.pid))))
    finally:
        for d in pages:
            d.quit()
        pod.p.wait(timeout=120)
    return samples


def stats_line(out):
    m = re.search(r"podium: stopped\. (.*)", out)
    return m.group(1) if m else "no stop line"


def load_run(server, work, pages, seconds=12):
    pod = Podium(server, work, seconds)
    socks = []
    try:
        page = pod.ws("/ws")
        page.recv()
        page.send(json.dumps({"type": "eval", "id": 1, "buffer": "patterns", "text": 'd1 $ s "bd*8" # amp 0.3 # legato 0.5', "line": 1, "name": "bench"}))
        for _ in range(pages):
            for path in ("/ws", "/collab/patterns?name=p"):
                s = pod.ws(path)
                socks.append(s)

        def drain(s):
            try:
                while True:
                    s.recv()
            except Exception:
                pass
        for s in socks:
            threading.Thread(target=drain, args=(s,), daemon=True).start()
        out = pod.stop()
    finally:
        for s in socks:
            try:
                s.close()
            except Exception:
                pass
    return stats_line(out)


def dummy_server():
    """A dummy JACK server of the bench's own name, and a work folder."""
    server = f"bench-editor-{os.getpid()}"
    jackd = subprocess.Popen(["jackd", "-n", server, "-r", "-d", "dummy", "-r", "48000", "-p", "256"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.5)
    return server, jackd, tempfile.mkdtemp(prefix="podium-bench-editor-")


def soak_main(minutes):
    server, jackd, work = dummy_server()
    try:
        samples = soak(server, work, minutes)
    finally:
        jackd.terminate()
        jackd.wait()
    print(f"### Editor: three pages typing and evaluating for {minutes} minutes: podium's RSS\n")
    print("| minute | RSS (MiB) |\n|---:|---:|")
    for m, r in samples:
        print(f"| {m:.1f} | {r:.1f} |")
    later = [r for m, r in samples if m >= 1]
    if len(later) >= 2:
        first, last = later[0], later[-1]
        span = samples[-1][0] - next(m for m, r in samples if m >= 1)
        print(f"\nAfter the first minute: {first:.1f} → {last:.1f} MiB ({(last - first) / max(span, 1e-9):+.2f} MiB a minute)")


FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "PodiumTests", "Fixtures")


def relay_client(pod, name, args, timeout=600):
    """Tests/PodiumTests/Fixtures/relay_client.py against the patterns buffer: its stdout."""
    url = f"ws://127.0.0.1:{pod.web}/collab/patterns?token={pod.token}&name={name}"
    r = subprocess.run([sys.executable, os.path.join(FIXTURES, "relay_client.py"), url] + args,
                       capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        raise SystemExit(f"relay_client {args[0]}: {r.stderr[-800:]}")
    return r.stdout


def relay_main(updates, rate):
    """The relay under a long edit history, without a browser: one page types `updates` Yjs
    updates (made by Debian's node-yjs) at `rate` a second and never answers `compact`, so
    Podium compacts the room itself; then a new page joins (its frames and time to sync), and
    a page that reads nothing while another sends 48 awareness frames of 1 MiB. Podium's RSS
    before and after each."""
    server, jackd, work = dummy_server()
    typed = os.path.join(work, "typed.hex")
    with open(typed, "w") as f:
        f.write(subprocess.run(["node", os.path.join(FIXTURES, "yjs_updates.cjs"), "typing", str(updates), "7"],
                               env=dict(os.environ, NODE_PATH="/usr/share/nodejs"), capture_output=True, text=True, check=True).stdout)
    seconds = updates / rate + 120
    pod = Podium(server, work, seconds)
    try:
        pid = podium_pid(pod.p.pid)
        rss0 = rss_mib(pid)
        t = time.time()
        relay_client(pod, "typist", ["type", typed, str(updates), str(rate), "0"], timeout=seconds)
        typing_s = time.time() - t
        rss1 = rss_mib(pid)
        joined = relay_client(pod, "newcomer", ["join"])
        frames = re.search(r"log frames (\d+)", joined).group(1)
        sync_ms = re.search(r"sync ms (\d+)", joined).group(1)
        deaf = subprocess.Popen([sys.executable, os.path.join(FIXTURES, "relay_client.py"),
                                 f"ws://127.0.0.1:{pod.web}/collab/patterns?token={pod.token}&name=deaf", "deaf", "40"])
        time.sleep(1)
        relay_client(pod, "loud", ["awareness", "48", str(1 << 20)])
        time.sleep(3)
        rss2 = rss_mib(pid)
        deaf.kill()
        deaf.wait()
        pod.p.terminate()
        out = pod.stop()
    finally:
        if pod.p.poll() is None:
            pod.p.kill()
        jackd.terminate()
        jackd.wait()
    print(f"### Editor relay: {updates} updates typed by one page at {rate:.0f} a second, never compacted by a page; a newcomer joins; a page that never reads beside 48 awareness frames of 1 MiB\n")
    print("| updates | typing (s) | RSS before (MiB) | after typing | newcomer's frames | newcomer's sync (ms) | after the deaf page | relay's counters |")
    print("|---:|---:|---:|---:|---:|---:|---:|---|")
    counters = re.search(r"podium: editor: ([^\n]*)", out)
    print(f"| {updates} | {typing_s:.0f} | {rss0:.1f} | {rss1:.1f} | {frames} | {sync_ms} | {rss2:.1f} | {counters.group(1) if counters else '—'} |")


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "soak":
        return soak_main(float(sys.argv[2]))
    if len(sys.argv) > 1 and sys.argv[1] == "relay":
        return relay_main(int(sys.argv[2]) if len(sys.argv) > 2 else 50000, float(sys.argv[3]) if len(sys.argv) > 3 else 450)
    server, jackd, work = dummy_server()
    try:
        pod = Podium(server, work, 60)
        n, lat = keystrokes(pod)
        page_ms, osc_ms = evaluations(pod)
        pod.p.terminate()
        pod.p.wait()
        print("### Editor: keystroke → the other page (two headless Chromium pages, 100 keystrokes 30 ms apart)\n")
        print("| keystrokes matched | p50 (ms) | p99 (ms) | max (ms) |\n|---:|---:|---:|---:|")
        print(f"| {n} of 100 | {pct(lat, 50):.1f} | {pct(lat, 99):.1f} | {max(lat):.1f} |" if lat else "| 0 | — | — | — |")
        print("\n### Editor: an instr evaluated from the page until merged, against the same compile over OSC (20 each, alternating)\n")
        print("| path | p50 (ms) | p90 (ms) | max (ms) |\n|---|---:|---:|---:|")
        print(f"| page `eval` → `evaluated` | {pct(page_ms, 50):.1f} | {pct(page_ms, 90):.1f} | {max(page_ms):.1f} |")
        print(f"| OSC `/podium/orc` → `/podium/done` | {pct(osc_ms, 50):.1f} | {pct(osc_ms, 90):.1f} | {max(osc_ms):.1f} |")
        print("\n### Editor: 50 pages open (each on /ws and /collab/patterns) while `bd*8` plays, against none (12 s each)\n")
        print("| pages | podium's stop line |\n|---:|---|")
        for pages in (0, 50):
            print(f"| {pages} | {load_run(server, work, pages)} |")
        print()
    finally:
        jackd.terminate()
        jackd.wait()


if __name__ == "__main__":
    main()
