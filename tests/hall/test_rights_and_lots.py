"""The one rights table and the one table of lot kinds say what the hall did before they were gathered."""

from __future__ import annotations

import os
import stat

import pytest

from hall.cartons.cards import Card
from hall.config import parse_config
from hall.loto.claims import verify
from hall.loto.lots import DEFAULT_LOTS, KINDS, LOT_KINDS, kind_label, lines_of
from hall.record.secretfile import load_or_create_secret
from hall.refusal import Rejected
from hall.rights import ROLES, may, roles_for

# the hall's commands and who could call them before the table moved to hall/rights.py
COMMANDS = {
    "start_partie": {"speaker"},
    "draw": {"speaker", "device"},
    "undo": {"speaker"},
    "announce_claim": {"speaker", "controller", "device"},
    "resume": {"speaker"},
    "check_claim": {"controller", "speaker", "device"},
    "award": {"speaker"},
    "clear": {"speaker"},
    "set_sold": {"desk"},
    "import_cards": set(),
    "redeem": {"desk"},
    "reprint": {"speaker", "desk"},
    "voucher_printed": {"device"},
    "propose": {"device"},
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_each_command_is_open_to_the_same_roles_as_before(command):
    for role in ("speaker", "controller", "desk", "device", "nobody", None):
        assert may(role, command) == (role in COMMANDS[command]), (command, role)
    assert may("admin", command) and may("system", command)


def test_pages_and_reads_come_from_the_same_table():
    assert roles_for("page:speaker") == ("speaker",)
    assert roles_for("page:controle") == ("controller", "speaker")
    assert roles_for("page:lots") == ("desk",) and roles_for("page:admin") == ()
    assert roles_for("card") == ("controller", "desk", "speaker")
    assert not may("speaker", "cards_csv") and may("admin", "cards_csv")
    assert ROLES[0] == "buvette" and ROLES[-1] == "admin"  # a shared PIN opens the smaller role


def rights_asked_for() -> dict[str, str]:
    """Every right the house asks for by name (``require``, ``require_right``, ``may``, ``roles_for`` with a string,
    a module constant ``…_RIGHT``, the pages' ``page:<name>``), with where."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    asked = {}
    for path in [*(root / "hall").rglob("*.py"), *(root / "display").rglob("*.py"), *(root / "drivers").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            where = f"{path.relative_to(root)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) in {
                "require",
                "require_right",
                "may",
                "roles_for",
            }:
                asked.update(
                    {a.value: where for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)}
                )
            if (
                isinstance(node, ast.Assign)
                and any(getattr(t, "id", "").endswith("_RIGHT") for t in node.targets)
                and isinstance(node.value, ast.Constant)
            ):
                asked[node.value.value] = where
    from display.pages import PAGES

    asked.update({f"page:{page}": "display/pages.py" for page in PAGES})
    return asked


def test_every_right_asked_for_is_a_row_s_or_the_admin_s_alone():
    """A right with no row is not the admin's by omission: ``ADMIN_ONLY`` names it, or it is a typo."""
    from hall.rights import ADMIN_ONLY, KNOWN_RIGHTS, RIGHTS

    asked = rights_asked_for()
    assert len(asked) > 40
    assert {right: where for right, where in asked.items() if right not in KNOWN_RIGHTS} == {}
    assert not ADMIN_ONLY & frozenset().union(*RIGHTS.values())  # admin-only means no row has it
    assert ADMIN_ONLY <= set(asked)  # and each is still asked for somewhere
    assert not any(may(role, right) for role in ROLES if role != "admin" for right in ADMIN_ONLY)


def test_each_staff_role_of_the_rights_table_and_no_other_has_a_pin(make_hall):
    hall = make_hall()
    for role in ROLES:
        assert hall.change_pin(role, "246813", role="admin").event.role == role
    for role in ("device", "system", "player"):
        with pytest.raises(Rejected, match="bad_field"):
            hall.change_pin(role, "246813", role="admin")


def test_the_lot_kinds_table_drives_the_rules_and_the_default_programme():
    assert LOT_KINDS == ("quine", "double_quine", "carton_plein")
    assert [spec.kind for spec in DEFAULT_LOTS] == list(LOT_KINDS)
    assert parse_config({}).partie_spec(0).lots == DEFAULT_LOTS
    card = Card.parse("4 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90")
    for kind in KINDS:
        draws = [n for row in card.rows[: kind.lines] for n in row]
        assert verify(card, draws, kind.kind).kind == "valid"
        assert verify(card, draws[:-1], kind.kind).kind == "incomplete"
        assert lines_of(kind.kind).need == kind.lines
    assert kind_label("double_quine") == "Double quine" and kind_label("bingo") == "Bingo"


def test_a_bad_lot_kind_in_the_config_names_every_known_kind():
    from hall.errors import ConfigError

    with pytest.raises(ConfigError) as err:
        parse_config({"programme": {"partie": [{"lots": [{"kind": "bingo", "label": "x"}]}]}})
    assert "quine, double_quine ou carton_plein" in str(err.value)


def test_the_programme_editor_takes_the_kinds_of_the_table_and_names_them_all_when_refusing():
    from hall.loto import programme

    assert [
        p.lots[0].kind for p in programme.parse_parties([{"lots": [{"kind": k, "label": "x"}]} for k in LOT_KINDS])
    ] == list(LOT_KINDS)
    with pytest.raises(programme.ProgrammeError) as err:
        programme.parse_parties([{"lots": [{"kind": "bingo", "label": "x"}]}])
    assert f"{', '.join(LOT_KINDS[:-1])} ou {LOT_KINDS[-1]}" in err.value.why


def test_no_module_but_the_table_writes_out_a_lot_kind():
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    # the kinds' type (hall.events.Kind, a Literal mypy checks) names them too: tests/hall/test_typed_kinds.py keeps
    # it the table's
    kind_type = {
        f"hall/events/partie.py:{line}"
        for node in ast.walk(ast.parse((root / "hall" / "events" / "partie.py").read_text()))
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "Kind"
        for line in range(node.lineno, (node.end_lineno or node.lineno) + 1)
    }
    found = [
        f"{p.relative_to(root)}:{node.lineno}"
        for folder in ("hall", "display", "drivers")
        for p in (root / folder).rglob("*.py")
        if p != root / "hall" / "loto" / "lots.py"
        for node in ast.walk(ast.parse(p.read_text()))
        if isinstance(node, ast.Constant) and node.value in LOT_KINDS
    ]
    found = [place for place in found if place not in kind_type]
    scripts = [
        f"{p.relative_to(root)}"
        for p in (root / "display" / "static" / "js").rglob("*.js")
        if any(f'"{kind}"' in p.read_text() for kind in LOT_KINDS)
    ]
    assert found == [] and scripts == []


def test_a_secret_is_made_once_private_and_whole(tmp_path):
    path = tmp_path / "sub" / "voucher.key"
    first = load_or_create_secret(path)
    assert len(first) == 32 and load_or_create_secret(path) == first
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert sorted(p.name for p in path.parent.iterdir()) == ["voucher.key"]  # no temporary file left
