"""A Link peer the tests drive (aalink, PyPI): commands on stdin, its state on stdout.

    python3 link_peer.py [BPM] [--start-stop]     stdin: `tempo BPM`, `play`, `stop`, `quit`
Every 50 ms it prints `peers N tempo T beat B phase P playing 0|1` (quantum 4). With
--start-stop, start/stop sync is on: `play` starts the session from its next bar (Link's
setIsPlayingAndRequestBeatAtTime(true, now, 0), as LinkHut does), `stop` stops it.
"""
import asyncio
import sys

from aalink import Link


async def main():
    loop = asyncio.get_running_loop()
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    link = Link(float(args[0]) if args else 120.0)
    link.quantum = 4
    link.start_stop_sync_enabled = "--start-stop" in sys.argv
    link.enabled = True
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

    async def report():
        while True:
            print(f"peers {link.num_peers} tempo {link.tempo:.4f} beat {link.beat:.4f} phase {link.phase:.4f} playing {int(link.playing)}", flush=True)
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
        elif parts and parts[0] == "play":
            # One commit, as LinkHut does: playing from now, beat 0 at the session's next bar.
            link.set_is_playing_and_request_beat_at_time(True, link.time, 0)
            print("set playing 1", flush=True)
        elif parts and parts[0] == "stop":
            link.playing = False
            print("set playing 0", flush=True)
        elif parts and parts[0] == "quit":
            break
    task.cancel()
    link.enabled = False


asyncio.run(main())
