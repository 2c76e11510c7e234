"""``loto-hall doctor`` against a real redis-server: what it says of the queue and of the relays' reports."""

from __future__ import annotations

import json

import pytest

from display import relay_wire as wire
from display.relay_seal import KEY_FILE, REPORT, seal
from hall.app.doctor import doctor
from hall.config import parse_config
from tests.app.relay_parts import QUEUE_KEY, RedisServer, needs_redis

pytestmark = [needs_redis, pytest.mark.usefixtures("french")]  # the command line in French


def config_for(url: str, workers: int = 2, data_dir=None):
    hall = {"data_dir": str(data_dir)} if data_dir is not None else {}
    return parse_config({"hall": hall, "server": {"message_queue": url, "socket_workers": workers}})


def sealed_report(report: dict) -> bytes:
    return seal(QUEUE_KEY, REPORT, json.dumps(report))


def by_name(found) -> dict:
    return {f.name: f for f in found}


def test_no_queue_no_relays_said_as_advice():
    found = doctor(parse_config({}), connect=lambda url: pytest.fail("no Redis to reach"))
    assert [f.ok for f in found] == [None]


def test_live_relays_a_deaf_one_and_the_beat_are_read_from_redis(redis_server, tmp_path):
    (tmp_path / KEY_FILE).write_bytes(QUEUE_KEY)
    r = redis_server.client()
    r.set(wire.BEAT_KEY, "{}", px=5000)
    report = {"state": "ok", "clients": 12}

    def two_reports(_seconds: float) -> None:  # the doctor's wait between its two reads: the relays report
        r.hset(wire.RELAYS_KEY, "pi:11", sealed_report({**report, "n": 2}))
        r.hset(wire.RELAYS_KEY, "pi:12", sealed_report({**report, "n": 8, "state": "deaf"}))
        r.hset(wire.RELAYS_KEY, "odd:14", json.dumps({**report, "n": 5}))

    r.hset(wire.RELAYS_KEY, "pi:11", sealed_report({**report, "n": 1}))
    r.hset(wire.RELAYS_KEY, "pi:12", sealed_report({**report, "n": 7}))
    r.hset(wire.RELAYS_KEY, "gone:13", sealed_report({**report, "n": 3}))  # stopped: its report never moves
    found = by_name(doctor(config_for(redis_server.url, data_dir=tmp_path), wire.client, wait=two_reports))
    assert found["Redis répond"].ok and found["Redis en privé"].ok
    assert found["Le cœur publie"].ok and "Clé de la file" not in found
    relays = found["Relais vivants"]
    assert relays.ok is False and "pi:11 (12" in relays.detail and "pi:12" in relays.detail and "SOURD" in relays.detail
    assert "gone:13" not in relays.detail
    assert "odd:14 NON SCELLÉ" in relays.detail  # another key's relay, or a stranger's writing


def test_a_queue_key_that_cannot_be_read_is_said(redis_server, tmp_path):
    found = by_name(doctor(config_for(redis_server.url, data_dir=tmp_path), wire.client, wait=lambda s: None))
    assert found["Clé de la file"].ok is False and KEY_FILE in found["Clé de la file"].fix


def test_redis_on_every_address_and_no_beat_are_problems(tmp_path):
    server = RedisServer(tmp_path, bind="0.0.0.0")
    try:
        found = by_name(doctor(config_for(server.url, workers=1), wire.client, wait=lambda s: None))
        assert found["Redis en privé"].ok is False and "0.0.0.0" in found["Redis en privé"].detail
        assert found["Le cœur publie"].ok is False
        assert found["Relais vivants"].ok is False
    finally:
        server.close()


def test_redis_away_is_said_with_the_command_that_starts_it(tmp_path):
    server = RedisServer(tmp_path)
    url = server.url
    server.close()
    found = by_name(doctor(config_for(url), wire.client))
    assert found["Redis répond"].ok is False and "redis-server" in found["Redis répond"].fix
