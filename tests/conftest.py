"""Shared fixtures: a real Hall over a real SQLite journal in a temporary folder."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, settings

from hall.cartons.cardbook import CardBook
from hall.cartons.cards import Card
from hall.config import parse_config
from hall.door.service import Hall
from hall.record.journal import Journal

# Speed lives in bench/, not in tests: no per-example deadline (a loaded CI machine made them flaky).
settings.register_profile("hall", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("hall")

SECRET = b"s" * 32
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def cards_from(notations: dict[str, str]) -> dict[str, Card]:
    """Cartons from their one-line notation, by ID."""
    return {cid: Card.parse(text) for cid, text in notations.items()}


@pytest.fixture
def make_hall(tmp_path):
    """Build a Hall on ``tmp_path/journal.sqlite``; call again to reopen (replay) the same journal."""
    opened = []

    def make(
        cards: dict[str, Card] | None = None,
        sold: set[str] | None = None,
        rules: dict | None = None,
        programme: list | None = None,
        seed: int = 1,
        name: str = "Salle test",
    ) -> Hall:
        raw = {"hall": {"name": name, "data_dir": str(tmp_path)}, "rules": rules or {}}
        if programme is not None:
            raw["programme"] = {"partie": programme}
        hall = Hall(
            parse_config(raw),
            Journal(tmp_path / "journal.sqlite"),
            CardBook(cards or {}, sold),
            voucher_secret=SECRET,
            rng=random.Random(seed),
        )
        opened.append(hall)
        return hall

    yield make
    for hall in opened:
        hall.journal.close()


def pytest_collection_modifyitems(items):
    """Every test that drives Chromium is ``slow`` (seconds each): marked here from the fixture it uses, so a new
    page test cannot forget it. The kill tests, playouts and long property runs carry the mark in their files."""
    for item in items:
        if "pw" in getattr(item, "fixturenames", ()):  # Playwright: every Chromium launched goes through it
            item.add_marker(pytest.mark.slow)


# ---- one Playwright and one Chromium for every page test (Playwright's sync API runs once per process)
@pytest.fixture(scope="session")
def browser_args():
    return list(CHROMIUM_ARGS)


@pytest.fixture(scope="session")
def pw():
    if not os.path.exists(CHROMIUM):
        pytest.skip("Chromium absent (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(pw, browser_args):
    b = pw.chromium.launch(executable_path=CHROMIUM, args=browser_args)
    yield b
    b.close()


@pytest.fixture
def redis_server(tmp_path):
    """Debian's redis-server on a free localhost port (tests/app/relay_parts.py), stopped at the end of the test."""
    from tests.app.relay_parts import RedisServer

    server = RedisServer(tmp_path)
    yield server
    server.close()
