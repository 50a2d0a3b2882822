"""A Link peer the tests drive (aalink, PyPI): commands on stdin, its state on stdout.

    python3 link_peer.py [BPM]       stdin: `tempo BPM`, `quit`
Every 50 ms it prints `peers N tempo T beat B phase P` (quantum 4).
"""
import asyncio
import sys

from aalink import Link


async def main():
    loop = asyncio.get_running_loop()
    link = Link(float(sys.argv[1]) if len(sys.argv) > 1 else 120.0)
    link.quantum = 4
    link.enabled = True
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

    async def report():
        while True:
            print(f"peers {link.num_peers} tempo {link.tempo:.4f} beat {link.beat:.4f} phase {link.phase:.4f}", flush=True)
            await asyncio.sleep(0.05)

    task = asyncio.create_task(report())
    while True:
        line = await reader.readline()
        if not line:
            break
        parts = line.decode().split()
        if len(parts) == 2 and parts[0] == "tempo":
            link.tempo = float(parts[1])
            print(f"set tempo {parts[1]}", flush=True)
        elif parts and parts[0] == "quit":
            break
    task.cancel()
    link.enabled = False


asyncio.run(main())
