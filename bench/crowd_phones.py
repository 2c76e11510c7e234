"""The phones of ``bench_crowd.py``: a minimal Engine.IO 4 / Socket.IO 5 client over raw WebSocket frames on asyncio,
many per child process, each keeping what it received (events by seq, and the states that a resync brings)."""

from __future__ import annotations

import asyncio
import base64
import json
import multiprocessing as mp
import os
import random
import resource
import struct
import time


def raise_nofile() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def phone_address(i: int) -> str:
    n = i // 10
    return f"127.0.{1 + n // 250}.{1 + n % 250}"


# ------------------------------------------------------------------------ a tiny Socket.IO client
async def ws_connect(port: int, source: str, auth: dict | None = None, path: str = "/socket.io/"):
    """Open a Socket.IO connection over WebSocket; returns (reader, writer)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            f"GET {path}?EIO=4&transport=websocket HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    status = await reader.readuntil(b"\r\n\r\n")
    if b" 101 " not in status.split(b"\r\n", 1)[0]:
        raise ConnectionError(status[:80])
    opened = await ws_recv(reader, writer)
    if not opened.startswith("0"):
        raise ConnectionError(opened[:80])
    ws_send(writer, "40" + (json.dumps(auth) if auth else ""))
    return reader, writer


def ws_send(writer, text: str) -> None:
    data = text.encode()
    mask = os.urandom(4)
    n = len(data)
    head = bytes([0x81])
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 65536:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", n)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
    writer.write(head + mask + masked)


async def ws_recv(reader, writer) -> str:
    """The next text message (answers engine.io pings on the way)."""
    while True:
        b1, b2 = await reader.readexactly(2)
        n = b2 & 0x7F
        if n == 126:
            n = struct.unpack("!H", await reader.readexactly(2))[0]
        elif n == 127:
            n = struct.unpack("!Q", await reader.readexactly(8))[0]
        payload = await reader.readexactly(n)
        op = b1 & 0x0F
        if op == 8:
            raise ConnectionError("closed by the server")
        if op != 1:
            continue
        text = payload.decode()
        if text == "2":
            ws_send(writer, "3")
            continue
        return text


RECONNECT_S, RECONNECT_MAX_S, CONNECT_TIMEOUT_S = 0.5, 4.0, 5.0  # the page's (common.js connect())


def reconnect_delay(attempt: int) -> float:
    """Socket.IO's client backoff as the page sets it: 0.5 s doubling up to 4 s, each ± half at random."""
    return min(RECONNECT_MAX_S, RECONNECT_S * 2**attempt) * random.uniform(0.5, 1.5)


async def phone(i: int, port: int, path: str, out: dict, stop: asyncio.Event, source: str | None = None) -> None:
    """One phone (from ``source``, else ten phones an address): its event arrivals by seq and the states it got
    (a resync carries the balls it missed); when its connection drops, it comes back as the page does (the
    Socket.IO client's backoff, a connection attempt given up after 5 s), and ``returns`` says when it lost the
    connection, when its state came again, and from which relay to which."""
    mine = {"events": {}, "states": [], "relay": "", "returns": []}
    out["phones"].append(mine)
    try:
        reader, writer = await ws_connect(port, source or phone_address(i), path=path)
    except (OSError, ConnectionError, asyncio.IncompleteReadError):
        out["refused"] += 1
        return
    out["connected"] += 1
    lost = None  # (when the connection dropped, the relay it was on) until the next state
    while not stop.is_set():
        last_seq = None
        try:
            while not stop.is_set():
                text = await ws_recv(reader, writer)
                if not text.startswith("42"):
                    continue
                name, payload = json.loads(text[2:])
                now = time.time()
                seq = payload.get("seq") if isinstance(payload, dict) else None
                if name == "state":
                    last_seq = seq
                    if lost is not None:
                        mine["returns"].append((lost[0], now, lost[1], payload.get("relay", "core")))
                        lost = None
                    mine["relay"] = payload.get("relay", "core")
                    partie = (payload.get("partie") or {}).get("number")
                    mine["states"].append((now, partie, tuple(payload.get("draws") or ())))
                    continue
                if last_seq is not None and seq is not None and seq <= last_seq:
                    continue  # already in the state it got (as the page skips it)
                if last_seq is not None and seq is not None and seq != last_seq + 1:
                    out["gaps"] += 1
                    ws_send(writer, '42["resync"]')
                last_seq = seq
                if name == "draw":
                    mine["events"][seq] = now
        except (OSError, ConnectionError, asyncio.IncompleteReadError):
            if stop.is_set():
                break
            out["disconnects"] += 1
            lost = lost or (time.time(), mine["relay"])
            writer.close()
            attempt = 0
            while not stop.is_set():  # as the page does
                await asyncio.sleep(reconnect_delay(attempt))
                attempt += 1
                try:
                    connecting = ws_connect(port, source or phone_address(i), path=path)
                    reader, writer = await asyncio.wait_for(connecting, CONNECT_TIMEOUT_S)
                    out["reconnects"] += 1
                    break
                except (OSError, ConnectionError, asyncio.IncompleteReadError, TimeoutError):
                    continue
    writer.close()


def delivered(phones: list[dict], sent: dict) -> dict:
    """seq → [phones that got the ball, latest arrival, {relay: latest arrival of its phones}]: by its event, or by a
    later state that held it."""
    got = {}
    for seq, (t0, partie, number) in sent.items():
        count, latest, by_relay = 0, 0.0, {}
        for mine in phones:
            at = mine["events"].get(seq)
            if at is None:
                at = next((t for t, p, draws in mine["states"] if t >= t0 and p == partie and number in draws), None)
            if at is not None:
                count += 1
                latest = max(latest, at)
                by_relay[mine["relay"]] = max(by_relay.get(mine["relay"], 0.0), at)
        got[seq] = [count, latest, by_relay]
    return got


def run_phones(
    first: int,
    count: int,
    port: int,
    path: str,
    ready: mp.Queue,
    results: mp.Queue,
    stop_evt,
    sent_q: mp.Queue,
    source=None,
) -> None:
    """Phones ``first`` … ``first + count - 1`` (phone ``i`` from ``source(i)`` when given), until ``stop_evt``;
    then, given the balls sent (seq → (time, partie, number)) on ``sent_q``, who got each one."""
    raise_nofile()

    async def ticker(out: dict, stop: asyncio.Event) -> None:
        """The client process's own lateness: when its loop wakes later than asked (its CPU taken by the machine),
        a ball's arrival is late by as much, whatever the hall did."""
        while not stop.is_set():
            asked = time.monotonic() + 0.05
            await asyncio.sleep(0.05)
            late = time.monotonic() - asked
            if late > 0.02:
                out["late"].append((time.time(), late))

    async def main():
        out = {"connected": 0, "refused": 0, "disconnects": 0, "reconnects": 0, "gaps": 0, "phones": [], "late": []}
        stop = asyncio.Event()
        tasks = [asyncio.create_task(ticker(out, stop))]
        for i in range(first, first + count):
            tasks.append(asyncio.create_task(phone(i, port, path, out, stop, source(i) if source else None)))
            if i % 50 == 0:
                await asyncio.sleep(0.02)
        while out["connected"] + out["refused"] < count:
            await asyncio.sleep(0.1)
        ready.put((out["connected"], out["refused"]))
        while not stop_evt.is_set():
            await asyncio.sleep(0.2)
        await asyncio.sleep(1.0)
        stop.set()
        for t in tasks:
            t.cancel()
        sent = sent_q.get()
        results.put(
            {
                **{k: v for k, v in out.items() if k != "phones"},
                "draws": delivered(out["phones"], sent),
                "returns": [r for mine in out["phones"] for r in mine["returns"]],
            }
        )

    asyncio.run(main())


def start_crowd(
    procs: int,
    per: int,
    port: int,
    path: str,
    ready: mp.Queue,
    results: mp.Queue,
    stop_evt,
    sent_qs: list[mp.Queue],
    source=None,
) -> tuple[list[mp.Process], int, int]:
    """``procs`` processes of ``per`` phones each (``run_phones``), started; returned once each has said how many
    of its phones are connected, with the totals: (processes, connected, refused)."""
    started = [
        mp.Process(target=run_phones, args=(k * per, per, port, path, ready, results, stop_evt, sent_qs[k], source))
        for k in range(procs)
    ]
    for p in started:
        p.start()
    connected = refused = 0
    for _ in started:
        c, r = ready.get(timeout=600)
        connected, refused = connected + c, refused + r
    return started, connected, refused
