"""Issue 31 item 7: ``loto-hall doctor`` checks the modes of the hall's secret files and of its config."""

from __future__ import annotations

import os

import pytest

from hall.app.cli import main
from hall.app.doctor_secrets import secret_findings

pytestmark = pytest.mark.usefixtures("french")  # the command line speaks French here, whatever the machine


def hall_folder(tmp_path):
    data = tmp_path / "data"
    data.mkdir(mode=0o750)
    for name in ("web.key", "voucher.key", "sessions.json"):
        (data / name).write_bytes(b"x")
        (data / name).chmod(0o600)
    config = tmp_path / "loto-hall.toml"
    config.write_text(f'[hall]\ndata_dir = "{data}"\n')
    config.chmod(0o640)
    return data, config


def test_a_hall_as_installed_passes(tmp_path):
    data, config = hall_folder(tmp_path)
    found = secret_findings(data, str(config))
    assert all(f.ok for f in found), found
    assert {f.name for f in found} >= {"web.key", "voucher.key", "sessions.json"}


def test_a_key_readable_by_others_a_link_and_an_open_config_are_problems_with_their_fix(tmp_path, capsys):
    data, config = hall_folder(tmp_path)
    (data / "voucher.key").chmod(0o644)
    (data / "pins.json").symlink_to("/etc/passwd")
    data.chmod(0o755)
    config.chmod(0o644)
    found = {f.name: f for f in secret_findings(data, str(config))}
    assert found["voucher.key"].ok is False and found["voucher.key"].fix == f"sudo chmod 600 {data / 'voucher.key'}"
    assert found["pins.json"].ok is False and "lien" in found["pins.json"].detail
    assert found["Dossier des données"].ok is False and found["Dossier des données"].fix.startswith("sudo chmod o-rwx")
    assert (
        found["Fichier de configuration"].ok is False
        and "lisibles par tous" in found["Fichier de configuration"].detail
    )
    assert found["web.key"].ok
    assert main(["doctor", "--config", str(config)]) == 1  # the command says PROBLÈME and exits 1
    out = capsys.readouterr().out
    assert "voucher.key" in out and "PROBLÈME" in out and "sudo chmod 600" in out


@pytest.mark.skipif(os.geteuid() != 0, reason="another owner needs root")
def test_a_secret_of_another_account_is_a_problem(tmp_path):
    data, config = hall_folder(tmp_path)
    os.chown(data / "web.key", 65534, 65534)
    found = {f.name: f for f in secret_findings(data, str(config))}
    assert found["web.key"].ok is False and "65534" in found["web.key"].detail
