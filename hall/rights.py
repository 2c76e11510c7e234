"""The one rights table: what each role may do — the hall's commands, the API's reads, the pages.

``display/`` reads it (``may``, ``roles_for``) for every request and every page; ``Hall`` for every command.
``admin`` and ``system`` (the program itself: demo, command line) may do everything; ``ADMIN_ONLY`` names what only
they may do.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from hall.refusal import Rejected

ROLES: tuple[str, ...] = (
    "buvette",
    "controller",
    "desk",
    "speaker",
    "admin",
)  # least rights first: a shared PIN gets the smaller role
STAFF = frozenset(ROLES)
EVERYTHING = frozenset({"admin", "system"})

BUVETTE = frozenset({"buvette_sell", "buvette_close", "buvette_read", "page:buvette"})
"""The buvette's till (RULES L25): its own role, and those who hold the evening's money above it (the door's desk,
the speaker) may sell there too; the controllers walking the tables may not."""

RIGHTS: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "buvette": BUVETTE,
        "speaker": frozenset(
            {
                "start_partie",
                "draw",
                "undo",
                "announce_claim",
                "resume",
                "check_claim",
                "award",
                "clear",
                "close_evening",
                "reprint",
                "speaker_state",
                "card",
                "page:speaker",
                "page:controle",
                "games",
                "repeat_ball",
                "test_voice",
                "show_count",
                "room_go_on",
                "tombola_draw",
            }
        )
        | BUVETTE,
        "controller": frozenset({"announce_claim", "check_claim", "card", "page:controle"}),
        "desk": frozenset(
            {
                "set_sold",
                "redeem",
                "reprint",
                "card",
                "page:lots",
                "sell",
                "pay_sale",
                "sales_summary",
                "page:caisse",
                "tournament_desk",
                "tombola_sell",
                "tombola_collect",
            }
        )
        | BUVETTE,
        "device": frozenset(
            {
                "draw",
                "propose",
                "announce_claim",
                "check_claim",
                "voucher_printed",
                "ticket_printed",
                "buvette_printed",
                "tombola_printed",
            }
        ),
        "annex": frozenset({"room_claim"}),  # a salle annexe's device, by its token (RULES L23)
    }
)
ADMIN_ONLY = frozenset(
    {
        "report_ticket",
        "games_switch",
        "network",
        "void_sale",
        "edit_programme",
        "edit_prices",
        "edit_players",
        "edit_calling",
        "speech_recordings",
        "change_pin",
        "consoles",
        "import_cards",
        "cards_csv",
        "cards_pdf",
        "admin_info",
        "device_test",
        "preflight",
        "setup",
        "report",
        "evenings",
        "page:admin",
        "room_open",
        "tombola_prepare",
        "buvette_products",
    }
)
"""The rights no row gives: the admin's (and the program's) alone. A right named nowhere here or in ``RIGHTS``
is a typo (tests/hall/test_rights_and_lots.py reads every right the house asks for)."""
KNOWN_RIGHTS = frozenset().union(ADMIN_ONLY, *RIGHTS.values())


def may(role: str | None, right: str) -> bool:
    """Whether ``role`` has ``right`` (a command, an API read or ``page:<name>``)."""
    return role in EVERYTHING or right in RIGHTS.get(role or "", frozenset())


def require(role: str, command: str) -> None:
    """Refuse a command ``role`` may not give: ``Rejected("forbidden")`` naming both (every command of the hall)."""
    if not may(role, command):
        raise Rejected("forbidden", command=command, role=role)


def roles_for(right: str) -> tuple[str, ...]:
    """The staff roles besides admin that have ``right``, least rights first."""
    return tuple(role for role in ROLES if role != "admin" and right in RIGHTS.get(role, frozenset()))
