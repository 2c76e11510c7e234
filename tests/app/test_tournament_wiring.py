"""The program opens the tournament day's own file next to the journal, and a damaged one never stops the loto."""

from __future__ import annotations

import pytest

from .conftest import free_port, get_json
from .test_crash_resume import PINS, write_config


def desk(url: str) -> dict:
    status, body = get_json(url + "/api/login", data={"pin": PINS["desk"]})
    assert status == 200, body
    return {"Authorization": f"Bearer {body['token']}"}


@pytest.mark.slow
def test_the_served_hall_keeps_its_tournament_day_across_a_sigkill(run_hall, tmp_path):
    port = free_port()
    config = write_config(tmp_path, port)
    first = run_hall(["--config", config], port=port)
    first.wait_answering()
    auth = desk(first.url)
    assert get_json(first.url + "/api/tournoi/day", headers=auth, data={"title": "Club"})[0] == 200
    for name in ("Les As", "Les Rois"):
        status, body = get_json(
            first.url + "/api/tournoi/teams", headers=auth, data={"name": name, "players": ["a" + name, "b" + name]}
        )
        assert status == 200, body
    assert (tmp_path / "data" / "tournament.sqlite").exists()
    first.kill_all()
    second = run_hall(["--config", config], port=port)
    second.wait_answering()
    status, body = get_json(second.url + "/api/tournoi")
    assert status == 200 and [t["name"] for t in body["teams"]] == ["Les As", "Les Rois"]


def test_a_damaged_tournament_file_leaves_the_loto_running(run_hall, tmp_path):
    port = free_port()
    config = write_config(tmp_path, port)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "tournament.sqlite").write_bytes(b"not a database at all" * 100)
    hall = run_hall(["--config", config], port=port)
    hall.wait_answering()
    assert get_json(hall.url + "/api/state")[0] == 200
    status, body = get_json(hall.url + "/api/tournoi")
    assert status == 404 and body["error"] == "no_tournament"
