#!/usr/bin/env python3
"""netJACK2: what playing into another machine's JACK graph costs in latency.

A master `jackd -d dummy` with `jack_load netmanager` in one network namespace, `podium play
--jack-server net` (Tests/PodiumTests/Fixtures/echo.csd: input 1 to output 1 in the same
k-cycle) in another, joined by a veth pair (nothing leaves the machine). JACK's own
`jack_iodelay` on the master measures the round trip of a signal: on the master alone, then
sent to the slave, through Podium and back. Reported per --net-latency: both round trips and
what netJACK2 adds (frames, periods, ms). Run as root (ip netns).
Usage: netjack_bench.py [--podium PATH] [--period N] [--latencies 1,2,5]
"""
import argparse, os, re, subprocess, sys, time, uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ECHO = os.path.join(ROOT, "Tests", "PodiumTests", "Fixtures", "echo.csd")


def sh(*args, env=None, check=True):
    return subprocess.run(args, check=check, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def jack_env(server):
    return dict(os.environ, JACK_DEFAULT_SERVER=server)


def wait(condition, seconds):
    end = time.time() + seconds
    while time.time() < end:
        if condition():
            return True
        time.sleep(0.1)
    return False


def round_trip(path, seconds=15):
    """The latest jack_iodelay measurement once two in a row agree (frames), or None."""
    def values():
        text = open(path, errors="replace").read()
        return [float(m) for m in re.findall(r"([0-9.]+) frames\s+[0-9.]+ ms total roundtrip latency", text)]
    start = len(values())
    found = []
    def agreed():
        v = values()[start:]
        if len(v) >= 2 and v[-1] == v[-2]:
            found.append(v[-1])
            return True
        return False
    return found[0] if wait(agreed, seconds) else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--podium", default=os.path.join(ROOT, ".build", "release", "podium"))
    ap.add_argument("--period", type=int, default=256)
    ap.add_argument("--latencies", default="1,2,5")
    a = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("netjack_bench: run as root (ip netns)")
    tag = uuid.uuid4().hex[:6]
    ns = [f"pnj-m-{tag}", f"pnj-s-{tag}"]
    master = f"podium-bench-netmaster-{tag}"
    procs = []
    try:
        for n in ns:
            sh("ip", "netns", "add", n)
            sh("ip", "netns", "exec", n, "ip", "link", "set", "lo", "up")
        sh("ip", "link", "add", f"nm{tag}", "netns", ns[0], "type", "veth", "peer", "name", f"ns{tag}", "netns", ns[1])
        for n, dev, host in ((ns[0], f"nm{tag}", 1), (ns[1], f"ns{tag}", 2)):
            sh("ip", "netns", "exec", n, "ip", "addr", "add", f"10.79.0.{host}/24", "dev", dev)
            sh("ip", "netns", "exec", n, "ip", "link", "set", dev, "up")
        jackd = subprocess.Popen(["ip", "netns", "exec", ns[0], "jackd", "-n", master, "-d", "dummy", "-r", "48000", "-p", str(a.period)],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        procs.append(jackd)
        if not wait(lambda: sh("jack_lsp", env=jack_env(master), check=False).returncode == 0, 10):
            sys.exit("netjack_bench: the master jackd did not start")
        sh("ip", "netns", "exec", ns[0], "jack_load", "-s", master, "netmanager")
        log = f"/tmp/podium-netjack-bench-{tag}.iodelay"
        iodelay = subprocess.Popen(["stdbuf", "-o0", "jack_iodelay"], stdout=open(log, "w"), stderr=subprocess.DEVNULL, env=jack_env(master))
        procs.append(iodelay)
        wait(lambda: "jack_delay:out" in sh("jack_lsp", env=jack_env(master), check=False).stdout, 5)
        sh("jack_connect", "jack_delay:out", "jack_delay:in", env=jack_env(master))
        alone = round_trip(log)
        sh("jack_disconnect", "jack_delay:out", "jack_delay:in", env=jack_env(master))
        ms = lambda frames: frames / 48.0
        print(f"### netJACK2: round trip through Podium on another machine (jack_iodelay on the master; period {a.period}, 48 kHz)")
        print()
        print("| --net-latency | master alone (frames) | through Podium (frames) | netJACK2 adds | |")
        print("|---:|---:|---:|---:|---:|")
        for latency in [int(x) for x in a.latencies.split(",")]:
            name = f"podnet{latency}"
            pod = subprocess.Popen(["ip", "netns", "exec", ns[1], a.podium, "play", ECHO, "--jack-server", "net", "--net-master", "10.79.0.1",
                                    "--net-latency", str(latency), "--server", f"podium-bench-netslave-{tag}", "--name", name,
                                    "--no-watch", "--no-session", "--no-web", "--no-osc", "--no-repl"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            procs.append(pod)
            if not wait(lambda: f"{name}:from_slave_1" in sh("jack_lsp", env=jack_env(master), check=False).stdout, 30):
                print(f"| {latency} | {alone} | (the slave did not join) | | |")
                pod.kill()
                continue
            time.sleep(1)
            sh("jack_connect", "jack_delay:out", f"{name}:to_slave_1", env=jack_env(master))
            sh("jack_connect", f"{name}:from_slave_1", "jack_delay:in", env=jack_env(master))
            through = round_trip(log)
            pod.terminate()
            try:
                pod.wait(10)
            except subprocess.TimeoutExpired:
                pod.kill()
            wait(lambda: f"{name}:" not in sh("jack_lsp", env=jack_env(master), check=False).stdout, 10)
            if alone is None or through is None:
                print(f"| {latency} | {alone} | {through} | (no measurement) | |")
                continue
            added = through - alone
            print(f"| {latency} | {alone:.0f} ({ms(alone):.1f} ms) | {through:.0f} ({ms(through):.1f} ms) | {added:.0f} frames | {added / a.period:.1f} periods, {ms(added):.1f} ms |")
        print()
    finally:
        for p in reversed(procs):
            if p.poll() is None:
                p.kill()
                p.wait()
        for n in ns:
            subprocess.run(["ip", "netns", "delete", n], stderr=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
