"""A broadcast's frame made once and written at once on each idle WebSocket (display/broadcast.py ``emit_to_shards``),
else queued as Engine.IO would: routed here on a real python-socketio server and Engine.IO sockets, each socket's
writing stood in by what it would take (the whole frame, part of it, nothing); the wire itself is checked by the
real server's tests (tests/app/test_socket_floods.py, test_relays.py: every phone gets every ball, in order)."""

from __future__ import annotations

import socketio
from engineio import packet as eio_packet
from engineio.socket import Socket

from display.broadcast import emit_to_shards, public_shard, ws_text_frame
from display.frames import Framed


class Takes:
    """How much of a frame a socket takes without waiting (``None``: it cannot be written that way)."""

    def __init__(self, n: int | None):
        self.n, self.frames = n, []

    def write_now(self, frame: bytes) -> int | None:
        self.frames.append(frame)
        return None if self.n is None else min(self.n, len(frame))


def server_with(takes: list[Takes | None]) -> tuple[socketio.Server, list[Socket]]:
    server = socketio.Server(async_mode="threading")
    sockets = []
    for i, direct in enumerate(takes):
        eio_sid = f"e{i}"
        sock = Socket(server.eio, eio_sid)
        sock.connected = sock.upgraded = True
        if direct is not None:
            sock.direct = direct
        server.eio.sockets[eio_sid] = sock
        sid = server.manager.pre_connect(eio_sid, "/")
        server.manager.connect(sid, "/")
        server.manager.enter_room(sid, "/", public_shard(i))
        sockets.append(sock)
    return server, sockets


def queued(sock: Socket) -> list:
    out = []
    while not sock.queue.empty():
        out.append(sock.queue.get_nowait())
    return out


def test_an_idle_websocket_gets_the_frame_at_once_a_half_taken_one_its_rest_queued_the_others_the_packet():
    frame = ws_text_frame('42["draw",{"number":7,"seq":3}]')
    whole, half, busy, polling = Takes(10_000), Takes(5), Takes(None), None
    server, (s_whole, s_half, s_busy, s_polling) = server_with([whole, half, busy, polling])
    assert emit_to_shards(server, "draw", {"number": 7, "seq": 3}, lambda s: None) == 4
    assert whole.frames == half.frames == busy.frames == [frame]
    assert queued(s_whole) == []
    [rest] = queued(s_half)
    assert isinstance(rest.encode(), Framed) and bytes(rest.encode()) == frame[5:]
    for sock in (s_busy, s_polling):
        [pkt] = queued(sock)
        assert pkt.packet_type == eio_packet.MESSAGE and pkt.encode() == '42["draw",{"number":7,"seq":3}]'


def test_a_socket_with_packets_waiting_gets_the_event_behind_them():
    direct = Takes(10_000)
    server, [sock] = server_with([direct])
    sock.queue.put(eio_packet.Packet(eio_packet.MESSAGE, '2["state",{}]'))
    emit_to_shards(server, "draw", {"number": 8, "seq": 4}, lambda s: None)
    assert direct.frames == []
    assert [p.encode() for p in queued(sock)] == ['42["state",{}]', '42["draw",{"number":8,"seq":4}]']


def test_the_frame_is_what_a_websocket_reader_reads():
    from wsproto import ConnectionType, WSConnection
    from wsproto.events import AcceptConnection, Request, TextMessage

    server, client = WSConnection(ConnectionType.SERVER), WSConnection(ConnectionType.CLIENT)
    server.receive_data(client.send(Request(host="h", target="/")))
    assert isinstance(next(server.events()), Request)
    client.receive_data(server.send(AcceptConnection()))
    assert isinstance(next(client.events()), AcceptConnection)
    for text in ("4" + "x" * 10, "4" + "é" * 200, "4" + "y" * 70_000):
        client.receive_data(ws_text_frame(text))
        [event] = list(client.events())
        assert isinstance(event, TextMessage) and event.data == text and event.message_finished
