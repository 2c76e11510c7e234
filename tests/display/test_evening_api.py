"""The claim, the desk and the tie through the API as a hall lives them (issue 15): lenient IDs, suggestions."""

from __future__ import annotations

from tests.display.conftest import A1, A2, A3, TIE_DRAWS, play_to_tie


def start_and_draw(room, numbers):
    room.hall.start_partie(role="speaker")
    for n in numbers:
        room.hall.draw(n, role="speaker")


def test_a_carton_typed_without_dash_in_lower_case_is_checked(room, client):
    start_and_draw(room, TIE_DRAWS)
    typed = A1.replace("-", "").lower().replace("0", "o")
    r = client.post("/api/claims", json={"card_id": typed}, headers=room.headers("controller"))
    assert r.status_code == 200
    assert r.get_json()["verdict"] == "valid" and r.get_json()["card_id"] == A1


def test_a_near_miss_carries_the_cartons_one_character_away(room, client):
    start_and_draw(room, TIE_DRAWS)
    slip = A3[:-1] + ("Z" if A3[-1] != "Z" else "Y")
    r = client.post("/api/claims", json={"card_id": slip}, headers=room.headers("controller"))
    body = r.get_json()
    assert body["verdict"] == "unknown_card" and body["suggestions"] == [A3]
    far = client.post("/api/claims", json={"card_id": "Q-99999Z"}, headers=room.headers("controller")).get_json()
    assert far["verdict"] == "unknown_card" and far["suggestions"] == []
    assert room.hall.evening.partie.paused is False or room.hall.evening.partie.pending == {}


def test_a_voucher_typed_loosely_is_redeemed_and_a_slip_is_suggested(room, client):
    play_to_tie(room)
    codes = list(room.hall.award(role="speaker").vouchers)
    slip = codes[0][:-1] + ("A" if codes[0][-1] != "A" else "B")
    r = client.post(f"/api/vouchers/{slip}/redeem", headers=room.headers("desk"))
    assert r.status_code == 404 and r.get_json()["suggestions"] == [codes[0]]
    assert not room.hall.evening.vouchers[codes[0]].redeemed  # a refusal changes nothing
    loose = codes[0].replace("-", " ").lower()
    r = client.post(f"/api/vouchers/{loose}/redeem", headers=room.headers("desk"))
    assert r.status_code == 200 and r.get_json()["code"] == codes[0]


def award(room, client, body=None):
    return client.post("/api/lots/award", json=body or {}, headers=room.headers("speaker"))


def test_a_tie_drawn_by_hand_in_the_hall_the_speaker_types_the_numbers(room, client):
    play_to_tie(room)
    r = award(room, client, {"tie_break": {A1.lower().replace("-", ""): 12, A2: "77"}})
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["tie_mode"] == "physical_lowest" and body["winner"] == A1  # the hall's rule: the lowest wins
    assert body["tie_break"] == [{"card_id": A1, "number": 12}, {"card_id": A2, "number": 77}]
    assert body["consolation"] == [A2] and len(body["vouchers"]) == 2


def test_the_direction_of_a_tie_is_the_halls_rule_never_the_speakers_choice(tmp_path):
    """RULES L14a (docs/loto-rules.md): a request for the other direction is refused, not silently obeyed."""
    from tests.display.conftest import make_room

    for rule, other, winner, mode in (
        ("draw_lowest", "highest", A1, "physical_lowest"),
        ("draw_highest", "lowest", A2, "physical_highest"),
    ):
        (tmp_path / rule).mkdir()
        room = make_room(tmp_path / rule, rules={"ties": rule})
        client = room.app.test_client()
        play_to_tie(room)
        before = room.hall.journal.last_seq
        for body in ({"wins": other}, {"tie_break": {A1: 12, A2: 77}, "wins": other}, {"draw": True, "wins": other}):
            r = award(room, client, body)
            assert r.status_code == 422 and r.get_json()["error"] == "tie_direction_fixed", (rule, body, r.get_json())
            assert "règle" in r.get_json()["message"]
        assert room.hall.journal.last_seq == before  # refused: nothing journalled
        same = other.replace("highest", "x").replace("lowest", "highest").replace("x", "lowest")
        body = award(room, client, {"tie_break": {A1: 12, A2: 77}, "wins": same}).get_json()  # repeating it is fine
        assert (body["winner"], body["tie_mode"]) == (winner, mode)
        room.hall.journal.close()


def test_a_tie_shared(room, client):
    play_to_tie(room)
    body = award(room, client, {"share": True}).get_json()
    assert body["shared"] and body["winners"] == [A1, A2] and body["tie_break"] == [] and body["consolation"] == []
    assert body["tie_mode"] == "share"


def test_a_tie_drawn_by_the_hall_says_which_number_wins(tmp_path):
    from tests.display.conftest import make_room

    room = make_room(tmp_path, rules={"ties": "draw_highest"})
    play_to_tie(room)
    body = award(room, room.app.test_client(), {}).get_json()
    numbers = {d["card_id"]: d["number"] for d in body["tie_break"]}
    assert body["tie_mode"] == "draw_highest" and numbers[body["winner"]] == max(numbers.values())
    room.hall.journal.close()


def test_the_speaker_may_ask_the_hall_to_draw_under_a_physical_rule(tmp_path):
    from tests.display.conftest import make_room

    room = make_room(tmp_path, rules={"ties": "physical_lowest"})
    play_to_tie(room)
    body = award(room, room.app.test_client(), {"draw": True}).get_json()
    numbers = {d["card_id"]: d["number"] for d in body["tie_break"]}
    assert body["tie_mode"] == "draw_lowest" and numbers[body["winner"]] == min(numbers.values())
    room.hall.journal.close()


def test_every_bad_tie_choice_is_refused_and_changes_nothing(room, client):
    play_to_tie(room)
    before = room.hall.journal.last_seq
    bad = [
        ({"tie_break": {A1: 0, A2: 5}}, "tie_number_out_of_range"),
        ({"tie_break": {A1: 91, A2: 5}}, "tie_number_out_of_range"),
        ({"tie_break": {A1: "x", A2: 5}}, "tie_number_out_of_range"),
        ({"tie_break": {A1: True, A2: 5}}, "tie_number_out_of_range"),
        ({"tie_break": {A1: 5}}, "tie_numbers_needed"),
        ({"tie_break": {A1: 5, A2: 5}}, "tie_numbers_equal"),
        ({"tie_break": {A1: 5, A2: 6, A3: 7}}, "not_a_valid_claim"),
        ({"tie_break": {A1: 5, A2: 6}, "share": True}, "bad_tie_choice"),
        ({"draw": True, "share": True}, "bad_tie_choice"),
        ({"wins": "middle"}, "bad_tie_choice"),
        ({"draw": "yes"}, "bad_field"),
        ({"tie_break": [5, 6]}, "bad_field"),
        ({"share": "yes"}, "bad_field"),
    ]
    for payload, code in bad:
        r = award(room, client, payload)
        assert r.status_code == 422 and r.get_json()["error"] == code, (payload, r.get_json())
        assert r.get_json()["message"]
    after = room.hall.journal.last_seq
    assert after == before and room.hall.evening.partie.lots[0].status != "awarded"


def test_a_physical_rule_asks_for_the_numbers(tmp_path):
    from tests.display.conftest import make_room

    room = make_room(tmp_path, rules={"ties": "physical_highest"})
    play_to_tie(room)
    client = room.app.test_client()
    r = award(room, client)
    assert r.status_code == 422 and r.get_json()["error"] == "tie_numbers_needed" and r.get_json()["cards"] == [A1, A2]
    body = award(room, client, {"tie_break": {A1: 40, A2: 8}}).get_json()
    assert body["winner"] == A1 and body["tie_mode"] == "physical_highest"
    room.hall.journal.close()


def test_a_tie_replays_as_it_was_lived(tmp_path):
    from hall.door.service import Hall
    from hall.record.journal import Journal
    from tests.display.conftest import make_room

    room = make_room(tmp_path)
    play_to_tie(room)
    room.hall.award(role="speaker", tie_break={A1: 3, A2: 60})
    live_lot = room.hall.evening.partie.lots[0]
    room.hall.journal.close()
    again = Hall(room.config, Journal(tmp_path / "journal.sqlite"), room.hall.book, voucher_secret=b"k" * 32)
    lot = again.evening.partie.lots[0]
    assert lot.award == live_lot.award and lot.award.tie_mode == "physical_lowest" and lot.award.winners == (A1,)
    again.journal.close()


def test_demarquez_with_lots_left_names_them_and_can_carry_them(room, client):
    start_and_draw(room, [4])
    sp = room.headers("speaker")
    r = client.post("/api/partie/clear", json={}, headers=sp)
    assert r.status_code == 409 and r.get_json()["labels"] == ["Panier garni", "Jambon", "Bon d'achat 100 €"]
    assert not room.hall.evening.partie.cleared
    r = client.post("/api/partie/clear", json={"force": True, "carry": True}, headers=sp)
    assert r.status_code == 200
    nxt = client.get("/api/state").get_json()["next_partie"]
    assert [lot["label"] for lot in nxt["lots"]] == [
        "Panier garni",
        "Quine",
        "Jambon",
        "Double quine",  # each where
        "Bon d'achat 100 €",
        "Carton plein",
    ]  # its kind plays (L19)
    client.post("/api/partie/start", json={}, headers=sp)
    assert len(room.hall.evening.partie.lots) == 6 and room.hall.evening.carried == ()
    for n in range(1, 4):
        room.hall.draw(n, role="speaker")
    client.post("/api/partie/clear", json={"force": True}, headers=sp)
    assert room.hall.evening.carried == ()  # lost, as the speaker chose


def test_the_state_says_the_evenings_tie_rule_and_the_lots_carried(tmp_path):
    """INTERFACE §4's extension, as written: ``wins``, ``carry`` and ``tie_mode`` in ``GET /api/state`` (public: the
    projector says the rule and the next partie's lots to the whole hall) and in the speaker's state."""
    from tests.display.conftest import make_room

    room = make_room(tmp_path, rules={"ties": "physical_highest"})
    client = room.app.test_client()
    state = client.get("/api/state").get_json()
    assert (state["wins"], state["tie_mode"], state["carry"]) == ("highest", "physical_highest", [])
    start_and_draw(room, [4])
    sp = room.headers("speaker")
    client.post("/api/partie/clear", json={"force": True, "carry": True}, headers=sp)
    for state in (client.get("/api/state").get_json(), client.get("/api/speaker/state", headers=sp).get_json()):
        assert [lot["label"] for lot in state["carry"]] == ["Panier garni", "Jambon", "Bon d'achat 100 €"]
        assert (state["wins"], state["tie_mode"]) == ("highest", "physical_highest")
    client.post("/api/partie/start", json={"lots": [{"kind": "quine", "label": "Quine"}]}, headers=sp)
    labels = [lot["label"] for lot in client.get("/api/state").get_json()["partie"]["lots"]]
    assert labels == ["Panier garni", "Quine", "Jambon", "Bon d'achat 100 €"]  # kept where their kind plays (L19)
    assert client.get("/api/state").get_json()["carry"] == []


def test_carry_with_every_lot_won_is_refused(room, client):
    from hall.events import LotSpec

    h = room.hall
    h.start_partie([LotSpec("quine", "Panier")], role="speaker")
    for n in TIE_DRAWS:
        h.draw(n, role="speaker")
    h.check_claim(A1, role="controller")
    h.award(role="speaker")
    sp = room.headers("speaker")
    r = client.post("/api/partie/clear", json={"carry": "yes"}, headers=sp)
    assert r.status_code == 422 and r.get_json()["error"] == "bad_field"
    r = client.post("/api/partie/clear", json={"carry": True}, headers=sp)
    assert r.status_code == 409 and r.get_json()["error"] == "nothing_to_carry"
    assert not h.evening.partie.cleared
