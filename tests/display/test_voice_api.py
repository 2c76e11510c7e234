"""The hall's voice and its fairness count over HTTP (INTERFACE §11): the WAVs decoded with Python's ``wave``, the
regions' numbers, the recordings, the calling journalled, the projector's report, the count of a fresh evening and
of archived ones."""

from __future__ import annotations

import array
import io
import json
import math
import random
import wave

import pytest

from display.services import services_of
from display.speech_render import trimmed
from hall.app.ball_archive import archived_draws
from hall.app.runtime import JOURNAL_FILE
from hall.events import BallDrawn, LotSpec, PartieStarted
from hall.loto import fairness
from hall.record.journal import Journal
from tests.display.conftest import make_room


def decoded(data: bytes) -> tuple[float, int]:
    """(seconds, loudest sample) of a 16-bit PCM WAV."""
    with wave.open(io.BytesIO(data)) as w:
        assert w.getsampwidth() == 2
        frames = w.readframes(w.getnframes())
        seconds = w.getnframes() / w.getframerate()
    samples = array.array("h")
    samples.frombytes(frames)
    return seconds, max(abs(s) for s in samples)


@pytest.fixture(scope="module")
def rooms(tmp_path_factory):
    """Two halls that speak, one in France, one in Belgium (the same module: each renders its clips once)."""
    made = {
        voice: make_room(tmp_path_factory.mktemp(voice), extra={"speech": {"enabled": True, "voice": voice}})
        for voice in ("fr-FR", "fr-BE")
    }
    yield made
    for room in made.values():
        room.hall.journal.close()


def test_each_ball_is_a_wav_of_the_number_said_not_silence(rooms):
    client = rooms["fr-FR"].app.test_client()
    for n in (1, 42, 90):
        resp = client.get(f"/speech/{n}.wav")
        assert resp.status_code == 200 and resp.mimetype == "audio/wav" and resp.data[:4] == b"RIFF"
        seconds, loudest = decoded(resp.data)
        assert 0.15 < seconds < 5 and loudest > 3000, (n, seconds, loudest)
    one, forty_two = (decoded(client.get(f"/speech/{n}.wav").data)[0] for n in (1, 42))
    assert forty_two > one + 0.4  # « quarante-deux… quatre, deux » against « un »


def test_belgium_says_septante_and_nonante_where_france_says_soixante_dix_and_quatre_vingt_dix(rooms):
    france, belgium = (rooms[v].app.test_client() for v in ("fr-FR", "fr-BE"))
    for n in (70, 90):
        fr, be = france.get(f"/speech/{n}.wav").data, belgium.get(f"/speech/{n}.wav").data
        assert fr != be
        assert decoded(fr)[0] > decoded(be)[0] + 0.1  # four syllables, not two (« soixante-dix », « septante »)


def test_a_clip_is_rendered_once_and_said_again_from_the_cache(rooms):
    client = rooms["fr-FR"].app.test_client()
    first = client.get("/speech/33.wav")
    again = client.get("/speech/33.wav", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and "no-cache" in first.headers["Cache-Control"]
    cached = list((rooms["fr-FR"].config.data_dir / "voix" / "cache").glob("[!.]*.wav"))
    # whole files only under a clip's name (the start's renders may still be writing their hidden temporaries)
    assert cached and all(wave.open(str(path)).getnframes() > 0 for path in cached)


@pytest.mark.parametrize(
    "path",
    [
        "/speech/0.wav",
        "/speech/91.wav",
        "/speech/4a.wav",
        "/speech/-1.wav",
        "/speech/007.wav",
        "/speech/phrase/nope.wav",
        "/speech/phrase/le_91.wav",
    ],
)
def test_not_a_ball_is_404(rooms, path):
    assert rooms["fr-FR"].app.test_client().get(path).status_code == 404


def test_speech_off_is_404(room, client):
    resp = client.get("/speech/42.wav")
    assert resp.status_code == 404 and resp.get_json()["error"] == "speech_off"
    assert client.get("/speech/phrase/others.wav").status_code == 404


def test_the_ritual_and_the_missing_numbers_have_their_clips(rooms):
    client = rooms["fr-BE"].app.test_client()
    for key in ("no_unmark", "good_quine", "bad_carton_plein", "others", "unmark", "le_8", "le_70", "not_out_many"):
        resp = client.get(f"/speech/phrase/{key}.wav")
        assert resp.status_code == 200, key
        assert decoded(resp.data)[1] > 3000


def test_a_nickname_edited_on_admin_is_said_after_the_number(rooms):
    room = rooms["fr-FR"]
    client = room.app.test_client()
    plain = decoded(client.get("/speech/27.wav").data)[0]
    resp = client.post(
        "/api/admin/calling",
        json={"nicknames_on": True, "nicknames": {"27": "la vingt-septième"}},
        headers=room.headers("admin"),
    )
    assert resp.status_code == 200 and resp.get_json()["nicknames"] == {"27": "la vingt-septième"}
    assert decoded(client.get("/speech/27.wav").data)[0] > plain + 0.5
    assert client.get("/api/speech").get_json()["nicknames_on"] is True
    client.post("/api/admin/calling", json={"nicknames_on": False}, headers=room.headers("admin"))


def test_leading_silence_is_cut_so_the_first_sound_comes_at_once():
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1), w.setsampwidth(2), w.setframerate(22050)
        w.writeframes(b"\0\0" * 22050 + array.array("h", [8000, -8000] * 2205).tobytes() + b"\0\0" * 11025)
    seconds, _ = decoded(trimmed(out.getvalue()))
    assert 0.2 < seconds < 0.25


def wav_bytes(seconds: float, loud: bool = True, rate: int = 22050) -> bytes:
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1), w.setsampwidth(2), w.setframerate(rate)
        rng = random.Random(1)
        w.writeframes(
            array.array("h", [rng.randint(-9000, 9000) if loud else 0 for _ in range(int(seconds * rate))]).tobytes()
        )
    return out.getvalue()


def test_recordings_are_checked_kept_whole_and_served_back(tmp_path):
    room = make_room(tmp_path, extra={"speech": {"enabled": True, "voice": "recorded"}})
    client, admin = room.app.test_client(), room.headers("admin")
    assert client.get("/speech/42.wav").get_json()["error"] == "not_recorded"
    put = lambda n, data, kind="audio/wav", who=admin: client.put(  # noqa: E731
        f"/api/admin/speech/recordings/{n}", data=data, content_type=kind, headers=who
    )
    good = wav_bytes(1.2)
    assert put(42, good).status_code == 201
    served = client.get("/speech/42.wav")
    assert served.status_code == 200 and served.data == good and decoded(served.data)[0] == pytest.approx(1.2, 0.01)
    assert put(42, wav_bytes(1.2), "audio/webm").get_json()["error"] == "recording_format"
    assert put(42, b"RIFF....WAVEnot really").get_json()["error"] == "recording_format"
    assert put(42, wav_bytes(7)).get_json()["error"] == "recording_length"
    assert put(42, wav_bytes(1, loud=False)).get_json()["error"] == "recording_silence"
    assert put(42, b"RIFF" + b"\0" * (1024 * 1024 + 10)).status_code == 413
    assert put(91, good).status_code == 404
    assert put(7, good, who=room.headers("speaker")).status_code == 403
    assert client.get("/speech/42.wav").data == good  # every refusal kept the recording as it was
    assert client.get("/api/admin/speech/recordings", headers=admin).get_json()["recorded"] == [42]
    room.hall.journal.close()


def test_the_projector_says_whether_it_speaks_and_the_console_sees_it(room, client):
    resp = client.post("/api/speech/report", json={"state": "blocked", "what": "42"})
    assert resp.status_code == 202
    status = room.hall.device("voice")
    assert (status.state, status.code, dict(status.params)) == ("degraded", "voice_blocked", {"what": "42"})
    assert client.post("/api/speech/report", json={"state": "speaks"}).status_code == 429  # one a second
    assert client.post("/api/speech/report", json={"state": "shouts"}).status_code == 422


@pytest.mark.parametrize(
    "body", ['{"state": {}}', '{"state": []}', "[]", '{"state": "speaks", "what": {}}', '{"state": 1}', '"speaks"']
)
def test_a_report_of_the_wrong_shape_is_refused_before_its_budget_and_never_a_500(room, client, body, caplog):
    resp = client.post("/api/speech/report", data=body, content_type="application/json")
    assert resp.status_code in (400, 422) and resp.get_json()["error"] in ("bad_field", "bad_json"), resp.get_json()
    assert "Traceback" not in caplog.text and "inattendue" not in caplog.text
    assert client.post("/api/speech/report", json={"state": "speaks", "what": "7"}).status_code == 202  # unspent


def test_the_speaker_has_the_last_ball_said_again_and_the_voice_tested(room, client):
    speaker = room.headers("speaker")
    assert client.post("/api/speech/again", headers=speaker).status_code == 409
    room.hall.start_partie(role="speaker")
    room.hall.draw(61, role="speaker")
    assert client.post("/api/speech/again", headers=speaker).get_json()["number"] == 61
    assert client.post("/api/speech/test", headers=speaker).status_code == 200
    assert client.post("/api/speech/again").status_code == 401
    assert [r.type for r in room.hall.records()][-2:] == ["draw:ball_repeated", "speech:tested"]


def test_the_pace_of_each_partie_is_set_on_admin(room, client):
    admin = room.headers("admin")
    assert client.post("/api/admin/calling", json={"pace": {"1": 20}}, headers=admin).status_code == 200
    room.hall.start_partie(role="speaker")
    assert client.get("/api/speech").get_json()["pace_now"] == 20
    for bad in ({"pace": {"x": 3}}, {"pace": [1]}, {"pace": {"1": 601}}, {"flash": "on"}, {"nicknames": {"0": "a"}}):
        assert client.post("/api/admin/calling", json=bad, headers=admin).status_code == 422, bad
    for text in ("le \x1b[2Jsept", "sept\u202eelbuod"):  # ESC, a bidi override: refused as an SSID's are
        resp = client.post("/api/admin/calling", json={"nicknames": {"7": text}}, headers=admin)
        assert (resp.status_code, resp.get_json()["error"]) == (422, "bad_field"), text
    assert 7 not in dict(room.hall.calling().nicknames)  # nothing kept
    assert client.post("/api/admin/calling", json={"flash": True}, headers=room.headers("speaker")).status_code == 403


# ---- the fairness count --------------------------------------------------------------------------------------
def archive(data_dir, name: str, parties: list[list[int]]) -> None:
    """An archived evening as `loto-hall evening new` leaves it: its journal and its summary under soirees/."""
    folder = data_dir / "soirees" / name
    journal = Journal(folder / JOURNAL_FILE)
    events = []
    for number, draws in enumerate(parties, start=1):
        events.append(PartieStarted(number, (LotSpec("quine", "Quine"),), "Lot de consolation"))
        events.extend(BallDrawn(n, i) for i, n in enumerate(draws))
    journal.append_all(events, "speaker", "2026-11-21T20:15:00+00:00")
    journal.close()
    (folder / "soiree.json").write_text(
        json.dumps(
            {
                "hall_name": "Salle",
                "first_at": "2026-11-21T20:15:00+00:00",
                "last_at": "2026-11-21T23:00:00+00:00",
                "parties": len(parties),
                "cards_sold": 0,
                "receipts_cents": 0,
                "lots_declared_cents": 0,
                "lots_bought_cents": 0,
                "balance_cents": 0,
            }
        )
    )


def counting(room):
    """The reader of archived journals the program hands the web (hall/app/wiring.py), handed here the same way."""
    services_of(room.app).archived_draws = archived_draws
    return room.app.test_client()


def test_the_count_adds_tonight_to_the_archived_evenings(room):
    client = counting(room)
    h = room.hall
    h.start_partie(role="speaker")
    for n in (1, 2, 3, 90):
        h.draw(n, role="speaker")
    h.undo(role="speaker")  # 90 undone: never counted
    fresh = client.get("/api/stats/balls").get_json()
    assert (fresh["draws"], fresh["evenings"], fresh["parties"]) == (3, 0, 1)
    assert [fresh["counts"][str(n)] for n in (1, 2, 3, 90)] == [1, 1, 1, 0] and len(fresh["counts"]) == 90
    assert fresh["check"]["verdict"] == "too_few" and "450" in fresh["check"]["sentence"]
    archive(room.config.data_dir, "2026-11-21_20h15", [[1, 5, 90], [1, 6]])
    both = client.get("/api/stats/balls").get_json()
    assert (both["draws"], both["evenings"], both["parties"]) == (8, 1, 3)
    assert [both["counts"][str(n)] for n in (1, 2, 5, 6, 90)] == [3, 1, 1, 1, 1]


def _biased(rng: random.Random, size: int, favourite: int) -> list[int]:
    left, out = list(range(1, 91)), []
    while len(out) < size:
        n = rng.choices(left, [3.0 if b == favourite else 1.0 for b in left])[0]
        left.remove(n)
        out.append(n)
    return out


def test_a_seeded_biased_draw_is_flagged_in_plain_words_and_a_fair_one_is_not(tmp_path):
    rng = random.Random(35)
    fair = make_room(tmp_path / "fair")
    archive(fair.config.data_dir, "2026-10-01_20h00", [rng.sample(range(1, 91), 40) for _ in range(120)])
    check = counting(fair).get("/api/stats/balls").get_json()["check"]
    assert check["verdict"] == "fair" and check["sentence"].startswith("Rien d'anormal")
    assert "moins de 5 fois sur 100" in check["meaning"] and check["e_value"] < 20 and check["p_value"] > 0.05
    biased = make_room(tmp_path / "biased")
    archive(biased.config.data_dir, "2026-10-01_20h00", [_biased(rng, 40, 42) for _ in range(120)])
    resp = counting(biased).get("/api/stats/balls?lang=en").get_json()
    assert resp["check"]["verdict"] == "stands_out" and resp["check"]["standouts"][0]["number"] == 42
    assert resp["check"]["strength"] == "very_strong" and "42 (" in resp["check"]["sentence"]
    assert "very strong" in resp["check"]["sentence"] and resp["check"]["sentence"].endswith("(p < 0.001).")
    assert "fewer than 5 times in 100" in resp["check"]["meaning"] and resp["check"]["e_value"] >= 20
    fair.hall.journal.close()
    biased.hall.journal.close()


def test_a_missing_ball_is_named_from_evenings_read_at_different_requests(room):
    """The evidence of each archive is kept as it is read (a few a request): the archives read over two requests and
    tonight's parties add up to the verdict of all of them read at once."""
    rng = random.Random(90)
    client = counting(room)
    for day in range(1, 15):  # a ball lost: 14 evenings of one partie without 90
        archive(room.config.data_dir, f"2026-09-{day:02d}_20h00", [rng.sample(range(1, 90), 58)])
    first = client.get("/api/stats/balls").get_json()
    assert first["evenings_pending"] == 2
    second = client.get("/api/stats/balls").get_json()["check"]
    drawn = [list(p) for parties in services_of(room.app).ball_count.archives.values() for p in parties]
    assert second["verdict"] == "stands_out" and [s["number"] for s in second["standouts"]] == [90]
    assert math.isclose(second["e_value"], fairness.check(drawn).e_value, rel_tol=1e-9)


def test_a_request_reads_a_bounded_number_of_archives(room):
    client = counting(room)
    for day in range(1, 16):
        archive(room.config.data_dir, f"2026-09-{day:02d}_20h00", [[day]])
    first = client.get("/api/stats/balls").get_json()
    assert (first["evenings"], first["evenings_pending"]) == (12, 3)
    second = client.get("/api/stats/balls").get_json()
    assert (second["evenings"], second["evenings_pending"], second["draws"]) == (15, 0, 15)
