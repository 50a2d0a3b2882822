#!/usr/bin/env python3
"""A page of the editor's relay (/collab/BUFFER) without a browser, for the relay's limits.

  relay_client.py WS_URL garbage            random, cut, flipped and padded updates, then one of
                                            5 MiB; prints each error the relay answers, "closed"
  relay_client.py WS_URL flood HEXFILE      honest updates as fast as the socket takes them;
                                            prints "sent N" and "closed yes|no"
  relay_client.py WS_URL type HEXFILE N RATE SKIP [answer]   N honest updates (from line
                                            SKIP) at RATE a second; "compact" is answered (with the
                                            file's "state" line) only with `answer`; prints "compact asked N"
  relay_client.py WS_URL join [OUT]         counts the frames a newcomer is sent before the
                                            relay's step 1; prints "log frames N" and "sync ms T";
                                            writes their updates to OUT (hex lines)
  relay_client.py WS_URL deaf SECONDS       connects and reads nothing
  relay_client.py WS_URL awareness COUNT SIZE   COUNT awareness frames of SIZE bytes each
WS_URL: ws://host:port/collab/patterns?token=…&name=…
"""
import json
import random
import sys
import time

import websocket


def varuint(n):
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def update_frame(update):
    return b"\x00\x02" + varuint(len(update)) + update


def texts(ws, seconds):
    """Text frames received within `seconds` (binary ones skipped)."""
    got = []
    end = time.time() + seconds
    ws.settimeout(0.2)
    while time.time() < end:
        try:
            op, data = ws.recv_data()
        except websocket.WebSocketTimeoutException:
            continue
        except Exception:
            got.append("<closed>")
            break
        if op == websocket.ABNF.OPCODE_TEXT:
            got.append(data.decode())
        elif op == websocket.ABNF.OPCODE_CLOSE:
            got.append("<closed>")
            break
    return got


def main():
    url, scenario, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    if scenario == "garbage":
        rng = random.Random(11)
        honest = bytes.fromhex("0101b2f219000401087061747465726e73016400")
        ws = websocket.create_connection(url, timeout=10)
        frames = [
            bytes(rng.randrange(256) for _ in range(64)),           # random content
            honest[: len(honest) // 2],                             # cut short
            honest[:5] + b"\xff" + honest[6:],                      # a byte flipped (info 0xff)
            honest + b"\x01\x02\x03",                               # bytes after the delete set
            b"\x01" * 40,                                           # 1 client, 1 struct, … nonsense
        ]
        for f in frames:
            ws.send_binary(update_frame(f))
        errors = [t for t in texts(ws, 2) if "refused" in t]
        for e in errors:
            print("error", json.loads(e)["message"])
        # An oversized frame: past the documented 4 MiB, the relay closes the connection.
        big = update_frame(bytes(5 << 20))
        try:
            ws.send_binary(big)
            closed = "<closed>" in texts(ws, 3)
        except Exception:
            closed = True
        print("closed after oversized", "yes" if closed else "no")
        return
    if scenario == "flood":
        updates = [bytes.fromhex(l) for l in open(args[0]).read().split("\n") if l and not l.startswith("state")]
        ws = websocket.create_connection(url, timeout=10)
        sent = 0
        try:
            for u in updates * 10:
                ws.send_binary(update_frame(u))
                sent += 1
            closed = "<closed>" in texts(ws, 3)
        except Exception:
            closed = True
        print("sent", sent)
        print("closed", "yes" if closed else "no")
        return
    if scenario == "type":
        lines = [l for l in open(args[0]).read().split("\n") if l]
        state = bytes.fromhex(lines.pop()[len("state "):])
        count, rate, skip = int(args[1]), float(args[2]), int(args[3])
        answer = len(args) > 4 and args[4] == "answer"
        ws = websocket.create_connection(url, timeout=10)
        ws.settimeout(0.001)
        asked = 0
        start = time.time()
        for i, line in enumerate(lines[skip: skip + count]):
            ws.send_binary(update_frame(bytes.fromhex(line)))
            while time.time() < start + (i + 1) / rate:
                try:
                    op, data = ws.recv_data()
                    if op == websocket.ABNF.OPCODE_TEXT and json.loads(data).get("type") == "compact":
                        asked += 1
                        if answer:  # the page's whole state (Y.encodeStateAsUpdate), as editor.js answers
                            ws.send_binary(b"\x64\x00\x01" + varuint(len(state)) + state)
                except websocket.WebSocketTimeoutException:
                    time.sleep(0.001)
        # A closing handshake: the relay reads every frame before it (a socket dropped with
        # frames unread on this side would be reset, and frames in flight lost).
        ws.settimeout(30)
        ws.close()
        print("compact asked", asked)
        return
    if scenario == "join":
        t0 = time.time()
        ws = websocket.create_connection(url, timeout=10)
        n = 0
        updates = []
        while True:
            op, data = ws.recv_data()
            if op == websocket.ABNF.OPCODE_BINARY:
                if data == b"\x00\x00\x01\x00":
                    break
                n += 1
                if data[:2] in (b"\x00\x01", b"\x00\x02"):
                    length, at, shift = 0, 2, 0
                    while True:
                        b = data[at]
                        at += 1
                        length |= (b & 0x7F) << shift
                        shift += 7
                        if b < 0x80:
                            break
                    updates.append(data[at: at + length].hex())
        if args:
            with open(args[0], "w") as f:
                f.write("\n".join(updates) + "\n")
        print("log frames", n)
        print("sync ms", round((time.time() - t0) * 1000))
        return
    if scenario == "deaf":
        ws = websocket.create_connection(url, timeout=10)
        time.sleep(float(args[0]))
        ws.close()
        return
    if scenario == "awareness":
        count, size = int(args[0]), int(args[1])
        ws = websocket.create_connection(url, timeout=30)
        for i in range(count):
            state = json.dumps({"user": {"name": "big", "pad": "x" * size}}).encode()
            body = varuint(1) + varuint(99) + varuint(i + 1) + varuint(len(state)) + state
            ws.send_binary(b"\x01" + varuint(len(body)) + body)
            time.sleep(0.005)
        print("sent", count)
        ws.close()
        return
    sys.exit("unknown scenario " + scenario)


if __name__ == "__main__":
    main()
