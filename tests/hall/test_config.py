"""The config: typed, every problem reported at once, naming the key."""

from __future__ import annotations

import pytest

from hall.config import load_config, parse_config
from hall.errors import ConfigError


def test_defaults():
    c = parse_config({})
    assert (c.rules.last_number, c.rules.ties, c.rules.false_claim, c.cards.columns) == (
        True,
        "draw_lowest",
        "resume",
        "1-9",
    )
    assert c.ball_machine is None and c.printer is None
    assert [lot.kind for lot in c.partie_spec(0).lots] == ["quine", "double_quine", "carton_plein"]


def test_every_problem_reported_at_once_with_did_you_mean():
    with pytest.raises(ConfigError) as exc:
        parse_config(
            {
                "hall": {"nmae": "x"},
                "server": {"port": "80"},
                "rules": {"ties": "coin"},
                "ball_machin": {},
                "ball_machine": {"baudrate": 9600},
            }
        )
    text = str(exc.value)
    assert len(exc.value.problems) == 5
    assert "hall.nmae" in text and "« name »" in text
    assert "server.port" in text
    assert "rules.ties" in text
    assert "[ball_machin]" in text and "« [ball_machine] »" in text
    assert "ball_machine.port : clé obligatoire absente" in text


def test_programme_parsed_and_checked():
    c = parse_config(
        {
            "programme": {
                "partie": [
                    {"lots": [{"kind": "quine", "label": "Jambon", "value_eur": 40}], "consolation": "Bouteille"}
                ]
            }
        }
    )
    assert c.programme[0].lots[0].label == "Jambon" and c.programme[0].lots[0].value_eur == 40.0
    with pytest.raises(ConfigError) as exc:
        parse_config({"programme": {"partie": [{"lots": [{"kind": "bingo", "label": "x"}], "prix": 2}]}})
    assert any("bingo" in p for p in exc.value.problems) and any("prix" in p for p in exc.value.problems)


def test_file_errors(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[hall\nname=")
    with pytest.raises(ConfigError) as exc:
        load_config(bad)
    assert "TOML" in str(exc.value)
    with pytest.raises(ConfigError):
        load_config(tmp_path / "absent.toml")
    good = tmp_path / "good.toml"
    good.write_text('[hall]\nname = "Salle des fêtes"\n[printer]\nurl = "tcp://127.0.0.1:9100"\n')
    c = load_config(good)
    assert c.hall.name == "Salle des fêtes" and c.printer.url == "tcp://127.0.0.1:9100"


def test_example_config_is_valid():
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "systemd" / "config.example.toml"
    load_config(example)


# ------------------------------------------------------------------------- control characters, the [network] schema
def test_control_characters_are_refused_in_every_string_of_the_config_at_once():
    with pytest.raises(ConfigError) as exc:
        parse_config(
            {
                "hall": {"name": "Salle\x1b[2J", "evening": "Grand loto\u00a0du 14 février"},
                "programme": {
                    "partie": [
                        {"lots": [{"kind": "quine", "label": "Jambon\x85"}], "consolation": "Bouteille\tde cidre"}
                    ]
                },
                "games": {"enabled": ["lobo77", "linotte\x7f"]},
                "keypad": {"device": "/dev/loto/keypad", "keys": {"draw": "KEY_ENTER\x00"}},
                "printer": {"url": "tcp://127.0.0.1:9100", "profile\n": "TM-T20II"},
            }
        )
    problems = exc.value.problems
    for expected in (
        "hall.name : caractère de contrôle U+001B refusé",
        "programme.partie[1].lots[1].label : caractère de contrôle U+0085 refusé",
        "programme.partie[1].consolation : caractère de contrôle U+0009 refusé",
        "games.enabled[2] : caractère de contrôle U+007F refusé",
        "keypad.keys.draw : caractère de contrôle U+0000 refusé",
        "printer.profile\\x0a (nom de clé) : caractère de contrôle U+000A refusé",
    ):
        assert expected in problems, problems
    assert not any(p.startswith("hall.evening") for p in problems)  # a no-break space is not a control


GOOD_NETWORK = {
    "country": ["FR", "BE", "CH", "LU", "CA"],
    "hostname": ["loto", "Salle-1", "a", "x" * 63, "123"],
    "interface": ["wlan0", "wlp2s0", "wlx00c0ca123456", "br-lan", "wlan0.12", "ap_0"],
    "ssid": ["", "Loto salle", "Salle des fêtes", 'a;b,c:d\\e"f', "é" * 16],
    "password": ["", "quine2026", 'p;a,s:s\\w"d ~', "x" * 63],
    "address": ["10.42.0.1", "192.168.4.1"],
    "portal_address": ["198.18.0.1", "93.184.216.34"],
    "url": ["", "http://loto.local:8080/", "https://10.42.0.1:8443/controle?x=1#y", "http://[fe80::1]/"],
}
BAD_NETWORK = {
    "country": ["fr", "FRA", "F", "", "ZZ", "FR\n", "F1", "ＦＲ"],
    "hostname": ["", "-loto", "loto-", "loto.local", "x" * 64, "lo to", "lotö", "loto\n", "loto_1"],
    "interface": [
        "",
        "x" * 16,
        "wlan0:1",
        'wl"an0',
        "wl'an0",
        "wl an0",
        "wl/an0",
        ".",
        "..",
        "wlan*",
        "-wlan0",
        "wlan0\n",
        "wl\\an0",
    ],
    "ssid": ["x" * 33, "é" * 17, "Loto\u202esalle", "Loto\u200bsalle", "Loto\u200fsalle", "\ufeffLoto", "Lo\u2028to"],
    "password": ["court", "x" * 64, "quine2026é", "quine\t2026"],
    "address": [
        "10.42.0.1\n",
        "010.42.0.1",
        "10.42.0.256",
        "10.42.0",
        "0.0.0.0",
        "127.0.0.1",
        "224.0.0.1",
        "255.255.255.255",
        "fe80::1",
        " 10.42.0.1",
        "١٠.42.0.1",
    ],
    "portal_address": ["198.18.0.1\ndhcp-script=/x", "localhost"],
    "url": [
        "javascript:alert(1)",
        "ftp://loto.local/",
        "http://",
        "http://user:pw@loto.local/",
        "http://loto local/",
        'http://loto.local/"onmouseover',
        "http://loto.local:99999/",
        "http://salle-des-fêtes.local/",
        "http://lo_to.local/",
        "//loto.local/",
        "http://loto.local/" + "x" * 240,
    ],
}


@pytest.mark.parametrize("key,value", [(k, v) for k, values in GOOD_NETWORK.items() for v in values])
def test_the_network_schema_takes_what_each_place_reads_as_a_plain_value(key, value):
    assert getattr(parse_config({"network": {key: value}}).network, key) == value


@pytest.mark.parametrize("key,value", [(k, v) for k, values in BAD_NETWORK.items() for v in values])
def test_the_network_schema_refuses_what_would_change_a_file_or_a_command(key, value):
    with pytest.raises(ConfigError) as exc:
        parse_config({"network": {key: value}})
    assert all(p.startswith(f"network.{key} : ") for p in exc.value.problems), exc.value.problems


def test_every_network_problem_is_reported_at_once_with_did_you_mean():
    with pytest.raises(ConfigError) as exc:
        parse_config(
            {
                "network": {
                    "country": "fr",
                    "hostname": "lo to",
                    "interface": 'wl"an',
                    "ssid": "x" * 33,
                    "password": "court",
                    "address": "10.42.0",
                    "portal_address": "x",
                    "url": "ftp://x/",
                    "portal_adress": "198.18.0.1",
                }
            }
        )
    keys = [p.split(" : ")[0] for p in exc.value.problems]
    assert keys == [
        "network.country",
        "network.hostname",
        "network.interface",
        "network.ssid",
        "network.password",
        "network.address",
        "network.portal_address",
        "network.url",
        "network.portal_adress",
    ]
    assert "(vouliez-vous dire « portal_address » ?)" in exc.value.problems[-1]


def test_the_country_codes_are_iso_3166s():
    from pathlib import Path

    from hall.net.values import COUNTRIES

    table = Path("/usr/share/zoneinfo/iso3166.tab")
    if not table.exists():
        pytest.skip("tzdata's iso3166.tab absent")
    codes = {line.split("\t")[0] for line in table.read_text(encoding="utf-8").splitlines() if not line.startswith("#")}
    assert COUNTRIES == codes and len(COUNTRIES) == 249


# ---- [server] message_queue and socket_workers (issue 25): the default is one process without Redis
GOOD_QUEUES = [
    "redis://127.0.0.1:6379/0",
    "redis://localhost",
    "redis://127.0.0.1:6380/15",
    "redis://:3f9c1b7e2a8d4605c9e1f0b2a7d36e84@10.42.0.1:6379/0",
    "redis://:k7Qm-2XpD_9vLw3rTz8yBn4c@192.168.1.2",
]
# on the hall's network (the phones' network), a Redis needs a password of 24 random characters (issue 31)
BAD_QUEUES = [
    "redis://192.168.1.2",
    "redis://:un-mot-de-passe@10.42.0.1:6379/0",
    "redis://:motdepassedelasalledesfetes@10.42.0.1",
    "redis://:aaaaaaaaaaaaaaaaaaaaaaaaaaaa@10.42.0.1",
    "redis://93.184.216.34:6379/0",
    "redis://0.0.0.0:6379/0",
    "redis://8.8.8.8",
    "redis://redis.example.org",
    "http://127.0.0.1:6379/0",
    "redis://127.0.0.1:6379/16",
    "redis://127.0.0.1:6379/x",
    "redis://127.0.0.1:0/0",
    "redis://127.0.0.1:6379/0?ssl=1",
    "redis://224.0.0.1",
    "redis://",
    "redis://127.0.0.1 /0",
]


def test_without_a_queue_the_hall_is_one_process():
    server = parse_config({}).server
    assert (server.message_queue, server.socket_workers, server.socket_peers) == ("", 0, [])


@pytest.mark.parametrize("url", GOOD_QUEUES)
def test_a_queue_on_loopback_or_the_halls_private_network_is_taken(url):
    assert parse_config({"server": {"message_queue": url, "socket_workers": 2}}).server.message_queue == url


@pytest.mark.parametrize("url", BAD_QUEUES)
def test_a_queue_on_a_public_address_or_malformed_is_refused(url):
    with pytest.raises(ConfigError) as exc:
        parse_config({"server": {"message_queue": url, "socket_workers": 2}})
    assert [p.split(" : ")[0] for p in exc.value.problems] == ["server.message_queue"], exc.value.problems


@pytest.mark.parametrize(
    "server,key",
    [
        ({"socket_workers": 2}, "server.socket_workers"),  # workers without a queue
        ({"message_queue": "redis://127.0.0.1:6379/0"}, "server.message_queue"),  # a queue without workers
        ({"message_queue": "redis://127.0.0.1:6379/0", "socket_workers": 17}, "server.socket_workers"),
        ({"message_queue": "redis://127.0.0.1:6379/0", "socket_workers": 2, "socket_port": 8080}, "server.socket_port"),
        ({"message_queue": "redis://127.0.0.1:6379/0", "socket_workers": 2, "core_port": 8080}, "server.core_port"),
        # relay i listens on socket_port + i: the third relay's port is the core's
        (
            {"message_queue": "redis://127.0.0.1:6379/0", "socket_workers": 4, "core_port": 8092},
            "server.socket_port + 2",
        ),
        (
            {"message_queue": "redis://127.0.0.1:6379/0", "socket_workers": 2, "socket_port": 65535},
            "server.socket_port",
        ),
        ({"message_queue": "redis://127.0.0.1:6379/0", "socket_peers": ["93.184.216.34:8090"]}, "server.socket_peers"),
        ({"message_queue": "redis://127.0.0.1:6379/0", "socket_peers": ["10.42.0.20"]}, "server.socket_peers"),
    ],
)
def test_the_relays_keys_are_checked_together(server, key):
    with pytest.raises(ConfigError) as exc:
        parse_config({"server": server})
    assert key in [p.split(" : ")[0] for p in exc.value.problems], exc.value.problems
