#!/usr/bin/env python3
"""Requests to podium's stage page as other web sites, DNS rebinding and other local programs
would make them. Usage: web_trust.py PAGE_URL [EXTRA_ORIGIN]; prints "CASE RESULT" per line,
RESULT an HTTP status or "open" (a WebSocket that opened and got the page's hello).
"""
import socket
import sys
from urllib.parse import urlsplit

import websocket

page = urlsplit(sys.argv[1])
host, port, token = page.hostname, page.port, page.query.split("token=")[1]
own = f"http://{host}:{port}"


def get(path, host_header, extra=""):
    s = socket.create_connection((host, port), timeout=5)
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: {host_header}\r\n{extra}Connection: close\r\n\r\n".encode())
    status = s.recv(4096).split(b"\r\n", 1)[0].split()[1].decode()
    s.close()
    return status


def ws(origin=None, host_header=None, query=f"?token={token}", suppress=False):
    try:
        c = websocket.create_connection(f"ws://{host}:{port}/ws{query}", origin=origin, host=host_header,
                                        suppress_origin=suppress, timeout=5)
        c.recv()
        c.close()
        return "open"
    except websocket.WebSocketBadStatusException as e:
        return str(e.status_code)


cases = [
    ("ws-own-origin", lambda: ws(origin=own)),
    ("ws-foreign-origin", lambda: ws(origin="https://evil.example")),
    ("ws-null-origin", lambda: ws(origin="null")),
    ("ws-no-origin", lambda: ws(suppress=True)),
    ("ws-rebound-host", lambda: ws(origin=f"http://attacker.example:{port}", host_header=f"attacker.example:{port}")),
    ("ws-wrong-token", lambda: ws(origin=own, query="?token=guess")),
    ("get-own", lambda: get(f"/?token={token}", f"{host}:{port}")),
    ("get-localhost", lambda: get(f"/?token={token}", f"localhost:{port}")),
    ("get-rebound-host", lambda: get(f"/?token={token}", f"attacker.example:{port}")),
    ("get-script-rebound-host", lambda: get("/app.js", f"attacker.example:{port}")),
    ("get-other-port", lambda: get(f"/?token={token}", f"{host}:{port + 1}")),
    ("get-two-hosts", lambda: get(f"/?token={token}", f"{host}:{port}", f"Host: attacker.example:{port}\r\n")),
    ("get-foreign-origin", lambda: get(f"/?token={token}", f"{host}:{port}", "Origin: https://evil.example\r\n")),
    ("get-wrong-token", lambda: get("/?token=guess", f"{host}:{port}")),
]
if len(sys.argv) > 2:
    cases.append(("ws-extra-origin", lambda: ws(origin=sys.argv[2])))
for name, make in cases:
    print(name, make(), flush=True)
