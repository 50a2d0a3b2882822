#!/usr/bin/env python3
"""Nearly valid input for every Podium surface: mutated OSC messages, csound-port packets and
REPL/script lines (the test suite sends a bounded number, bench/run fuzz a million).

  input_fuzz.py osc PORT COUNT SEED [RATE]     OSC datagrams to 127.0.0.1:PORT
  input_fuzz.py text PORT COUNT SEED [RATE]    csound --port packets to 127.0.0.1:PORT
  input_fuzz.py lines COUNT SEED               REPL/script lines on stdout, one per line
  input_fuzz.py control PORT COUNT SEED [RATE]  the control: sensible OSC at the same rate
                                               (short notes and channel sets a performer sends)

  input_fuzz.py make KIND COUNT SEED FILE      KIND (osc, text, control) made ahead into FILE
  input_fuzz.py send PORT FILE [RATE]          FILE's datagrams to 127.0.0.1:PORT

RATE is messages per second (default 10000). At the end a JSON object on stderr counts what
was sent by kind. `make` and `send` keep the making out of the measured window: the benchmark's
control and fuzz then cost the sender the same (a sendto per datagram). Nothing here ends a performance on purpose: `##close##`, `:quit` and
`:record` are explicit commands and are never generated; everything else is fair game.
"""
import json, math, random, socket, struct, sys, time
from collections import Counter

from pythonosc import osc_message_builder

SPECIAL = [math.nan, math.inf, -math.inf, 1e300, -1e300, 2.0 ** 63, -(2.0 ** 63), 1e19, -1e19, 0.0, -0.0,
           1e-300, 2.0 ** 31, -(2.0 ** 31) - 1, 1e6, -1.0, 3.4e38, 5e-324]
INT_SPECIAL = [0, -1, 1, 2 ** 31 - 1, -(2 ** 31), 2 ** 63 - 1, -(2 ** 63), 65536, 1000000]
SCORE_TOKENS = ["i", "f", "e", "s", "t", "a", "b", "m", "n", "r", "x", "q", "v", "y", "w", "{", "}", "[", "]", "~",
                "@", "+", ".", "<", ">", "np", "pp", "$", "#", "!", "\"", "i1", "i2", "i-1", "i1.5", "i\"beep\"",
                "i 1", "f1", "f 7 0 1024 10 1", "f 0", "f -1", "0", "1", "0.5", "-1", "1e19", "nan", "inf",
                "-inf", "1e300", "440", "a4", "ma4", "c#5", "Bb-1", "chord", "scale", "c4", "maj7", "dix",
                "major", "blues", "hz", "midi", "\n", ";", "/*", "*/", "//", "\\", "ZZZ", "-0", "2^63",
                "9223372036854775808", "0x10", "1,2", "(", ")"]
ORC = ["instr 9\n a1 oscili 0.1, 440\n outs a1, a1\nendin\n", "gkX init 1\n", "instr 10\n k1 = p4\nendin\n",
       "giT ftgen 0, 0, 1024, 10, 1\n", "opcode Twice, k, k\n kx xin\n xout kx*2\nendop\n"]


def osc(address, args):
    b = osc_message_builder.OscMessageBuilder(address=address)
    for tag, value in args:
        b.add_arg(value, tag)
    return bytes(b.build().dgram)


def number(rng, tag=None):
    tag = tag or rng.choice("ffffdi")
    if tag == "i":
        v = rng.choice(INT_SPECIAL + [rng.randint(-5, 5)])
        return ("h" if not -(2 ** 31) <= v < 2 ** 31 else "i", v)
    v = rng.choice(SPECIAL) if rng.random() < 0.4 else rng.uniform(-2, 1000)
    if tag == "f":
        try:
            struct.pack(">f", v)
        except OverflowError:
            tag = "d"
    return (tag, v)


def score_text(rng):
    lines = []
    for _ in range(rng.choice([1, 1, 1, 2, 3, 8])):
        lines.append(" ".join(rng.choice(SCORE_TOKENS) for _ in range(rng.randint(1, 9))))
    return "\n".join(lines)


def mutate_text(rng, text):
    t = list(text)
    for _ in range(rng.randint(1, 4)):
        k = rng.randrange(len(t) + 1)
        op = rng.random()
        if op < 0.4 and t:
            del t[min(k, len(t) - 1)]
        elif op < 0.8:
            t.insert(k, rng.choice("{}()[]\"/*;#$@%&\n\\ 0123456789ie.-x"))
        elif t:
            t[min(k, len(t) - 1)] = chr(rng.randrange(1, 0x2FF))
    return "".join(t)


def valid_message(rng):
    """A message a controller or editor could really send, with plausible or extreme values."""
    kind = rng.randrange(16)
    if kind < 4:
        p1 = rng.choice([("i", 1), ("i", 2), ("s", "beep"), ("d", -1.0), ("f", 1.5), ("s", "nosuch"), ("i", 99)])
        return osc("/podium/event", [p1] + [number(rng) for _ in range(rng.randint(0, 5))])
    if kind < 6:
        return osc(rng.choice(["/podium/score", "/csound/event"]), [("s", score_text(rng))])
    if kind < 9:
        name = rng.choice(["freq", "freq", "level", "button", "fader1", "label", "meter", "nosuch", "podium.merged"])
        arg = ("s", mutate_text(rng, "loud")) if name == "label" and rng.random() < 0.5 else number(rng)
        return osc(rng.choice(["/podium/chn/", "/csound/channel/"]) + name, [arg])
    if kind < 11:
        address, n = rng.choice([("/1/fader1", 1), ("/3/xy", 2), ("/4/multitoggle/2/3", 1), ("/accxyz", 3), ("/2/push1", 1)])
        return osc(address, [number(rng, "f") for _ in range(n)])
    if kind == 11:
        return osc(rng.choice(["/podium/status", "/podium/subscribe", "/podium/unsubscribe", "/podium/reload"]), [])
    if kind == 12:
        return osc(rng.choice(["/podium/preset/save", "/podium/preset/load"]),
                   [("s", rng.choice(["a", "../../etc/passwd", "", "x" * 300, "b.c", "/tmp/x"]))])
    if kind == 13:
        return osc(rng.choice(["/podium/tempo", "/podium/quant", "/podium/link"]), [number(rng)])
    return osc("/podium/chn/freq", [("f", rng.uniform(100, 1000))])


def control_datagram(rng, counts):
    """What a busy controller sends on a good night: fader moves and short quiet notes."""
    if rng.random() < 0.1:
        counts["control notes"] += 1
        return osc("/podium/event", [("i", 2), ("f", 0.0), ("f", 0.01), ("f", rng.uniform(0, 0.05))])
    counts["control channel sets"] += 1
    return osc("/podium/chn/" + rng.choice(["level", "fader1", "button"]), [("f", rng.random())])


def wildcard(rng):
    address = rng.choice(["/podium/*", "/podium/chn/*", "/*/fader1", "/podium/{event,score}", "/podium/ev?nt",
                          "/[a-z]*/x", "/podium/chn/[!a]req", "//", "/", "*", "/podium/chn/", "/podium/chn/freq/extra"])
    return osc(address, [number(rng)])


def bundle(rng, contents, timetag=None):
    if timetag is None:
        now = time.time() + 2208988800
        timetag = rng.choice([0, 1, 2 ** 64 - 1, int((now + 1e6) * 2 ** 32), int((now - 1e6) * 2 ** 32),
                              int((now + rng.uniform(0.001, 0.3)) * 2 ** 32), int((now - rng.uniform(0, 2)) * 2 ** 32),
                              rng.randrange(2 ** 64)])
    out = b"#bundle\x00" + struct.pack(">Q", timetag % 2 ** 64)
    for c in contents:
        size = len(c) if rng.random() < 0.9 else rng.choice([0, 3, 2 ** 31 - 1, 2 ** 32 - 1, len(c) + 4, len(c) - 4])
        out += struct.pack(">I", size % 2 ** 32) + c
    return out


def wrong_tags(rng, data):
    """The same bytes with another type-tag string of the same padded length."""
    start = data.find(b",")
    if start < 0:
        return data
    end = data.find(b"\x00", start)
    tags = "," + "".join(rng.choice("ifdshtTFNIcrmb[]") for _ in range(end - start - 1))
    return data[:start] + tags.encode() + data[end:]


def osc_datagram(rng, counts):
    r = rng.random()
    if r < 0.20:
        counts["osc valid, extreme values"] += 1
        return valid_message(rng)
    if r < 0.35:
        counts["osc bit flips"] += 1
        d = bytearray(valid_message(rng))
        for _ in range(rng.randint(1, 4)):
            d[rng.randrange(len(d))] ^= 1 << rng.randrange(8)
        return bytes(d)
    if r < 0.45:
        counts["osc truncated"] += 1
        d = valid_message(rng)
        return d[: rng.randrange(1, len(d))]
    if r < 0.55:
        counts["osc wrong type tags"] += 1
        return wrong_tags(rng, valid_message(rng))
    if r < 0.63:
        counts["osc wildcard addresses"] += 1
        return wildcard(rng)
    if r < 0.78:
        counts["osc bundles, absurd timetags and sizes"] += 1
        return bundle(rng, [valid_message(rng) for _ in range(rng.randint(0, 4))])
    if r < 0.86:
        counts["osc nested bundles"] += 1
        d = valid_message(rng)
        for _ in range(rng.randint(1, 6)):
            d = bundle(rng, [d])
        return d
    if r < 0.94:
        counts["osc score text from random tokens"] += 1
        return osc(rng.choice(["/podium/score", "/csound/event"]), [("s", score_text(rng))])
    if r < 0.9999:
        counts["osc random bytes"] += 1
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))
    counts["osc mutated orchestra code"] += 1
    return osc(rng.choice(["/podium/orc", "/csound/compile"]), [("s", mutate_text(rng, rng.choice(ORC)))])


def text_packet(rng, counts):
    r = rng.random()
    if r < 0.35:
        counts["text score lines"] += 1
        return ("&" if rng.random() < 0.7 else "$") + score_text(rng)
    if r < 0.55:
        counts["text channel values"] += 1
        tag, v = number(rng, "d")
        return f"@{rng.choice(['freq', 'level', 'nosuch', ''])} {rng.choice([repr(v), 'abc', '', '1 2'])}"
    if r < 0.62:
        counts["text string channels"] += 1
        return f"%{rng.choice(['label', 'freq', 'nosuch'])} {mutate_text(rng, 'a string')}"
    if r < 0.68:
        counts["text queries"] += 1
        return f":{rng.choice('@%')}{rng.choice(['freq', 'label', 'x'])} 127.0.0.1 {rng.choice(['9', '0', '70000', 'x'])}"
    if r < 0.88:
        counts["text mutated packets"] += 1
        p = mutate_text(rng, rng.choice(["&i1 0 1 440", "@freq 440", "%label x", "$i2 0 0.1 0.1"]))
        return p if p.strip() != "##close##" else "&"
    if r < 0.9998:
        counts["text random bytes"] += 1
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 80)))
    counts["text mutated orchestra code"] += 1
    return rng.choice(["{{", "}}", ""]) + mutate_text(rng, rng.choice(ORC))


def repl_line(rng, counts):
    r = rng.random()
    if r < 0.40:
        counts["lines score"] += 1
        return score_text(rng).replace("\n", " ")
    if r < 0.60:
        counts["lines :set/:get"] += 1
        tag, v = number(rng, "d")
        return f":{rng.choice(['set', 'set', 'get', 'reset'])} {rng.choice(['freq', 'level', 'label', 'nosuch', ''])} {rng.choice([repr(v), 'abc', ''])}"
    if r < 0.72:
        counts["lines helpers"] += 1
        root = rng.choice(["c4", "a4", "x9", "Bb-1", "c99", ""])
        return f"{rng.choice(['chord', 'scale'])} {root} {rng.choice(['maj7', 'blues', 'dix', ''])} {repr(number(rng, 'd')[1])} {rng.choice(['1', '-1', 'nan', '0'])} {rng.choice(['1', '2', 'beep', ''])}"
    if r < 0.80:
        counts["lines timed"] += 1
        # Piped input waits for a line's time: kept to a few milliseconds, or invalid.
        return f"@{rng.choice(['0', '0.001', '-1', 'nan', 'inf', '1e300', '-0', 'x', '0.002'])} i2 0 0.01 0.1"
    if r < 0.90:
        counts["lines commands"] += 1
        return rng.choice([":help", ":channels", ":instruments", ":status", ":chord", ":learn nosuch", ":preset load ../x",
                           ":load /nonexistent.orc", ":tempo " + repr(number(rng, "d")[1]), ":quant -1", ":stop nosuch", ":loops", ":"])
    counts["lines mutated"] += 1
    return mutate_text(rng, rng.choice(["i1 0 1 440", ":set freq 440", "chord c4 maj7 0 1", "gkX init 1"]))


def encoded(d):
    """A datagram as bytes, cut to what UDP carries."""
    return (d.encode("utf-8", "surrogatepass") if isinstance(d, str) else d)[:65000]


def send_paced(port, datagrams, rate, counts):
    """Sends each datagram to 127.0.0.1:PORT, RATE a second (paced every 100)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    target = ("127.0.0.1", port)
    start = time.monotonic()
    for i, d in enumerate(datagrams):
        try:
            sock.sendto(d, target)
        except OSError:
            counts["send failed"] += 1
        if i % 100 == 99:
            ahead = start + (i + 1) / rate - time.monotonic()
            if ahead > 0:
                time.sleep(ahead)


def main():
    mode = sys.argv[1]
    counts = Counter()
    if mode == "lines":
        count, rng = int(sys.argv[2]), random.Random(int(sys.argv[3]))
        out = sys.stdout
        for _ in range(count):
            line = repl_line(rng, counts)
            if line.strip() in (":quit", ":q") or line.strip().startswith(":record"):
                line = ":status"
            out.write(line.replace("\r", " ") + "\n")
        out.flush()
    elif mode == "make":
        kind, count, rng, path = sys.argv[2], int(sys.argv[3]), random.Random(int(sys.argv[4])), sys.argv[5]
        make = {"osc": osc_datagram, "text": text_packet, "control": control_datagram}[kind]
        with open(path, "wb") as f:
            for _ in range(count):
                d = encoded(make(rng, counts))
                f.write(struct.pack(">I", len(d)) + d)
        counts["total"] = count
        with open(path + ".json", "w") as f:
            json.dump(dict(counts), f, sort_keys=True)
        return
    elif mode == "send":
        port, path = int(sys.argv[2]), sys.argv[3]
        rate = float(sys.argv[4]) if len(sys.argv) > 4 else 10000.0
        with open(path, "rb") as f:
            data = f.read()
        datagrams, at = [], 0
        while at < len(data):
            (n,) = struct.unpack_from(">I", data, at)
            datagrams.append(data[at + 4:at + 4 + n])
            at += 4 + n
        with open(path + ".json") as f:
            counts = Counter(json.load(f))
        send_paced(port, datagrams, rate, counts)
    else:
        port, count, rng = int(sys.argv[2]), int(sys.argv[3]), random.Random(int(sys.argv[4]))
        rate = float(sys.argv[5]) if len(sys.argv) > 5 else 10000.0
        make = {"osc": osc_datagram, "text": text_packet, "control": control_datagram}[mode]
        send_paced(port, (encoded(make(rng, counts)) for _ in range(count)), rate, counts)
        counts["total"] = count
    print(json.dumps(dict(counts), sort_keys=True), file=sys.stderr)


if __name__ == "__main__":
    main()
