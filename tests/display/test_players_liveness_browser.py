"""« Mes cartons » hears the hall by its beat (display/sockets.py), in Chromium at 360×640: a quiet hall keeps the
page online with Engine.IO's ping 25 s apart, a lost event is caught up at the next beat, and a connection that
went silent without closing is dropped and opened again (``mes_cartons.js``)."""

from __future__ import annotations

from tests.display.conftest import A1
from tests.display.test_players_browser import card, carton_link, hall_room, marked, opened, phone, shot  # noqa: F401


def follow(room, page, frames):
    """Open A1's page through a relay of its WebSocket frames: ``frames(n, text)`` says whether the hall's frame
    ``text`` reaches the page on its ``n``-th connection (1, 2, …); returns the list of connections made."""
    made: list[int] = []

    def route(ws):
        made.append(len(made) + 1)
        n = made[-1]
        server = ws.connect_to_server()
        ws.on_message(server.send)
        server.on_message(lambda m: ws.send(m) if frames(n, m) else None)

    page.route_web_socket(lambda u: "/socket.io/" in u, route)
    page.goto(opened(room, carton_link(room, A1)))  # the printed QR code's link, the carton's code in it
    card(page, A1).wait_for()
    return made


def stays_online(page, ms: int) -> None:
    """The « hors ligne » strip never shows for ``ms`` milliseconds (checked at every animation frame)."""
    page.wait_for_function(
        """ms => {
        window.__since = window.__since || performance.now();
        if (!document.getElementById("mc-net").hidden) throw new Error("hors ligne after " +
                                                                 Math.round(performance.now() - window.__since));
        return performance.now() - window.__since > ms; }""",
        arg=ms,
        timeout=ms + 5_000,
    )


def test_a_quiet_hall_keeps_the_phone_online_by_its_beat(hall_room, phone):  # noqa: F811
    """No ball for 7 s and Engine.IO's ping 25 s apart: the beats alone keep « hors ligne » away."""
    follow(hall_room, phone, lambda n, m: True)
    assert hall_room.socketio.server.eio.ping_interval == 25
    stays_online(phone, 7_000)


def test_a_lost_ball_is_caught_up_at_the_next_beat(hall_room, phone):  # noqa: F811
    """The ball's frame never reaches the phone and no other ball follows: the next beat names a seq past the
    page's, the page asks for the state again and marks the ball."""
    h = hall_room.hall
    follow(hall_room, phone, lambda n, m: not m.startswith('42["draw"'))
    h.start_partie(role="speaker")
    phone.wait_for_function("document.body.dataset.seq == %d" % h.snapshot().seq)
    h.draw(4, role="speaker")
    phone.wait_for_function("document.body.dataset.seq == %d" % h.snapshot().seq, timeout=6_000)
    assert marked(phone, A1) == {4}


def test_a_connection_gone_silent_is_opened_again(hall_room, phone, tmp_path):  # noqa: F811
    """The first connection stops carrying the hall's frames without closing (a Wi-Fi that dropped the phone's
    flow): « hors ligne » within 5 s, then after 12 s of silence the page drops it and opens another, which
    brings the balls drawn meanwhile."""
    h = hall_room.hall
    silent = {"on": False}
    made = follow(hall_room, phone, lambda n, m: n > 1 or not silent["on"])
    h.start_partie(role="speaker")
    phone.wait_for_function("document.body.dataset.seq == %d" % h.snapshot().seq)
    silent["on"] = True
    phone.wait_for_selector("#mc-net", state="visible", timeout=5_500)
    shot(phone, "mes-cartons-360x640-offline.png", tmp_path)
    h.draw(13, role="speaker")
    h.draw(37, role="speaker")
    phone.wait_for_function("document.body.dataset.seq == %d" % h.snapshot().seq, timeout=20_000)
    assert len(made) == 2
    assert marked(phone, A1) == {13, 37}
    phone.wait_for_selector("#mc-net", state="hidden")
