#!/usr/bin/env python3
"""Malformed and hostile WebSocket traffic for Podium's stage page (websocket-client, PyPI).

  web_fuzz.py WS_URL COUNT SEED        COUNT messages: broken JSON, wrong types, unknown channels,
                                       out-of-range and non-finite values, binary frames, huge
                                       strings; prints "sent N replies M"
  web_fuzz.py WS_URL deaf SECONDS      a client that never reads while it sends valid sets
  web_fuzz.py WS_URL big BYTES         one message of BYTES (an unknown type padded to size), then
                                       a probe: prints "big BYTES answered" when the connection
                                       stayed open and both were answered
"""
import json, random, sys, time
import websocket

def messages(rng, channels):
    good = {"type": "set", "channel": rng.choice(channels), "value": 0.5}
    kinds = [
        lambda: "".join(chr(rng.randrange(1, 0x7f)) for _ in range(rng.randrange(0, 60))),
        lambda: json.dumps(good)[: rng.randrange(1, 30)],
        lambda: json.dumps({"type": rng.choice(["set", "momentary", "score", "tempo", "motion", "nope", 3, None])}),
        lambda: json.dumps({"type": "set", "channel": rng.choice(channels + ["nosuch", "podium.tempo", "", "x" * 500]), "value": rng.choice([1e308, -1e308, 1e20, -5, 7, "1", None, [1]])}),
        lambda: '{"type":"set","channel":"%s","value":%s}' % (rng.choice(channels), rng.choice(["NaN", "Infinity", "-Infinity", "1e999", "0x10"])),
        lambda: json.dumps({"type": "score", "text": rng.choice(["i1 0 1", "e", "i 9999 0 1", "f 1 0 -5 10 1", "x" * 5000, "@bar i1 0 nan"])}),
        lambda: json.dumps({"type": "tempo", "value": rng.choice([0, -1, 1e9, 2000, "fast"])}),
        lambda: json.dumps({"type": "motion", "values": {"accelerometerX": rng.choice([1e300, -1e300, "x", None])}}),
        lambda: json.dumps([1, 2, 3]),
        lambda: bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))),
    ]
    while True:
        yield rng.choice(kinds)()

def main():
    url = sys.argv[1]
    if sys.argv[2] == "deaf":
        ws = websocket.create_connection(url)
        end = time.time() + float(sys.argv[3])
        n = 0
        while time.time() < end:
            ws.send(json.dumps({"type": "tempo", "value": 100 + n % 20}))
            n += 1
            time.sleep(0.002)
        print(f"sent {n}")
        return
    if sys.argv[2] == "big":
        size = int(sys.argv[3])
        ws = websocket.create_connection(url, timeout=10)
        ws.recv()  # hello
        ws.send(json.dumps({"type": "big", "padding": "x" * size}))
        ws.send(json.dumps({"type": "probe-after-big"}))
        answered = 0
        while answered < 2:
            r = json.loads(ws.recv())
            if r.get("type") == "error" and ("big" in r.get("message", "") or "probe-after-big" in r.get("message", "")):
                answered += 1
        print(f"big {size} answered")
        return
    count, seed = int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    ws = websocket.create_connection(url, timeout=10)
    hello = json.loads(ws.recv())
    channels = sorted({c for g in hello["layout"]["groups"] for ctl in g["controls"] for c in ctl["channels"]}) or ["x"]
    # Every 100 messages a probe that must be answered: the server keeps up with this page
    # and stays responsive. (A page that never reads only stalls its own connection: TCP's
    # backpressure; see "deaf".)
    replies = [0]
    sent = 0
    for m in messages(rng, channels):
        if sent >= count: break
        if isinstance(m, bytes): ws.send_binary(m)
        else: ws.send(m)
        sent += 1
        if sent % 100 == 0:
            probe = "probe%d" % sent
            ws.send(json.dumps({"type": probe}))
            while True:
                r = json.loads(ws.recv())
                if r.get("type") != "error": continue
                if probe in r.get("message", ""): break
                replies[0] += 1
    print(f"sent {sent} replies {replies[0]}")

if __name__ == "__main__":
    main()
