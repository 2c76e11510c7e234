"""What one event to every phone of a relay costs the relay's process: python-socketio's emission against the
hall's (``display/broadcast.emit_to_shards``: the frame made once, written at once on each idle WebSocket).

    python bench/bench_fanout.py [--phones 667] [--events 40] [--piclass]

A relay-like server (python-socketio, gevent, the hall's frame gate, gevent's WSGI server) in a child process, with
``--phones`` raw WebSocket clients (another process, each from a loopback address of its own) in the public shards;
the server sends ``--events`` draws each way, one every 0.3 s, and prints the CPU its process spent per event (its
writer tasks included). ``--piclass`` runs the server under ``/work/shared/tools/piclass --model pi4 --cores 1``
(the clients outside). Never run as a test.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PICLASS = "/work/shared/tools/piclass"


def serve(port: int, phones: int, events: int) -> None:
    import gevent.monkey

    gevent.monkey.patch_all()
    import gevent
    import socketio
    from gevent.pywsgi import WSGIServer

    from display.broadcast import PUBLIC_SHARDS, SHARD_BATCH, emit_to_shards, public_shard
    from display.frames import FrameGate

    sio = socketio.Server(async_mode="gevent", transports=["websocket"])
    FrameGate().install(sio, lambda environ: environ.get("REMOTE_ADDR", "?"))
    joined = [0]

    @sio.on("connect")
    def connect(sid, environ, auth=None):
        sio.enter_room(sid, public_shard(joined[0]))
        joined[0] += 1

    def socketio_emit(name: str, payload: dict) -> None:
        """The emission before: ``server.emit`` to a batch of shards at a time (python-socketio's queue per socket)."""
        rooms = sio.manager.rooms.get("/", {})
        batch, size = [], 0
        for index in range(PUBLIC_SHARDS):
            members = rooms.get(public_shard(index))
            if members:
                batch.append(public_shard(index))
                size += len(members)
            if batch and (size >= SHARD_BATCH or index == PUBLIC_SHARDS - 1):
                sio.emit(name, payload, to=batch)
                gevent.sleep(0)
                batch, size = [], 0

    def run() -> None:
        deadline = time.monotonic() + 120
        while joined[0] < phones and time.monotonic() < deadline:
            gevent.sleep(0.1)
        gevent.sleep(1.0)
        print(f"{joined[0]} phones connected", flush=True)
        for label, emit in (
            ("python-socketio's emit", socketio_emit),
            (
                "emit_to_shards (frame made once, written at once)",
                lambda name, payload: emit_to_shards(sio, name, payload, gevent.sleep),
            ),
        ):
            spent = []
            for i in range(events):
                cpu = time.process_time()
                emit("draw", {"number": 1 + i % 90, "index": i + 1, "partie": 1, "seq": 100 + i})
                gevent.sleep(0.3)  # the writer tasks finish meanwhile (counted)
                spent.append(1000 * (time.process_time() - cpu))
            spent.sort()
            print(
                f"{label}: {joined[0]} phones, CPU per event p50 {spent[len(spent) // 2]:.1f} ms, "
                f"max {spent[-1]:.1f} ms ({1000 * spent[len(spent) // 2] / joined[0]:.0f} µs a phone)",
                flush=True,
            )
        os._exit(0)

    gevent.spawn(run)
    WSGIServer(("127.0.0.1", port), socketio.WSGIApp(sio), log=None).serve_forever()


async def phones_main(port: int, phones: int) -> None:
    from bench.crowd_phones import phone_address, raise_nofile, ws_connect, ws_recv

    raise_nofile()

    async def one(i: int) -> None:
        await asyncio.sleep(i * 0.01)  # a hundred phones a second, as a hall's doors open
        reader, writer = await ws_connect(port, phone_address(i * 10))
        while True:
            await ws_recv(reader, writer)

    await asyncio.gather(*(one(i) for i in range(phones)), return_exceptions=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--phones", type=int, default=667)
    ap.add_argument("--events", type=int, default=40)
    ap.add_argument("--piclass", action="store_true")
    ap.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve(args.serve, args.phones, args.events)
        return
    from bench.crowd_hall import unused_port

    port = unused_port(18800, 18899)
    argv = [sys.executable, __file__, "--serve", str(port), "--phones", str(args.phones), "--events", str(args.events)]
    if args.piclass:
        argv = [PICLASS, "--model", "pi4", "--cores", "1", "--", *argv]
    server = subprocess.Popen(argv, env={**os.environ, "PYTHONPATH": str(ROOT)})
    time.sleep(2.0)
    clients = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import asyncio, sys; sys.path.insert(0, {str(ROOT)!r}); "
            f"from bench.bench_fanout import phones_main; asyncio.run(phones_main({port}, "
            f"{args.phones}))",
        ]
    )
    try:
        server.wait(600)
    finally:
        clients.kill()
    print(f"(load average {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
