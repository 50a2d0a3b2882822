#!/usr/bin/env python3
"""Open stage pages for `podium-bench web`: N WebSocket connections to Podium's page, each
reading everything Podium sends (as a page does). Page 1 obeys stdin:
  set CHANNEL VALUE   send it; print "sent NS" (CLOCK_MONOTONIC ns, taken just before sending)
  wiggle SECONDS      move `volume` 30 times a second for SECONDS; print "done"
  quit
"""
import json, math, sys, threading, time

import websocket


def main():
    url, n = sys.argv[1], int(sys.argv[2])
    socks = [websocket.create_connection(url) for _ in range(n)]
    for s in socks:
        s.recv()  # the hello: layout and values

    def read(s):
        try:
            while True:
                s.recv()
        except Exception:
            pass
    for s in socks:
        threading.Thread(target=read, args=(s,), daemon=True).start()
    print("ready", flush=True)
    for line in sys.stdin:
        cmd = line.split()
        if not cmd or cmd[0] == "quit":
            break
        if cmd[0] == "set":
            message = json.dumps({"type": "set", "channel": cmd[1], "value": float(cmd[2])})
            t = time.monotonic_ns()
            socks[0].send(message)
            print(f"sent {t}", flush=True)
        elif cmd[0] == "wiggle":
            end = time.monotonic() + float(cmd[1])
            while time.monotonic() < end:
                v = 0.5 + 0.2 * math.sin(time.monotonic() * 3)
                socks[0].send(json.dumps({"type": "set", "channel": "volume", "value": v}))
                time.sleep(1 / 30)
            print("done", flush=True)
    for s in socks:
        s.close()


if __name__ == "__main__":
    main()
