#!/usr/bin/env python3
"""A third-party OSC sender for Podium's tests (python-osc).

  osc_client.py [--bind IP] PORT message ADDRESS ARG...          one message
  osc_client.py [--bind IP] PORT bundle UNIXTIME ADDRESS ARG...   one message in a timetagged bundle
  osc_client.py [--bind IP] PORT bundles UNIXTIME STEP_S COUNT ADDRESS ARG...
  osc_client.py [--bind IP] PORT garbage COUNT SEED               random and mutated datagrams
  osc_client.py [--bind IP] PORT ask ADDRESS ARG...               send, print the first reply
  osc_client.py [--bind IP] PORT await SECONDS ADDRESS ARG...     send, print replies until /podium/done or /podium/fail
                                                                  ("SECONDS_TAKEN ADDRESS ARGS"), within SECONDS
  osc_client.py [--bind IP] PORT seq SECONDS ADDRESS ARG... -- ADDRESS ARG...
                                                                  send the messages back to back from one socket, print
                                                                  every reply that arrives within SECONDS
  osc_client.py [--bind IP] PORT listen SECONDS [UNTIL]           subscribe, print what arrives (until a
                                                                  line holds UNTIL and a second went by,
                                                                  at most SECONDS)
  osc_client.py [--bind IP] PORT stream COUNT HZ SECONDS ADDRESS ARG...
                                                                  subscribe, send COUNT messages at HZ (a controller
                                                                  streaming), print what arrives until SECONDS after
  osc_client.py [--bind IP] PORT serve                            read "MODE ARG..." lines from stdin, answer "ok"
                                                                  (a warm client: no start-up delay per send)

Arguments: ints stay ints, numbers with a dot are floats, i:N forces int32, f:N float, d:N double, s:TEXT string.
"""
import random, socket, sys, time
from pythonosc import osc_bundle_builder, osc_message_builder, udp_client
from pythonosc.osc_message import OscMessage


def typed(arg):
    if arg.startswith("d:"): return ("d", float(arg[2:]))
    if arg.startswith("i:"): return int(arg[2:])
    if arg.startswith("f:"): return float(arg[2:])
    if arg.startswith("s:"): return arg[2:]
    try: return int(arg)
    except ValueError: pass
    try: return float(arg)
    except ValueError: return arg


def message(address, args):
    b = osc_message_builder.OscMessageBuilder(address=address)
    for a in args:
        v = typed(a)
        if isinstance(v, tuple):
            b.add_arg(v[1], v[0])
            continue
        b.add_arg(v, "f" if isinstance(v, float) else ("i" if isinstance(v, int) else "s"))
    return b.build()


def subscribed(sock, target, seconds, count=0, hz=1.0, data=None, until=None):
    """Subscribes, sends `data` COUNT times at HZ, prints what arrives until SECONDS after the
    last send (times: absolute when only listening, else from the first send), unsubscribes."""
    sock.settimeout(0.01)
    sock.sendto(message("/podium/subscribe", []).dgram, target)
    start, sent = time.time(), 0
    origin = start if count else 0.0
    seen, heard, asked = False, False, start
    while True:
        now = time.time()
        if seen and now > start + 1: break  # UNTIL came (and a second of feedback at least)
        # Until something comes, the subscription is sent again every 0.25 s: a performance
        # started beside this client may not have bound its port yet.
        if not heard and now > asked + 0.25:
            sock.sendto(message("/podium/subscribe", []).dgram, target)
            asked = now
        if sent < count and now >= start + sent / hz:
            sock.sendto(data, target)
            sent += 1
        if sent >= count and now > start + count / hz + seconds: break
        try:
            got, _ = sock.recvfrom(65536)
        except socket.timeout:
            continue
        heard = True
        m = OscMessage(got)
        line = " ".join(str(v) for v in (f"{time.time() - origin:.4f}", m.address, *m.params))
        print(line, flush=True)
        seen = seen or (until is not None and until in line)
    sock.sendto(message("/podium/unsubscribe", []).dgram, target)


def main():
    run(sys.argv[1:])


def run(argv):
    bind = None
    if argv[0] == "--bind":
        bind, argv = argv[1], argv[2:]
    port, mode, rest = int(argv[0]), argv[1], argv[2:]
    if mode == "serve":
        prefix = (["--bind", bind] if bind else []) + [str(port)]
        for line in sys.stdin:
            run(prefix + line.split())
            print("ok", flush=True)
        return
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    if bind: sock.bind((bind, 0))
    target = ("127.0.0.1" if not bind or bind.startswith("127.") else bind, port)
    if mode == "message":
        sock.sendto(message(rest[0], rest[1:]).dgram, target)
    elif mode in ("bundle", "bundles"):
        when = float(rest[0])
        step, count, rest2 = (float(rest[1]), int(rest[2]), rest[3:]) if mode == "bundles" else (0.0, 1, rest[1:])
        for k in range(count):
            bb = osc_bundle_builder.OscBundleBuilder(when + k * step)
            bb.add_content(message(rest2[0], rest2[1:]))
            sock.sendto(bb.build().dgram, target)
    elif mode == "garbage":
        count, rng = int(rest[0]), random.Random(int(rest[1]))
        good = [message("/podium/chn/freq", ["f:440"]).dgram, message("/podium/event", ["i:2", "f:0", "f:0.01", "f:0"]).dgram,
                message("/1/fader1", ["f:0.5"]).dgram]
        for i in range(count):
            if i % 2:
                d = bytearray(rng.choice(good))
                for _ in range(rng.randint(1, 4)):
                    d[rng.randrange(len(d))] = rng.randrange(256)
                d = bytes(d[: rng.randint(1, len(d))])
            else:
                d = bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))
            sock.sendto(d, target)
            if i % 500 == 499: time.sleep(0.002)  # paced: stay within the socket buffer
    elif mode == "listen":
        subscribed(sock, target, float(rest[0]), until=rest[1] if len(rest) > 1 else None)
    elif mode == "stream":
        count, hz, seconds = int(rest[0]), float(rest[1]), float(rest[2])
        subscribed(sock, target, seconds, count, hz, message(rest[3], rest[4:]).dgram)
    elif mode == "ask":
        sock.settimeout(2)
        sock.sendto(message(rest[0], rest[1:]).dgram, target)
        data, _ = sock.recvfrom(65536)
        m = OscMessage(data)
        print(m.address, *m.params)

    elif mode == "await":
        limit = float(rest[0])
        started = time.monotonic()
        sock.settimeout(limit)
        sock.sendto(message(rest[1], rest[2:]).dgram, target)
        while time.monotonic() - started < limit:
            data, _ = sock.recvfrom(65536)
            m = OscMessage(data)
            print("%.3f" % (time.monotonic() - started), m.address, *m.params, flush=True)
            if m.address in ("/podium/done", "/podium/fail"):
                break

    elif mode == "seq":
        limit = float(rest[0])
        messages, current = [], []
        for word in rest[1:] + ["--"]:
            if word == "--":
                if current: messages.append(current)
                current = []
            else:
                current.append(word)
        for m in messages:
            sock.sendto(message(m[0], m[1:]).dgram, target)
        started = time.monotonic()
        sock.settimeout(0.1)
        while time.monotonic() - started < limit:
            try:
                data, _ = sock.recvfrom(65536)
            except socket.timeout:
                continue
            m = OscMessage(data)
            print(m.address, *m.params, flush=True)


if __name__ == "__main__":
    main()
