"""Socket.IO over loopback (INTERFACE §5): state on connect, seq +1 per event, resync, roles."""

from __future__ import annotations

import threading

import socketio

from display import views
from tests.display.conftest import A1, A2, A3, PINS, TIE_DRAWS


def connect(room, role: str | None = None, query: str = "") -> socketio.SimpleClient:
    client = socketio.SimpleClient()
    auth = {"token": room.token(role)} if role else None
    client.connect(room.url + query, auth=auth, transports=["websocket"], wait_timeout=5)
    return client


def close(client) -> None:
    """Disconnect without waiting: websocket-client waits 3 s for a close frame Werkzeug never sends back."""
    threading.Thread(target=client.disconnect, daemon=True).start()


def receive(client, name: str | None = None, timeout: float = 5.0) -> tuple[str, dict]:
    event, data = _recv(client, timeout, beats=name == "beat")
    if name is not None:
        assert event == name, (event, data)
    return event, data


def _recv(client, timeout, beats: bool = False):
    """The next event; the hall's beats (sent when it was quiet for ``ping_s``) are passed over unless asked for."""
    while True:
        got = client.receive(timeout=timeout)
        if beats or got[0] != "beat":
            return got[0], (got[1] if len(got) > 1 else None)


def drain_until(client, seq: int, after: int = 0, timeout: float = 5.0) -> list[tuple[str, dict]]:
    """Every event with ``after < seq' <= seq``, in ``seq`` order; fails on a duplicate.

    python-engineio hands each incoming message to its own thread, so this client may see them out of order
    (the browser's client does not, and the browser tests count its gaps); here none may be missing or doubled."""
    out: dict[int, tuple[str, dict]] = {}
    while len(out) < seq - after:
        name, data = _recv(client, timeout)
        assert data["seq"] not in out and after < data["seq"] <= seq, (name, data)
        out[data["seq"]] = (name, data)
    return [out[k] for k in sorted(out)]


def test_connect_gets_the_state_then_every_event_with_seq_plus_one(live):
    h = live.hall
    projector = connect(live)
    name, state = receive(projector, "state")
    assert state["status"] == "waiting" and state["seq"] == 0 and state["draws"] == []
    h.start_partie(role="speaker")
    for n in TIE_DRAWS:
        h.draw(n, role="speaker")
    h.check_claim(A3, role="controller")  # a false claim: the hall sees no card number
    h.check_claim(A1, role="controller")
    h.check_claim(A2, role="controller")
    result = views.award(h.award(role="speaker"))  # + 2 voucher records, sent as "tick"
    events = drain_until(projector, h.journal.last_seq)
    seqs = [d["seq"] for _, d in events]
    assert seqs == list(range(1, h.journal.last_seq + 1))
    names = [n for n, _ in events]
    assert names[:7] == ["partie"] + ["draw"] * 6
    assert [d["number"] for n, d in events if n == "draw"] == TIE_DRAWS
    verdicts = [d for n, d in events if n == "verdict"]
    assert [v["verdict"] for v in verdicts] == ["incomplete", "valid", "valid"]
    assert verdicts[0]["card_id"] is None and verdicts[1]["card_id"] == A1
    award = next(d for n, d in events if n == "award")
    assert award["winner"] == result["winner"] and len(award["tie_break"]) == 2
    assert award["lot"]["kind"] == "quine" and set(award["consolation"]) == {A1, A2} - {result["winner"]}
    assert names.count("tick") == 2
    ticks = [d for n, d in events if n == "tick"]
    assert all("code" not in t for t in ticks)  # voucher codes never reach a public screen
    close(projector)


def test_staff_sockets_see_card_numbers_and_voucher_codes(live):
    h = live.hall
    controller = connect(live, "controller")
    receive(controller, "state")
    h.start_partie(role="speaker")
    h.draw(1, role="speaker")
    h.check_claim(A3, role="controller")
    _, verdict = drain_until(controller, h.journal.last_seq)[-1]
    assert verdict["card_id"] == A3 and verdict["verdict"] == "incomplete" and verdict["missing"]
    close(controller)


def test_speaker_socket_gets_the_speaker_state_and_device_notices(live):
    speaker = connect(live, "speaker")
    _, state = receive(speaker, "state")
    assert "watch" in state and "devices" in state
    live.hall.set_device_status("printer", "degraded", code="printer_no_paper")
    name, notice = receive(speaker)  # the catalogue's sentence
    assert name == "device" and notice["detail"] == "Plus de papier dans l'imprimante" and "seq" not in notice
    close(speaker)


def test_resync_sends_the_state_again(live):
    h = live.hall
    client = connect(live)
    receive(client, "state")
    h.start_partie(role="speaker")
    h.draw(42, role="speaker")
    drain_until(client, 2)
    client.emit("resync")
    _, state = receive(client, "state")
    assert state["draws"] == [42] and state["last"] == 42 and state["seq"] == 2
    close(client)


def test_a_late_client_sees_exactly_the_current_state(live):
    h = live.hall
    h.start_partie(role="speaker")
    for n in (7, 8, 9):
        h.draw(n, role="speaker")
    h.undo(role="speaker")
    late = connect(live)
    _, state = receive(late, "state")
    assert state["draws"] == [7, 8] and state["seq"] == h.journal.last_seq
    h.draw(10, role="speaker")
    _, ev = receive(late, "draw")
    assert ev["seq"] == state["seq"] + 1 and ev["number"] == 10 and ev["index"] == 2 and ev["partie"] == 1
    close(late)


def test_a_socket_without_a_role_can_never_change_anything(live):
    h = live.hall
    h.start_partie(role="speaker")
    seq = h.journal.last_seq
    client = connect(live)
    receive(client, "state")
    for event, data in [
        ("draw", {"number": 5}),
        ("award", {}),
        ("undo", {}),
        ("partie/clear", {}),
        ("claims", {"card_id": A1}),
        ("login", {"pin": PINS["speaker_pin"]}),
    ]:
        client.emit(event, data)
    client.emit("resync")  # a round trip: the server has handled the lot above
    _, state = receive(client, "state")
    assert state["draws"] == [] and h.journal.last_seq == seq
    close(client)


def test_a_forged_token_is_refused_at_connect(live):
    client = socketio.SimpleClient()
    try:
        client.connect(live.url, auth={"token": "forged"}, transports=["polling"], wait_timeout=5)
        refused = False
    except socketio.exceptions.ConnectionError:
        refused = True
    assert refused


def test_many_projectors_get_the_same_events(live):
    clients = [connect(live) for _ in range(5)]
    for c in clients:
        receive(c, "state")
    live.hall.start_partie(role="speaker")
    live.hall.draw(33, role="speaker")
    for c in clients:
        events = drain_until(c, 2)
        assert [n for n, _ in events] == ["partie", "draw"]
    for c in clients:
        close(c)


def test_public_sockets_are_dealt_into_shards_and_each_gets_every_event(live, monkeypatch):
    """The journal's events go to the public sockets a shard at a time (display/sockets.py): with more sockets
    than shards, every socket is in exactly one shard, the shards are even, and none misses or doubles an event."""
    from display import broadcast

    monkeypatch.setattr(broadcast, "PUBLIC_SHARDS", 3)
    clients = [connect(live) for _ in range(7)]
    staff = connect(live, "controller")
    for c in clients + [staff]:
        receive(c, "state")
    rooms = live.socketio.server.manager.rooms["/"]
    sizes = sorted(len(rooms.get(f"public:{i}", {})) for i in range(3))
    assert sizes == [2, 2, 3]
    assert len(rooms["public"]) == 7 and not any(f"public:{i}" in rooms for i in range(3, 32))
    live.hall.start_partie(role="speaker")
    for n in (5, 61, 90):
        live.hall.draw(n, role="speaker")
    for c in clients + [staff]:
        events = drain_until(c, 4)
        assert [n for n, _ in events] == ["partie", "draw", "draw", "draw"]
        assert [d["number"] for n, d in events if n == "draw"] == [5, 61, 90]
    for c in clients + [staff]:
        close(c)
