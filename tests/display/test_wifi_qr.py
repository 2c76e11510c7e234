"""The Wi-Fi QR code: its text escapes what the format says, a phone's reader gets the name and password back,
and the projector really shows it between parties (decoded from a screenshot with zxing-cpp)."""
from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hall.wifi import misread_risks, wifi_qr_payload


def parse_wifi(payload: str) -> dict[str, str]:
    """A reader of the format as phones implement it (ZXing's WifiResultParser): fields ``K:value;``,
    a backslash makes the next character literal, the record ends with ``;;``."""
    assert payload.startswith("WIFI:") and payload.endswith(";;"), payload
    fields: dict[str, str] = {}
    i, body = 0, payload[len("WIFI:"):-1]
    while i < len(body):
        key, i = body[i], i + 2
        assert body[i - 1] == ":", (body, i)
        value = []
        while body[i] != ";":
            if body[i] == "\\":
                i += 1
            value.append(body[i])
            i += 1
        fields[key] = "".join(value)
        i += 1
    return fields


def test_the_payload_is_the_standard_wpa_record():
    assert wifi_qr_payload("Loto salle", "quine2026") == "WIFI:T:WPA;S:Loto salle;P:quine2026;;"


def test_every_special_character_is_escaped_by_a_backslash():
    assert wifi_qr_payload('a;b,c:d\\e"f', 'p;a,s:s\\w"d') == \
        'WIFI:T:WPA;S:a\\;b\\,c\\:d\\\\e\\"f;P:p\\;a\\,s\\:s\\\\w\\"d;;'


def test_an_open_network_has_no_password_field():
    assert wifi_qr_payload("Loto", "") == "WIFI:T:nopass;S:Loto;;"
    assert parse_wifi("WIFI:T:nopass;S:Loto;;") == {"T": "nopass", "S": "Loto"}


@given(ssid=st.text(min_size=1, max_size=32), password=st.text(min_size=1, max_size=63))
def test_a_reader_gets_back_the_exact_name_and_password(ssid, password):
    assert parse_wifi(wifi_qr_payload(ssid, password)) == {"T": "WPA", "S": ssid, "P": password}


@pytest.mark.parametrize("ssid,password,risks", [
    ("Loto salle", "quine2026", ()),
    ("Salle des fêtes", "quine2026", ("ssid_non_ascii",)),
    (" Loto", "quine2026 ", ("ssid_edge_space", "password_edge_space")),
    ("Loto;1", "a:b,c\\d\"e", ("ssid_special", "password_special")),
    ("Loto", "court", ("password_length",)),
])
def test_characters_some_phones_misread_are_named(ssid, password, risks):
    assert misread_risks(ssid, password) == risks
