"""Issue 31 item 4 through the real app: a new console comes in by a code a console already in shows it, whatever
strangers on the Wi-Fi are doing; /admin sees the live consoles and ends one."""

from __future__ import annotations

from display.enrolment import ADDRESS_TRIES, CODE_TTL_S, may_enrol
from display.login_guard import EVERYONE_FAILS
from display.services import services_of
from tests.display.conftest import PINS
from tests.display.test_pin_guard import START, client, guess, login
from tests.helpers import refused

NEW_TABLET = "10.42.0.77"


def attack(room, rounds: int = 3) -> None:
    """Strangers from 60 addresses: wrong PINs (the strangers' budget spent many times over) and wrong codes."""
    for i in range(EVERYONE_FAILS[0] * rounds):
        stranger = client(room, f"10.42.{30 + i // 200}.{i % 200}")
        guess(stranger, i)
        refused(stranger.post("/api/enrol", json={"code": f"KMNP{i:04d}"}), 401, "enrol_code_wrong")


def test_an_enrolment_during_a_wrong_pin_attack_from_other_addresses_succeeds(room):
    admin = client(room, "10.42.0.10")
    assert login(admin, PINS["admin_pin"]).status_code == 200
    attack(room)
    refused(login(client(room, NEW_TABLET), PINS["desk_pin"]), 429, "too_many_attempts")  # a stranger is held
    made = admin.post("/api/enrolments", json={"role": "desk"}, headers=csrf(admin))
    assert made.status_code == 201, made.get_json()
    offer = made.get_json()
    assert offer["url"].endswith("/ajout#" + offer["code"].replace("-", "")) and offer["qr_svg"].startswith("<svg")
    assert offer["expires_in"] == CODE_TTL_S
    attack(room, 1)  # the guessing goes on meanwhile
    tablet = client(room, NEW_TABLET)
    answer = tablet.post("/api/enrol", json={"code": offer["code"], "name": "Josette\u202e"}).get_json()
    assert answer["role"] == "desk" and answer["page"] == "/caisse"
    assert tablet.get("/api/me").get_json()["role"] == "desk"
    names = [c["name"] for c in admin.get("/api/consoles").get_json()["consoles"]]
    assert "Josette" in names  # format characters never reach /admin
    tablet.post("/api/logout")  # known from now on: the PIN opens it during the attack
    assert login(tablet, PINS["desk_pin"]).get_json()["role"] == "desk"


def csrf(c) -> dict:
    return {"X-CSRF-Token": c.get("/api/me").get_json()["csrf"]}


def test_a_code_opens_once_for_a_few_minutes_and_only_a_role_the_maker_holds(room):
    speaker = client(room, "10.42.0.11")
    login(speaker, PINS["speaker_pin"])
    for role in ("admin", "desk"):
        refused(speaker.post("/api/enrolments", json={"role": role}, headers=csrf(speaker)), 403, "forbidden")
    refused(client(room, "10.42.0.12").post("/api/enrolments", json={"role": "controller"}), 401, "unauthorized")
    first = speaker.post("/api/enrolments", json={"role": "controller"}, headers=csrf(speaker)).get_json()
    assert (
        client(room, "10.42.0.13").post("/api/enrol", json={"code": first["code"]}).get_json()["role"] == "controller"
    )
    refused(client(room, "10.42.0.14").post("/api/enrol", json={"code": first["code"]}), 401, "enrol_code_wrong")
    enrolments = services_of(room.app).auth.enrolments
    now = [START]
    enrolments.clock = lambda: now[0]
    late = speaker.post("/api/enrolments", json={"role": "controller"}, headers=csrf(speaker)).get_json()
    now[0] += CODE_TTL_S + 1
    refused(client(room, "10.42.0.15").post("/api/enrol", json={"code": late["code"]}), 401, "enrol_code_wrong")
    form = client(room, "10.42.0.16").post(
        "/api/enrol", data=f"code={late['code']}", content_type="application/x-www-form-urlencoded"
    )
    refused(form, 415, "json_required")


def test_wrong_codes_hold_their_own_address_only():
    assert may_enrol("admin", "admin") and may_enrol("speaker", "controller") and may_enrol("desk", "desk")
    assert not may_enrol("speaker", "desk") and not may_enrol("controller", "speaker") and not may_enrol(None, "desk")


def test_one_address_guessing_codes_is_held_and_the_new_tablet_is_not(room):
    admin = client(room, "10.42.0.20")
    login(admin, PINS["admin_pin"])
    offer = admin.post("/api/enrolments", json={"role": "speaker"}, headers=csrf(admin)).get_json()
    guesser = client(room, "10.42.0.21")
    for i in range(ADDRESS_TRIES[0]):
        refused(guesser.post("/api/enrol", json={"code": f"KMNP{i:04d}"}), 401, "enrol_code_wrong")
    body = refused(guesser.post("/api/enrol", json={"code": offer["code"]}), 429, "too_many_enrol_attempts")
    assert body["retry_after"] > 0
    assert client(room, NEW_TABLET).post("/api/enrol", json={"code": offer["code"]}).get_json()["role"] == "speaker"


def test_admin_lists_the_live_consoles_and_ends_and_forgets_one(room):
    admin = client(room, "10.42.0.30")
    login(admin, PINS["admin_pin"])
    controle = client(room, "10.42.0.31")
    controle.post(
        "/api/login",
        json={"pin": PINS["controller_pin"], "name": "Marcel"},
        headers={"User-Agent": "Mozilla/5.0 (Linux; Android 14) Chrome/126"},
    )
    listed = admin.get("/api/consoles").get_json()["consoles"]
    row = next(c for c in listed if c["name"] == "Marcel")
    assert row["role"] == "controller" and row["addr"] == "10.42.0.31" and "Android" in row["ua"]
    assert row["seen_s"] >= 0 and row["device"] and not row["self"]
    assert next(c for c in listed if c["role"] == "admin")["self"]
    refused(controle.get("/api/consoles"), 403, "forbidden")
    ended = admin.post(f"/api/consoles/{row['ref']}/end", json={"forget": True}, headers=csrf(admin))
    assert ended.status_code == 200
    assert controle.get("/api/me").get_json()["role"] is None
    refused(admin.post(f"/api/consoles/{row['ref']}/end", json={}, headers=csrf(admin)), 404, "unknown_console")
    for i in range(EVERYONE_FAILS[0]):
        guess(client(room, f"10.42.8.{i}"), i)
    refused(login(controle, PINS["controller_pin"]), 429, "too_many_attempts")  # forgotten: a stranger again


def test_a_stranger_filling_the_roles_slots_never_keeps_a_known_console_or_an_enrolled_tablet_out(room):
    from display.sessions import MAX_SESSIONS_PER_ROLE

    me = room.app.test_client().get
    known = client(room, "10.42.0.20")  # the desk's console, known from an earlier login of the evening
    assert login(known, PINS["desk_pin"]).status_code == 200
    known.post("/api/logout")
    admin = client(room, "10.42.0.10")
    login(admin, PINS["admin_pin"])
    offer = admin.post("/api/enrolments", json={"role": "desk"}, headers=csrf(admin)).get_json()
    # a stranger with the desk's PIN, from 32 fresh browsers, every one in use: the role is full
    tokens = [
        login(client(room, f"10.42.9.{i}"), PINS["desk_pin"]).get_json()["token"] for i in range(MAX_SESSIONS_PER_ROLE)
    ]
    refused(login(client(room, "10.42.9.200"), PINS["desk_pin"]), 409, "too_many_consoles")  # another stranger: no
    assert login(known, PINS["desk_pin"]).status_code == 200  # the known console gets in
    tablet = client(room, NEW_TABLET)
    assert tablet.post("/api/enrol", json={"code": offer["code"]}).get_json()["role"] == "desk"  # so does the tablet
    assert known.get("/api/me").get_json()["role"] == "desk" and tablet.get("/api/me").get_json()["role"] == "desk"
    ended = [t for t in tokens if me("/api/me", headers={"Authorization": f"Bearer {t}"}).status_code == 401]
    assert len(ended) == 2  # two of the stranger's sessions made room, nothing else
    for i in range(3):  # the stranger again: neither the console nor the tablet is pushed out
        refused(login(client(room, f"10.42.9.{210 + i}"), PINS["desk_pin"]), 409, "too_many_consoles")
    assert known.get("/api/me").get_json()["role"] == "desk" and tablet.get("/api/me").get_json()["role"] == "desk"
