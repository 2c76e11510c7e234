"""More phones than one process (INTERFACE §10, issue 25): the core, two relays, nginx in front, a real Redis.

Each test starts ``loto-hall serve`` with ``[server] message_queue`` and ``socket_workers = 2`` (the core on
loopback, each relay on a port of its own, Debian's nginx on the hall's port dealing the phones with ``least_conn``),
phones on the relays' path through the front, each from one of several loopback addresses (the front tells the
relays each one in ``X-Real-IP``, as on the hall's Wi-Fi: the per-address cap never bites), and the speaker drawing
over HTTP. What must hold: every phone gets every ball in order, whichever relay
carries it; Redis stopped and started again mid-partie costs no ball; a SIGKILLed relay's 150 phones are on the
other relay within 3 s with every ball; a forged message on the queue reaches no phone; a relay whose subscription Redis dropped is found deaf, said on /admin and the speaker's
console, and replaced.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
import urllib.request

import pytest
import socketio

from display.relay_seal import KEY_FILE, REPORT, unseal_json
from display.relay_wire import CHANNEL, RELAYS_KEY
from hall.app.demo import DEMO_PINS
from tests.app.conftest import free_port, get_json
from tests.app.raw_socket import RawSocket, Refused
from tests.app.relay_parts import Phone, close_all, needs_nginx, needs_redis, wait_until
from tests.display.conftest import login_page

pytestmark = [pytest.mark.slow, needs_redis, needs_nginx]


@pytest.fixture
def hall(tmp_path, run_hall, redis_server):
    """``loto-hall serve`` with two relays, answering through its front; phones are closed at the end."""
    proc = start_hall(tmp_path, run_hall, redis_server)
    yield proc
    close_all(proc.phones)


def hall_ports(workers: int) -> tuple[int, int, int]:
    """The hall's port, the core's, and the first relay's, the relays' next ones free too and none the same."""
    import socket

    while True:
        port, core, first = free_port(), free_port(), free_port()
        relays = range(first, first + workers)
        if len({port, core}) == 2 and port not in relays and core not in relays:
            try:
                for p in relays[1:]:
                    with socket.socket() as s:
                        s.bind(("127.0.0.1", p))
            except OSError:
                continue
            return port, core, first


def start_hall(tmp_path, run_hall, redis_server, extra: str = "", workers: int = 2):
    port, core_port, socket_port = hall_ports(workers)
    staff_port = free_port()
    while staff_port in (port, core_port, *range(socket_port, socket_port + workers)):
        staff_port = free_port()
    config = tmp_path / "relays.toml"
    pins = "\n".join(f'{k} = "{v}"' for k, v in DEMO_PINS.items())
    config.write_text(f"""[hall]
data_dir = "{tmp_path / "data"}"
[auth]
{pins}
[server]
host = "127.0.0.1"
message_queue = "{redis_server.url}"
socket_workers = {workers}
core_port = {core_port}
socket_port = {socket_port}
staff_port = {staff_port}
{extra}""")
    proc = run_hall(["--config", str(config)], port=port)
    if extra:
        return proc
    proc.wait_answering()
    proc.phones = []
    proc.token = get_json(proc.url + "/api/login", data={"pin": DEMO_PINS["speaker_pin"]})[1]["token"]
    proc.admin = get_json(proc.url + "/api/login", data={"pin": DEMO_PINS["admin_pin"]})[1]["token"]
    proc.relay_redis = redis_server.client()
    proc.queue_key = (tmp_path / "data" / KEY_FILE).read_bytes()  # the hall made it before its relays started
    return proc


def speaker(hall, path: str, body: dict | None = None) -> tuple[int, dict]:
    return get_json(hall.url + path, headers={"Authorization": f"Bearer {hall.token}"}, data=body or {})


def phones_on_both_relays(hall, at_least: int = 6) -> list[Phone]:
    """``at_least`` phones, which the front deals between the two relays (``least_conn``: both carry some)."""
    wait_until(lambda: len(relay_reports(hall)) >= 2, 20, "two relays never reported")
    phones: list[Phone] = []
    for _ in range(at_least):
        phone = Phone(hall.url)
        hall.phones.append(phone)
        phones.append(phone)
        wait_until(lambda: phone.relays, 10, "a phone got no state")
    assert len({p.relay for p in phones}) == 2, [p.relay for p in phones]
    return phones


def relay_reports(hall) -> dict:
    """Each relay's last report, checked against the hall's seal."""
    reports = {
        relay: unseal_json(hall.queue_key, REPORT, text) for relay, text in hall.relay_redis.hgetall(RELAYS_KEY).items()
    }
    assert None not in reports.values(), reports
    return reports


def draw(hall, number: int) -> float:
    """The speaker draws ``number``; returns how long the answer took (s)."""
    started = time.monotonic()
    status, body = speaker(hall, "/api/draws", {"number": number, "request_id": f"t-{number}-{started}"})
    assert status == 201, body
    return time.monotonic() - started


def test_every_phone_gets_every_ball_in_order_on_either_relay(hall):
    phones = phones_on_both_relays(hall)
    assert speaker(hall, "/api/partie/start")[0] == 201
    balls = [17, 4, 88, 23, 61, 9, 45, 90, 1, 33]
    for n in balls:
        draw(hall, n)
    for phone in phones:
        assert phone.has(balls, 10), (phone.relay, phone.draws)
        assert phone.gaps == 0
    assert hall.state()["draws"] == balls


def test_the_front_deals_the_phones_evenly_and_admin_shows_each_relays_count(hall, browser):
    phones = phones_on_both_relays(hall, at_least=12)
    counts = sorted(sum(1 for p in phones if p.relay == r) for r in {p.relay for p in phones})
    assert counts == [6, 6], counts
    admin = {"Authorization": f"Bearer {hall.admin}"}

    def spread():
        relays = get_json(hall.url + "/api/network", headers=admin)[1]["relays"]
        return relays if sorted(r["clients"] for r in relays) == [6, 6] else None

    relays = wait_until(spread, 10, "/api/network does not show each relay's phones")
    assert len({r["port"] for r in relays}) == 2
    page = browser.new_page(viewport={"width": 1280, "height": 720}, locale="fr-FR")
    try:
        login_page(page, hall.url + "/admin", DEMO_PINS["admin_pin"])
        page.wait_for_function("document.getElementById('relay-spread').textContent.includes('6 · 6')", timeout=15000)
        assert page.locator("#relay-spread").text_content().replace("\xa0", " ") == "Téléphones sur les relais : 6 · 6"
    finally:
        page.close()


def test_phones_still_connect_to_a_relay_during_and_after_a_flood_of_frames(tmp_path, run_hall, redis_server):
    """One relay behind the front; sixteen sockets of one address writing ``game_watch`` for unknown rooms and one
    writing ``resync``, as fast as the kernel takes them, on the relays' path: each is cut, and phones of other
    addresses connect and get their state within 5 s all along, the machine loaded or not (before the frames were
    bounded, a phone waited 10–15 s, or was refused); the speaker's draws reach them."""
    hall = start_hall(tmp_path, run_hall, redis_server, workers=1)
    try:
        flood_the_relay(hall)
    finally:
        close_all(hall.phones)


def flood_the_relay(hall) -> None:
    assert speaker(hall, "/api/partie/start")[0] == 201
    wait_until(lambda: relay_reports(hall), 20, "the relay never reported")
    deadline = time.monotonic() + 4.0
    cuts: list[bool] = []

    def attacker(text: str) -> None:
        while time.monotonic() < deadline:
            try:
                sock = RawSocket(hall.port, "127.0.0.67", path="/live/socket.io/")
            except (Refused, OSError):
                continue
            cuts.append(sock.flood(text, deadline - time.monotonic())[1])
            sock.close()

    attackers = [
        threading.Thread(target=attacker, args=('42["game_watch",{"code":"Z%03d"}]' % i,)) for i in range(16)
    ] + [threading.Thread(target=attacker, args=('42["resync"]',))]
    for thread in attackers:
        thread.start()
    joined: list[float] = []
    try:
        while time.monotonic() < deadline + 3.0:  # a new phone every half second, during and after
            started = time.monotonic()
            phone = Phone(hall.url)
            hall.phones.append(phone)
            wait_until(
                lambda: phone.relays,
                5,
                f"a phone got no state {time.monotonic() - deadline:+.1f} s from the flood's end",
            )
            joined.append(time.monotonic() - started)
            threading.Event().wait(max(0.0, started + 0.5 - time.monotonic()))
    finally:
        for thread in attackers:
            thread.join(30)
    assert cuts and all(cuts) and len(joined) >= 5 and max(joined) < 5.0, joined
    draw(hall, 77)
    for phone in hall.phones:
        assert phone.has([77], 5), (phone.relay, phone.draws)
    wait_until(
        lambda: sum(r.get("cut", 0) for r in relay_reports(hall).values()) >= len(cuts),
        5,
        "the relays' reports do not count the sockets they cut",
    )


def test_a_forged_message_on_the_queue_reaches_no_phone_and_the_real_draws_keep_flowing(hall, redis_server):
    """Redis on loopback answers any local account (the kiosk's too). What once froze or fooled every phone, each
    ``PUBLISH``ed by such an account: an event announcing seq 1 000 000 000 (the relays then dropped every real
    draw), an ``emit`` of a ball 66 never drawn, a message sealed with another key, one cut from a real message
    with its run and a later number, the core's own earlier message replayed (the audience's screen), and bytes
    that are not UTF-8 (they ended a relay's listening: its phones all reconnected). None reaches a phone; the
    speaker's next draws reach every phone, in order, on the same relay; each relay counts what it refused."""
    import redis

    phones = phones_on_both_relays(hall, at_least=4)
    code = speaker(hall, "/api/games/rooms", {"game": "lobo77"})[1]["code"]
    tap = redis.Redis(port=redis_server.port, socket_timeout=5).pubsub(ignore_subscribe_messages=True)
    tap.subscribe(CHANNEL)  # what the core publishes, as any local account may read it
    assert speaker(hall, "/api/screen", {"show": "game", "code": code})[0] == 200
    wait_until(lambda: all(p.screens for p in phones), 10, "the audience never heard the screen")
    assert speaker(hall, "/api/screen", {"show": "loto"})[0] == 200
    assert speaker(hall, "/api/partie/start")[0] == 201
    draw(hall, 17)
    for phone in phones:
        assert phone.has([17], 10), (phone.relay, phone.draws)
    heard: list[bytes] = []
    wait_until(lambda: heard.extend(m["data"] for m in iter(tap.get_message, None)) or len(heard) >= 3, 10, "no tap")
    tap.close()
    screen = next(m for m in heard if b'"name":"screen"' in m and b'"show":"game"' in m)
    real = json.loads(next(m for m in heard if b'"t":"ev"' in m)[64:])
    seq = hall.state()["seq"]
    huge = {"number": 66, "index": 2, "partie": 1, "seq": 1_000_000_000}
    forged = [
        json.dumps({"t": "ev", "seq": 1_000_000_000, "name": "draw", "data": huge}).encode(),
        json.dumps({"t": "emit", "name": "draw", "to": None, "data": {**huge, "seq": seq + 1}}).encode(),
        b"0" * 64
        + json.dumps(
            {
                "r": real["r"],
                "k": real["k"] + 1000,
                "t": "ev",
                "seq": seq + 1,
                "name": "draw",
                "data": {**huge, "seq": seq + 1},
            }
        ).encode(),
        screen,
        b"\xff\xfe\xfd\xfc" * 20,
    ]
    screens_before = [len(p.screens) for p in phones]
    relays_before = [list(p.relays) for p in phones]
    forger = redis.Redis(port=redis_server.port, socket_timeout=5)
    for raw in forged:
        assert forger.publish(CHANNEL, raw) == 2  # both relays hear it
    for n in (4, 88):
        draw(hall, n)
    for phone in phones:
        assert phone.has([17, 4, 88], 10), (phone.relay, phone.draws)
        assert phone.heard == [17, 4, 88] and phone.gaps == 0  # no ball 66, ever
    assert [len(p.screens) for p in phones] == screens_before  # the replayed screen reached nobody
    assert [p.relays for p in phones] == relays_before  # nobody reconnected: no relay stopped listening
    wait_until(
        lambda: sum(r.get("refused", 0) for r in relay_reports(hall).values()) == 2 * len(forged),
        10,
        f"the relays did not count what they refused: {relay_reports(hall)}",
    )


def test_redis_stopped_and_started_again_mid_partie_loses_no_ball(hall, redis_server):
    phones = phones_on_both_relays(hall, at_least=4)
    projector = socketio.Client()  # a screen on the core itself: it must keep updating without Redis
    seen: list[int] = []
    projector.on("draw", lambda d: seen.append(d["number"]))
    projector.connect(hall.url, transports=["websocket"], wait_timeout=10)
    try:
        assert speaker(hall, "/api/partie/start")[0] == 201
        before, during, after = [5, 6, 7], [50, 51, 52, 53, 54], [80, 81]
        for n in before:
            draw(hall, n)
        for phone in phones:
            assert phone.has(before, 10)
        redis_server.stop()
        stopped = time.monotonic()
        for n in during:
            assert draw(hall, n) < 2.0  # journalled and answered as without a queue
        wait_until(lambda: seen[-len(during) :] == during, 10, f"the core's own screen stopped: {seen}")
        # the relays still beat their phones on their own clock: no phone turns « hors ligne » for Redis
        wait_until(
            lambda: all(sum(t > stopped for t in p.beats_at) >= 2 for p in phones),
            10,
            f"a phone stopped hearing its relay: {[len(p.beats_at) for p in phones]}",
        )
        admin = get_json(hall.url + "/api/admin", headers={"Authorization": f"Bearer {hall.admin}"})[1]
        wait_until(
            lambda: (
                get_json(hall.url + "/api/admin", headers={"Authorization": f"Bearer {hall.admin}"})[1]["devices"]
                .get("relays", {})
                .get("status")
                == "degraded"
            ),
            10,
            f"Redis away not said: {admin}",
        )
        redis_server.start()
        for n in after:
            draw(hall, n)
        for phone in phones:
            assert phone.has(before + during + after, 15), (phone.relay, phone.draws)
            assert len(set(phone.relays)) == 1, phone.relays  # healed in place: no relay was replaced
    finally:
        projector.disconnect()


def test_a_relay_killed_under_a_crowd_another_takes_its_phones_within_3_s_and_no_ball_is_missed(
    tmp_path, run_hall, redis_server
):
    """300 phones from 30 loopback addresses on two relays (the bench's phones: they come back as the page does), a
    ball every half second; one relay SIGKILLed. Its phones are on the other relay at once — its port refuses, and
    so does its replacement's until it can serve, so the front's next upstream takes them (a replacement that
    listened while it was still importing held them 5–8 s) —: p99 < 3 s; every phone gets every ball, by its event
    or by the state it is given on its return; no phone of the other relay is disturbed."""
    import multiprocessing as mp

    from bench.crowd_phones import start_crowd
    from bench.stats import percentile

    hall = start_hall(tmp_path, run_hall, redis_server)
    assert speaker(hall, "/api/partie/start")[0] == 201
    wait_until(lambda: len(relay_reports(hall)) >= 2, 20, "two relays never reported")
    ready, results, stop, sent_q = mp.Queue(), mp.Queue(), mp.Event(), mp.Queue()
    crowd, connected, refused = start_crowd(1, 300, hall.port, "/live/socket.io/", ready, results, stop, [sent_q])
    try:
        assert (connected, refused) == (300, 0)
        carried = wait_until(
            lambda: (r := relay_reports(hall)) and sum(x["clients"] for x in r.values()) == 300 and r,
            10,
            "the relays never reported the crowd",
        )
        victim = max(carried, key=lambda relay: carried[relay]["clients"])
        sent: dict[int, tuple[float, int, int]] = {}
        killed = 0.0
        for i, number in enumerate(range(1, 14)):
            if i == 3:
                killed = time.time()
                os.kill(int(victim.rsplit(":", 1)[1]), signal.SIGKILL)
            t0 = time.time()
            status, body = speaker(hall, "/api/draws", {"number": number, "request_id": f"kill-{number:03d}"})
            assert status == 201, body
            sent[body["seq"]] = (t0, 1, number)
            threading.Event().wait(max(0.0, t0 + 0.5 - time.time()))
        threading.Event().wait(2.0)  # the last ball's way to every phone
    finally:
        stop.set()
        sent_q.put(sent)
    out = results.get(timeout=120)
    for process in crowd:
        process.join(10)
    missed = {seq: connected - count for seq, (count, _, _) in out["draws"].items() if count < connected}
    assert not missed, missed
    returns = [r for r in out["returns"] if r[2] == victim]
    assert len(returns) == carried[victim]["clients"] == out["disconnects"], (len(returns), out["disconnects"])
    back = [at - killed for _, at, _, _ in returns]
    assert all(relay not in ("", victim) for _, _, _, relay in returns)
    assert percentile(back, 99) < 3.0, sorted(back)[-10:]


def test_a_deaf_relay_is_found_said_and_replaced(hall, redis_server):
    phones = phones_on_both_relays(hall, at_least=4)
    assert speaker(hall, "/api/partie/start")[0] == 201
    draw(hall, 40)
    console = socketio.Client()  # the speaker's console on the core
    notices: list[dict] = []
    console.on("device", lambda d: notices.append(d))
    console.connect(hall.url, auth={"token": hall.token}, transports=["websocket"], wait_timeout=10)
    try:
        relays_before = set(relay_reports(hall))
        killed = redis_server.client().client_kill_filter(_type="pubsub")
        assert killed >= 2  # both relays' subscriptions dropped, Redis still answering
        started = time.monotonic()
        draw(hall, 41)

        def said():
            devices = get_json(hall.url + "/api/admin", headers={"Authorization": f"Bearer {hall.admin}"})[1]
            relays = devices["devices"].get("relays", {})
            return relays if relays.get("status") == "degraded" and "sourd" in relays.get("detail", "") else None

        relays = wait_until(said, 10, "no deaf relay said on /admin")
        assert time.monotonic() - started < 10
        # the console hears it from the broadcaster's queue, a moment after /admin reads it
        wait_until(
            lambda: any(n.get("device") == "relays" and "sourd" in n.get("detail", "") for n in notices),
            5,
            f"the console was not told: {notices}",
        )
        wait_until(lambda: len(set(relay_reports(hall)) - relays_before) >= 2, 15, "the deaf relays were not replaced")
        draw(hall, 42)
        for phone in phones:
            assert phone.has([40, 41, 42], 15), (phone.relay, phone.draws)
        assert relays["detail"]
    finally:
        console.disconnect()


def test_the_mini_game_audience_follows_a_room_on_the_relays(hall):
    status, room = speaker(hall, "/api/games/rooms", {"game": "lobo77"})
    assert status == 201, room
    code = room["code"]
    audience = socketio.Client()
    games: list[dict] = []
    screens: list[dict] = []
    errors: list[dict] = []
    cond = threading.Condition()

    def got(kind: list):
        def add(data):
            with cond:
                kind.append(data)
                cond.notify_all()

        return add

    audience.on("game", got(games))
    audience.on("screen", got(screens))
    audience.on("game_error", got(errors))
    audience.connect(hall.url, socketio_path="live/socket.io", transports=["websocket"], wait_timeout=10)
    try:
        audience.emit("game_watch", {"code": "ZZZZ"})
        with cond:
            assert cond.wait_for(lambda: errors, 10) and errors[0]["error"] == "unknown_room"
        audience.emit("game_watch", {"code": code.lower()})
        with cond:
            assert cond.wait_for(lambda: games, 10)
        assert get_json(hall.url + f"/api/games/rooms/{code}/join", data={"name": "Alice"})[0] == 201
        with cond:
            assert cond.wait_for(lambda: any(s["name"] == "Alice" for s in games[-1]["room"]["seats"]), 10), games
        assert speaker(hall, "/api/screen", {"show": "game", "code": code})[0] == 200
        with cond:
            assert cond.wait_for(lambda: screens and screens[-1].get("code") == code, 10), screens
    finally:
        audience.disconnect()


def test_a_phone_at_a_table_watches_on_the_relays_then_on_the_core_once_seated(hall, browser):
    """Chromium on /j/CODE: the audience's socket on the relays' path; once the phone takes a seat, its socket
    moves to the core, where a seat's presence counts (the seat shows connected)."""
    code = speaker(hall, "/api/games/rooms", {"game": "lobo77"})[1]["code"]
    page = browser.new_page(viewport={"width": 360, "height": 640}, locale="fr-FR")
    try:
        page.goto(f"{hall.url}/j/{code}")
        page.wait_for_function("document.body.dataset.socket === '/live/socket.io'", timeout=15000)
        page.locator("input").first.fill("Zoé")
        page.keyboard.press("Enter")
        page.wait_for_function("document.body.dataset.socket === '/socket.io'", timeout=15000)
        wait_until(
            lambda: get_json(hall.url + f"/api/games/rooms/{code}")[1]["seats"][0]["connected"],
            10,
            "the seat never showed connected",
        )
    finally:
        page.close()


def test_with_tls_the_front_holds_the_certificate_and_both_paths_accept_the_pages_origin(
    tmp_path, run_hall, redis_server
):
    """nginx terminates HTTPS and tells the scheme: Engine.IO's same-origin check on the core and on the relays
    accepts a page of https://host:port (a phone's camera needs HTTPS)."""
    proc = start_hall(tmp_path, run_hall, redis_server, extra="tls = true\nlocal_port = 0\n")
    url = proc.url.replace("http://", "https://")
    ssl = __import__("ssl")
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE

    def answers():
        try:
            with urllib.request.urlopen(url + "/api/state", context=context, timeout=2) as resp:
                return resp.status == 200
        except OSError:
            return False

    wait_until(answers, 60, "the front never answered over HTTPS")
    for path in ("socket.io", "live/socket.io"):
        client = socketio.Client(ssl_verify=False)
        states: list[dict] = []
        client.on("state", states.append)
        client.connect(url, socketio_path=path, transports=["websocket"], wait_timeout=10)  # with its Origin, as a page
        try:
            wait_until(lambda: states, 10, f"no state on {path}")
        finally:
            client.disconnect()


def test_phones_on_the_relays_are_told_their_own_cartons_standing_and_nobody_elses(hall, tmp_path):
    """Issue 39, item 2 through the relays: each phone follows its carton by key on whichever relay the front gave
    it, and gets that carton's standing as the core computed it — one queue message per record for every relay —
    and never another carton's; a relay asks the core once for a key it had not heard of."""
    from hall.app.runtime import SECRET_FILE
    from hall.cartons.card_ids import card_code, make_card_id
    from hall.record.secretfile import load_or_create_secret

    admin = {"Authorization": f"Bearer {hall.admin}"}
    assert get_json(hall.url + "/api/cards/generate", headers=admin, data={"count": 6, "series": "R"})[0] == 201
    secret = load_or_create_secret(tmp_path / "data" / SECRET_FILE)
    ids = [make_card_id("R", 1), make_card_id("R", 2)]
    linked = get_json(
        hall.url + "/api/players/cards", data={"card_ids": [{"card_id": c, "code": card_code(secret, c)} for c in ids]}
    )
    keys = {c["card_id"]: c["follow"] for c in linked[1]["cards"]}
    assert set(keys) == set(ids)
    wait_until(lambda: len(relay_reports(hall)) >= 2, 20, "two relays never reported")
    told: dict[str, list[dict]] = {cid: [] for cid in ids}
    cond = threading.Condition()
    phones = []
    for cid in ids * 2:  # two phones per carton: the front deals them between the relays
        phone = socketio.Client()

        def heard(data, mine=cid):
            with cond:
                items = data["items"] if "items" in data else [data]
                told[mine].extend(items)
                cond.notify_all()

        phone.on("cartons", heard)
        phone.on("carton", heard)
        phone.connect(hall.url, socketio_path="live/socket.io", transports=["websocket"], wait_timeout=10)
        phone.emit("follow", {"keys": [keys[cid]]})
        phones.append(phone)
    try:
        assert speaker(hall, "/api/partie/start")[0] == 201
        grid = get_json(
            hall.url + "/api/players/cards", data={"card_ids": [{"card_id": ids[0], "code": card_code(secret, ids[0])}]}
        )
        first_row = [n for n in grid[1]["cards"][0]["rows"][0] if n is not None]
        for n in first_row[:-1]:
            draw(hall, n)
        with cond:  # four numbers of its top row out: one to go, the fifth
            assert cond.wait_for(lambda: any(i.get("to_go") == [first_row[-1]] for i in told[ids[0]]), 15), told[ids[0]]
        draw(hall, first_row[-1])
        with cond:
            assert cond.wait_for(lambda: sum(i["verdict"] == "valid" for i in told[ids[0]]) >= 2, 15), told[ids[0]]
        assert all(i["card_id"] == cid for cid in ids for i in told[cid])  # nobody else's carton, on any relay
    finally:
        for phone in phones:
            phone.disconnect()
