#!/usr/bin/env python3
"""Polls podium's /podium/status over OSC (python-osc) as a controller's status display would.

  status_poll.py PORT SECONDS INTERVAL_MS

Sends /podium/status every INTERVAL_MS for SECONDS from its own socket, and prints one line:
"sent N answered M max_ms X" — X the longest time from a request to its reply (a request with
no reply within 1 s counts as 1000 ms).
"""
import socket, sys, time
from pythonosc import osc_message_builder
from pythonosc.osc_message import OscMessage

port, seconds, interval = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]) / 1000
sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.bind(("127.0.0.1", 0))
request = osc_message_builder.OscMessageBuilder(address="/podium/status").build().dgram
sent = answered = 0
worst = 0.0
start = time.monotonic()
while time.monotonic() - start < seconds:
    t0 = time.monotonic()
    sock.sendto(request, ("127.0.0.1", port))
    sent += 1
    sock.settimeout(1.0)
    try:
        while True:
            data, _ = sock.recvfrom(65536)
            if OscMessage(data).address == "/podium/status.reply":
                break
        answered += 1
        worst = max(worst, time.monotonic() - t0)
    except socket.timeout:
        worst = max(worst, 1.0)
    rest = interval - (time.monotonic() - t0)
    if rest > 0:
        time.sleep(rest)
print("sent %d answered %d max_ms %.1f" % (sent, answered, worst * 1000), flush=True)
