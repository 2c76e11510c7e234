"""The main hall's side of the salle annexe (issue 43, RULES L23): a room opened with a one-time code, the annex
joined, beating, claiming; a lost link stops every ball until it is back or the speaker goes on without it; the
journal says so, verifies, and a restart keeps it all. Real Flask test client, real SQLite, Socket.IO on loopback,
and a link clock the test moves (never a sleep)."""

from __future__ import annotations

import random

import pytest

from display.services import services_of
from hall.app.cli import main
from hall.cartons.cardbook import CardBook
from hall.cartons.cards import Card
from hall.door.service import Hall
from hall.record.journal import Journal
from hall.refusal import Rejected
from tests.display.conftest import CARDS, Room, make_app, make_room, served
from tests.display.test_sockets import close, connect, receive
from tests.helpers import refused, rejected


class LinkClock:
    """Monotonic seconds the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def move(self, seconds: float) -> None:
        self.now += seconds


def annex_hall(tmp_path, clock: LinkClock, secret: bytes = b"k" * 32) -> Room:
    """``make_room``'s hall (same config, same cartons) on ``tmp_path``'s journal, its links on ``clock``."""
    base = make_room(tmp_path)
    base.hall.journal.close()
    book = CardBook({cid: Card.parse(text) for cid, text in CARDS.items()})
    hall = Hall(
        base.config,
        Journal(tmp_path / "journal.sqlite"),
        book,
        voucher_secret=secret,
        rng=random.Random(3),
        link_clock=clock,
    )
    app, socketio = make_app(hall, base.config)
    app.config["TESTING"] = True
    return Room(hall, app, socketio, base.config, lobby=services_of(app).rooms.lobby)


@pytest.fixture
def clock():
    return LinkClock()


@pytest.fixture
def annex(tmp_path, clock):
    r = annex_hall(tmp_path, clock)
    yield r
    r.hall.journal.close()


def open_room(room: Room, name: str = "Salle B") -> str:
    resp = room.app.test_client().post("/api/rooms", json={"room": name}, headers=room.headers("admin"))
    assert resp.status_code == 201, resp.get_json()
    body = resp.get_json()
    assert body["room"] == name
    return body["code"]


def join(room: Room, name: str = "Salle B") -> str:
    code = open_room(room, name)
    resp = room.app.test_client().post(f"/api/rooms/{name}/join", json={"code": code})
    assert resp.status_code == 200, resp.get_json()
    assert resp.get_json()["room"] == name
    return resp.get_json()["token"]


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def draw(room: Room, n: int):
    return room.app.test_client().post("/api/draws", json={"number": n}, headers=room.headers("speaker"))


def ack(room: Room, token: str, name: str = "Salle B") -> None:
    """The annex says it has shown everything the hall journalled (its beat's ``seq``, RULES L23a): what a real
    annex does at once after each ball; a test that draws twice with a joined room calls it between."""
    resp = room.app.test_client().post(
        f"/api/rooms/{name}/beat", json={"seq": room.hall.last_seq()}, headers=bearer(token)
    )
    assert resp.status_code == 200, resp.get_json()


def types(room: Room) -> list[str]:
    return [r.type for r in room.hall.records() if r.type.startswith("room:")]


# ---- enrolment ------------------------------------------------------------------------------------------------
def test_a_room_is_enrolled_with_a_one_time_code_and_beats_with_its_token(annex):
    c = annex.app.test_client()
    assert c.get("/api/state").get_json()["rooms"] == []
    token = join(annex)
    beat = c.post("/api/rooms/Salle B/beat", json={"seq": 0}, headers=bearer(token))
    assert beat.status_code == 200 and beat.get_json() == {"seq": annex.hall.last_seq()}
    assert c.get("/api/state").get_json()["rooms"] == [
        {"room": "Salle B", "online": True, "last_seen_s": 0, "going_on": False}
    ]
    enrolled = [r for r in annex.hall.records() if r.type == "room:enrolled"]
    assert len(enrolled) == 1 and token not in str(enrolled[0].event) and len(enrolled[0].event.token_hash) == 64
    assert types(annex) == ["room:opened", "room:enrolled"]


def test_a_spent_a_wrong_or_another_halls_code_is_refused_and_opens_nothing(annex, tmp_path, clock):
    c = annex.app.test_client()
    code = open_room(annex)
    assert c.post("/api/rooms/Salle B/join", json={"code": code.replace("-", "").lower()}).status_code == 200
    again = c.post("/api/rooms/Salle B/join", json={"code": code})
    assert again.status_code == 403 and again.get_json()["error"] == "bad_code"
    other = annex_hall(tmp_path / "autre", LinkClock(), secret=b"z" * 32)
    theirs = open_room(other, "Salle C")
    open_room(annex, "Salle C")
    for sent in (theirs, "AAAA-AAAA", None, 12, "x" * 500):
        resp = c.post("/api/rooms/Salle C/join", json={"code": sent})
        assert resp.status_code == 403 and resp.get_json()["error"] == "bad_code", sent
    unknown = c.post("/api/rooms/Nulle part/join", json={"code": code})
    assert unknown.status_code == 404 and unknown.get_json()["error"] == "unknown_room"
    assert types(annex) == ["room:opened", "room:enrolled", "room:opened"]
    other.hall.journal.close()


def test_wrong_codes_are_counted_per_address(annex):
    c = annex.app.test_client()
    open_room(annex)
    codes = [c.post("/api/rooms/Salle B/join", json={"code": "AAAA-AAAA"}).status_code for _ in range(11)]
    assert codes == [403] * 10 + [429]


def test_a_room_name_is_bounded_unique_and_opened_by_the_admin_only(annex):
    c = annex.app.test_client()
    for name in ("", "x" * 33, " B", "B ", "Salle/B", "B\n", None, 4):
        resp = c.post("/api/rooms", json={"room": name}, headers=annex.headers("admin"))
        assert resp.status_code == 422 and resp.get_json()["error"] == "bad_room", name
    open_room(annex, "Salle-B 2")
    twice = c.post("/api/rooms", json={"room": "salle-b 2"}, headers=annex.headers("admin"))
    assert twice.status_code == 409 and twice.get_json()["error"] == "room_exists"
    assert c.post("/api/rooms", json={"room": "C"}, headers=annex.headers("speaker")).status_code == 403
    assert c.post("/api/rooms", json={"room": "C"}).status_code == 401
    assert types(annex) == ["room:opened"]


def test_a_wrong_or_missing_token_is_refused(annex):
    c = annex.app.test_client()
    token = join(annex)
    for headers in ({}, bearer("x" * 43), bearer(token + "x"), {"Authorization": f"Basic {token}"}):
        for path, body in (("beat", {"seq": 1}), ("claim", {"kind": "quine"})):
            resp = c.post(f"/api/rooms/Salle B/{path}", json=body, headers=headers)
            assert resp.status_code == 403 and resp.get_json()["error"] == "bad_token", (path, headers)
    for seq in (-1, "3", 1.5, True, 2**60):
        resp = c.post("/api/rooms/Salle B/beat", json={"seq": seq}, headers=bearer(token))
        assert resp.status_code == 422 and resp.get_json()["error"] == "bad_field", seq


# ---- the claim ------------------------------------------------------------------------------------------------
def test_a_claim_in_the_annex_holds_every_draw_path_and_is_journalled_with_the_room_and_the_ball(annex):
    c = annex.app.test_client()
    token = join(annex)
    h = annex.hall
    h.start_partie(role="speaker")
    for n in (4, 13):
        assert draw(annex, n).status_code == 201
        ack(annex, token)
    bad = c.post("/api/rooms/Salle B/claim", json={"kind": "loto"}, headers=bearer(token))
    assert bad.status_code == 422 and bad.get_json()["error"] == "bad_field"
    resp = c.post("/api/rooms/Salle B/claim", json={"kind": "quine"}, headers=bearer(token))
    assert resp.status_code == 200, resp.get_json()
    assert resp.get_json() | {"seq": 0} == {"room": "Salle B", "partie": 1, "ball": 13, "kind": "quine", "seq": 0}
    refused = draw(annex, 37)
    assert refused.status_code == 423 and refused.get_json()["error"] == "locked"  # as for a claim in the room
    for path in (
        lambda: h.key_typed("draw", 37),
        lambda: h.ball_read(37, source="ball_machine", confirm=False),
        lambda: h.ball_read(37, source="ball_machine", confirm=True),
    ):
        with pytest.raises(Rejected) as refusal:
            path()
        assert refusal.value.code == "locked"
    claimed = [r for r in h.records() if r.type == "room:claim"]
    assert [(r.event.room, r.event.ball, r.event.kind, r.role) for r in claimed] == [("Salle B", 13, "quine", "annex")]
    assert [r.type for r in h.records()][-2:] == ["room:claim", "claim:announced"]
    assert c.post("/api/draws/resume", headers=annex.headers("speaker")).status_code == 200
    assert draw(annex, 37).status_code == 201
    between = c.post("/api/rooms/Salle B/claim", json={}, headers=bearer(token))  # a second shout: still heard
    assert between.status_code == 200 and between.get_json()["kind"] is None


def test_the_claim_reaches_every_socket_as_room_claim(annex):
    token = join(annex)
    annex.hall.start_partie(role="speaker")
    annex.hall.draw(4, role="speaker")
    with served(annex):
        public, speaker = connect(annex), connect(annex, "speaker")
        try:
            for client in (public, speaker):
                assert receive(client, "state")[1]["rooms"][0]["room"] == "Salle B"
            resp = annex.app.test_client().post(
                "/api/rooms/Salle B/claim", json={"kind": "quine"}, headers=bearer(token)
            )
            seq = resp.get_json()["seq"]
            for client in (public, speaker):
                got: dict[str, dict] = {}
                while len(got) < 2:  # the speaker's console hears its own news besides
                    name, data = receive(client)
                    if name in ("room:claim", "claim"):
                        got[name] = data
                assert got["room:claim"] == {"room": "Salle B", "ball": 4, "kind": "quine", "partie": 1, "seq": seq}
                assert got["claim"]["seq"] == seq + 1
        finally:
            close(public)
            close(speaker)


def test_a_claim_sent_again_with_its_key_is_one_claim(annex):
    """The annex sends each claim with an ``Idempotency-Key``: sent again (a kept claim after the link came back, a
    forward whose answer was lost), it is answered the first one and journalled once (RULES L23a)."""
    c = annex.app.test_client()
    token = join(annex)
    annex.hall.start_partie(role="speaker")
    annex.hall.draw(4, role="speaker")
    keyed = {**bearer(token), "Idempotency-Key": "annex-k1-abcdefgh"}
    first = c.post("/api/rooms/Salle B/claim", json={"kind": "quine"}, headers=keyed)
    again = c.post("/api/rooms/Salle B/claim", json={"kind": "quine"}, headers=keyed)
    assert first.status_code == again.status_code == 200
    assert again.get_json() == first.get_json() and again.headers["Idempotent-Replayed"] == "true"
    assert types(annex).count("room:claim") == 1
    refused(c.post("/api/rooms/Salle B/claim", json={"kind": "carton_plein"}, headers=keyed), 409, "request_id_reused")
    forged = c.post("/api/rooms/Salle B/claim", json={"kind": "quine"}, headers={**keyed, **bearer("x" * 43)})
    assert forged.status_code == 403 and forged.get_json()["error"] == "bad_token"  # the key opens nothing alone
    other = c.post(
        "/api/rooms/Salle B/claim", json={"kind": "quine"}, headers={**keyed, "Idempotency-Key": "k2-abcdefgh"}
    )
    assert other.status_code == 200 and "Idempotent-Replayed" not in other.headers  # another key: another shout
    assert types(annex).count("room:claim") == 2


def test_a_kept_claim_is_journalled_with_the_ball_it_was_pressed_on(annex, clock):
    """The speaker went on without the room; its claim, kept while cut off, arrives balls later: the journal says
    which ball the annex had shown when it was pressed, and that it was kept (RULES L23a)."""
    c = annex.app.test_client()
    token = join(annex)
    h = annex.hall
    h.start_partie(role="speaker")
    assert draw(annex, 42).status_code == 201
    ack(annex, token)
    clock.move(3.1)
    h.watch_rooms()
    assert c.post("/api/rooms/Salle B/go-on", headers=annex.headers("speaker")).status_code == 200
    assert draw(annex, 61).status_code == 201
    for body in ({"shown": 0}, {"shown": 91}, {"shown": "42"}, {"shown": True}, {"kept": 1}, {"kept": "yes"}):
        resp = c.post("/api/rooms/Salle B/claim", json={"kind": "quine", **body}, headers=bearer(token))
        assert resp.status_code == 422 and resp.get_json()["error"] == "bad_field", body
    resp = c.post("/api/rooms/Salle B/claim", json={"kind": "quine", "shown": 42, "kept": True}, headers=bearer(token))
    assert resp.status_code == 200 and resp.get_json()["ball"] == 61
    (claimed,) = [r.event for r in h.records() if r.type == "room:claim"]
    assert (claimed.ball, claimed.shown, claimed.kept) == (61, 42, True)
    refused(draw(annex, 7), 423, "locked")  # heard balls later, still the stop of L10


def test_a_claim_needs_a_partie_in_play(annex):
    token = join(annex)
    resp = annex.app.test_client().post("/api/rooms/Salle B/claim", json={"kind": "quine"}, headers=bearer(token))
    assert resp.status_code == 423 and resp.get_json()["error"] == "no_partie"
    assert "room:claim" not in types(annex)


# ---- the link -------------------------------------------------------------------------------------------------
def test_no_beat_for_3_s_refuses_every_ball_naming_the_room_until_the_speaker_goes_on(annex, clock):
    c = annex.app.test_client()
    h = annex.hall
    token = join(annex)
    h.start_partie(role="speaker")
    assert draw(annex, 4).status_code == 201
    ack(annex, token)
    clock.move(0.9)
    assert draw(annex, 5).status_code == 201  # heard within 1 s, the last ball shown
    ack(annex, token)
    early = c.post("/api/rooms/Salle B/go-on", headers=annex.headers("speaker"))
    assert early.status_code == 409 and early.get_json()["error"] == "room_online"
    clock.move(3.1)
    refused = draw(annex, 13)
    assert refused.status_code == 423
    assert refused.get_json()["error"] == "room_offline" and refused.get_json()["room"] == "Salle B"
    assert "Salle B" in refused.get_json()["message"]
    for path in (
        lambda: h.key_typed("draw", 13),
        lambda: h.ball_read(13, source="ball_machine", confirm=False),
        lambda: h.ball_read(13, source="ball_machine", confirm=True),
    ):
        with pytest.raises(Rejected) as refusal:
            path()
        assert (refusal.value.code, refusal.value.detail) == ("room_offline", {"room": "Salle B"})
    assert h.drawable_numbers() == ()
    assert c.get("/api/state").get_json()["rooms"] == [
        {"room": "Salle B", "online": False, "last_seen_s": 3, "going_on": False}
    ]
    assert [r.type for r in h.watch_rooms()] == ["room:lost"] and h.watch_rooms() == ()
    assert c.post("/api/rooms/Salle B/go-on", headers=annex.headers("controller")).status_code == 403
    go = c.post("/api/rooms/Salle B/go-on", headers=annex.headers("speaker"))
    assert go.status_code == 200 and go.get_json()["going_on"] is True
    twice = c.post("/api/rooms/Salle B/go-on", headers=annex.headers("speaker"))
    assert twice.status_code == 409 and twice.get_json()["error"] == "already_going_on"
    assert draw(annex, 13).status_code == 201 and draw(annex, 37).status_code == 201
    gone_on = [r for r in h.records() if r.type == "room:go_on"]
    assert [(r.event.room, r.event.partie, r.event.ball, r.role) for r in gone_on] == [("Salle B", 1, 5, "speaker")]
    assert c.get("/api/state").get_json()["rooms"][0]["going_on"] is True
    c.post("/api/rooms/Salle B/beat", json={"seq": 1}, headers=bearer(token))  # heard, but behind: not back yet
    assert [r for r in h.records() if r.type == "room:back"] == []
    ack(annex, token)
    back = [r for r in h.records() if r.type == "room:back"]
    assert [(r.event.room, r.event.went_on) for r in back] == [("Salle B", True)]
    assert c.get("/api/state").get_json()["rooms"][0] == {
        "room": "Salle B",
        "online": True,
        "last_seen_s": 0,
        "going_on": False,
    }
    clock.move(3.5)  # lost again: the speaker's choice held only until it was back
    assert draw(annex, 52).get_json()["error"] == "room_offline"
    assert types(annex) == ["room:opened", "room:enrolled", "room:lost", "room:go_on", "room:back"]


# ---- before the next number: each ball acknowledged (RULES L23a) ---------------------------------------------
def test_no_ball_is_drawn_over_a_ball_the_annex_has_not_shown(annex, clock):
    c = annex.app.test_client()
    h = annex.hall
    token = join(annex)
    h.start_partie(role="speaker")
    assert draw(annex, 4).status_code == 201  # the first ball: nothing before it to show
    at_four = h.last_seq()
    behind = refused(draw(annex, 5), 423, "room_behind")
    assert behind["room"] == "Salle B" and behind["ball"] == 4 and "Salle B" in behind["message"]
    for path in (
        lambda: h.key_typed("draw", 5),
        lambda: h.ball_read(5, source="ball_machine", confirm=False),
        lambda: h.ball_read(5, source="ball_machine", confirm=True),
    ):
        assert (rejected(path).code, rejected(path).detail) == ("room_behind", {"room": "Salle B", "ball": 4})
    assert h.drawable_numbers() == ()
    assert c.post("/api/rooms/Salle B/beat", json={"seq": at_four - 1}, headers=bearer(token)).status_code == 200
    refused(draw(annex, 5), 423, "room_behind")  # heard, but still showing the ball before
    assert c.post("/api/rooms/Salle B/beat", json={"seq": at_four}, headers=bearer(token)).status_code == 200
    assert draw(annex, 5).status_code == 201  # shown: the next ball goes
    ack(annex, token)
    clock.move(1.1)  # acked, but unheard for more than a second: it may be behind again by now
    assert refused(draw(annex, 6), 423, "room_behind")["ball"] == 5
    assert c.get("/api/state").get_json()["rooms"][0]["online"] is True  # not lost: nothing journalled
    assert "room:lost" not in types(annex) and h.watch_rooms() == ()
    ack(annex, token)
    assert draw(annex, 6).status_code == 201
    assert [r.event.number for r in h.records() if r.type == "draw:ball_drawn"] == [4, 5, 6]


def test_a_claim_is_no_ack_and_an_annex_stuck_behind_may_be_gone_on_without(annex, clock):
    c = annex.app.test_client()
    h = annex.hall
    token = join(annex)
    h.start_partie(role="speaker")
    assert draw(annex, 4).status_code == 201
    assert c.post("/api/rooms/Salle B/claim", json={"kind": "quine"}, headers=bearer(token)).status_code == 200
    h.resume(role="speaker")
    refused(draw(annex, 5), 423, "room_behind")  # the claim said it is there, not that it showed the 4
    go = c.post("/api/rooms/Salle B/go-on", headers=annex.headers("speaker"))  # heard but stuck: the speaker's call
    assert go.status_code == 200, go.get_json()
    assert draw(annex, 5).status_code == 201 and draw(annex, 6).status_code == 201
    c.post("/api/rooms/Salle B/beat", json={"seq": 1}, headers=bearer(token))
    assert "room:back" not in types(annex)  # heard, still behind: the draw goes on without it
    ack(annex, token)
    assert types(annex)[-2:] == ["room:go_on", "room:back"]
    assert draw(annex, 7).status_code == 201
    refused(draw(annex, 8), 423, "room_behind")  # back in step: each ball waits for it again


def test_after_a_restart_a_room_shows_the_last_ball_before_the_next(tmp_path, clock):
    first = annex_hall(tmp_path, clock)
    token = join(first)
    first.hall.start_partie(role="speaker")
    assert draw(first, 4).status_code == 201
    first.hall.journal.close()
    again = annex_hall(tmp_path, clock)
    assert refused(draw(again, 5), 423, "room_behind")["ball"] == 4  # the ack is not journalled: asked again
    ack(again, token)
    assert draw(again, 5).status_code == 201
    again.hall.journal.close()


def test_a_room_lost_then_back_without_going_on_lets_the_balls_through_again(annex, clock):
    c = annex.app.test_client()
    token = join(annex)
    annex.hall.start_partie(role="speaker")
    clock.move(5)
    annex.hall.watch_rooms()
    assert draw(annex, 4).get_json()["error"] == "room_offline"
    c.post("/api/rooms/Salle B/beat", json={"seq": 1}, headers=bearer(token))
    assert draw(annex, 4).status_code == 201
    assert types(annex)[-2:] == ["room:lost", "room:back"]
    assert [r.event.went_on for r in annex.hall.records() if r.type == "room:back"] == [False]


def test_a_room_opened_but_never_joined_stops_nothing(annex, clock):
    open_room(annex)
    annex.hall.start_partie(role="speaker")
    clock.move(60)
    assert annex.hall.watch_rooms() == ()
    assert draw(annex, 4).status_code == 201
    resp = annex.app.test_client().post("/api/rooms/Salle B/go-on", headers=annex.headers("speaker"))
    assert resp.status_code == 409 and resp.get_json()["error"] == "not_joined"


def test_the_links_watch_journals_a_lost_room_by_itself(annex, clock):
    """The background check (display/api_rooms.py) runs once a room is open: the loss is journalled without a
    ball asked for, so the speaker's console hears of it."""
    import threading

    join(annex)
    lost = threading.Event()
    annex.hall.subscribe(lambda record: lost.set() if record.type == "room:lost" else None)
    clock.move(4)
    assert lost.wait(5)


# ---- the record -----------------------------------------------------------------------------------------------
def test_the_journal_with_the_rooms_events_verifies_and_a_restart_keeps_rooms_tokens_and_going_on(
    tmp_path, clock, capsys
):
    first = annex_hall(tmp_path, clock)
    c = first.app.test_client()
    token = join(first)
    open_room(first, "Salle C")
    first.hall.start_partie(role="speaker")
    first.hall.draw(4, role="speaker")
    c.post("/api/rooms/Salle B/claim", json={"kind": "quine"}, headers=bearer(token))
    first.hall.resume(role="speaker")
    clock.move(3)
    first.hall.watch_rooms()
    assert c.post("/api/rooms/Salle B/go-on", headers=first.headers("speaker")).status_code == 200
    first.hall.draw(5, role="speaker")
    first.hall.journal.close()
    assert main(["verify", "--data-dir", str(tmp_path)]) == 0
    assert "chaîne intacte" in capsys.readouterr().out

    again = annex_hall(tmp_path, clock)
    c = again.app.test_client()
    assert c.get("/api/state").get_json()["rooms"] == [
        {"room": "Salle B", "online": False, "last_seen_s": 0, "going_on": True},
        {"room": "Salle C", "online": False, "last_seen_s": None, "going_on": False},
    ]
    assert again.hall.draw(13, role="speaker").event.number == 13  # still going on without it
    code = c.post("/api/rooms", json={"room": "Salle B"}, headers=again.headers("admin"))
    assert code.status_code == 409
    ack(again, token)
    assert types(again)[-1] == "room:back"
    assert c.get("/api/state").get_json()["rooms"][0]["online"] is True
    again.hall.journal.close()


def test_a_restart_gives_a_joined_room_the_limit_to_beat_again(tmp_path, clock):
    first = annex_hall(tmp_path, clock)
    join(first)
    first.hall.journal.close()
    clock.move(100)
    again = annex_hall(tmp_path, clock)
    again.hall.start_partie(role="speaker")
    assert draw(again, 4).status_code == 201  # the room has 3 s from the restart
    clock.move(3)
    assert draw(again, 5).get_json()["error"] == "room_offline"
    again.hall.journal.close()


def test_a_new_code_for_a_room_replaces_its_device(annex):
    c = annex.app.test_client()
    old = join(annex)
    resp = c.post("/api/rooms/Salle B/code", headers=annex.headers("admin"))
    assert resp.status_code == 200
    new = c.post("/api/rooms/Salle B/join", json={"code": resp.get_json()["code"]}).get_json()["token"]
    assert c.post("/api/rooms/Salle B/beat", json={"seq": 0}, headers=bearer(old)).status_code == 403
    assert c.post("/api/rooms/Salle B/beat", json={"seq": 0}, headers=bearer(new)).status_code == 200
    unknown = c.post("/api/rooms/Salle Z/code", headers=annex.headers("admin"))
    assert unknown.status_code == 404 and unknown.get_json()["error"] == "unknown_room"


def test_the_report_says_one_event_two_rooms_one_draw_with_each_claim_wait_and_go_on(annex, clock):
    from hall.money.report_csv import write_csv

    c = annex.app.test_client()
    token = join(annex)
    h = annex.hall
    h.start_partie(role="speaker")
    h.draw(4, role="speaker")
    c.post("/api/rooms/Salle B/claim", json={"kind": "quine"}, headers=bearer(token))
    h.resume(role="speaker")
    clock.move(3)
    h.watch_rooms()
    c.post("/api/rooms/Salle B/go-on", headers=annex.headers("speaker"))
    ack(annex, token)
    report = h.report()
    assert report.rooms is not None and report.rooms.headline() == "1 événement, 2 salles, même tirage"
    assert [(f.what, f.room, f.ball) for f in report.rooms.facts] == [
        ("room_claim", "Salle B", 4),
        ("room_lost", "Salle B", 4),
        ("room_go_on", "Salle B", 4),
        ("room_back", "Salle B", None),
    ]
    import io

    out = io.StringIO()
    write_csv(report, out)
    text = out.getvalue()
    assert "1 événement, 2 salles, même tirage (Salle B)" in text
    for word in ("quine en salle annexe", "liaison perdue avec la salle annexe", "continué sans la salle annexe"):
        assert word in text


def test_an_evening_in_one_room_reports_no_rooms(annex):
    annex.hall.start_partie(role="speaker")
    assert annex.hall.report().rooms is None


# ---- the pages ------------------------------------------------------------------------------------------------
def test_the_projector_says_the_annex_claim_with_its_chime_and_the_console_goes_on_without_a_lost_room(
    tmp_path, clock, browser
):
    from playwright.sync_api import expect

    from tests.display.conftest import PINS, LiveServer, answer, login_page

    annex = annex_hall(tmp_path, clock)
    token = join(annex)
    annex.hall.start_partie(role="speaker")
    annex.hall.draw(4, role="speaker")
    server = LiveServer(annex.app)
    ctx = browser.new_context(viewport={"width": 1600, "height": 900}, locale="fr-FR")
    try:
        projector, speaker = ctx.new_page(), ctx.new_page()
        projector.goto(server.url + "/")
        expect(projector.locator("#last")).to_have_text("4")
        login_page(speaker, server.url + "/speaker", PINS["speaker_pin"])
        expect(speaker.locator("#annex-rooms")).to_contain_text("Salle B : en ligne")
        annex.app.test_client().post("/api/rooms/Salle B/claim", json={"kind": "quine"}, headers=bearer(token))
        expect(projector.locator("#banner-text")).to_have_text("Quine en salle annexe")
        expect(projector.locator("#banner-sub")).to_contain_text("Salle B")
        expect(projector.locator("body")).to_have_attribute("data-annex-chimes", "1")
        expect(speaker.locator("#entry-msg")).to_contain_text("Quine en salle annexe")
        annex.hall.resume(role="speaker")
        clock.move(4)
        annex.hall.watch_rooms()
        expect(speaker.locator("#annex-rooms")).to_contain_text("Salle B : liaison perdue")
        speaker.locator("#annex-rooms .annex-go-on").click()
        answer(speaker, "yes", asked="Continuer sans la salle annexe")  # asked first (test_rooms_admin.py)
        expect(speaker.locator("#annex-rooms")).to_contain_text("le tirage continue sans elle")
        assert types(annex)[-1] == "room:go_on"
    finally:
        ctx.close()
        server.stop()
        annex.hall.journal.close()


def test_the_boards_copy_names_the_rooms(annex):
    from drivers.printer_sink import decode_text
    from drivers.ticket_layout import render_ticket

    join(annex)
    open_room(annex, "Salle C")
    annex.hall.request_ticket(role="admin")
    (job,) = annex.hall.tickets_to_print()
    assert job.request.rooms == ("Salle B", "Salle C")
    text = decode_text(render_ticket("Salle des fêtes", job))
    assert "1 événement, 3 salles, même tirage" in text and "Salles annexes : Salle B, Salle C" in text
