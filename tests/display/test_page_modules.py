"""The pages' scripts are ES modules: none is a classic or inline script, none leaves a global on ``window``, and
none ships a test-only hook; the tests read the page as a person or an assistive tool does (text, roles, the
``data-*`` attributes of INTERFACE §7 and §9, ``data-seq``/``data-version`` on the body) or the wire
(tests/display/wire.py).

A test-only hook is a way into a shipped script that only something outside the page uses:
  - a property the script puts on the global object (``window.x =``, ``globalThis``, ``self.x =``…);
  - an export that no shipped script imports: nothing on a page can reach it, only a test or a benchmark;
  - a comment that says the code is there for tests.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from display.services import services_of
from tests.display.conftest import PINS, LiveServer, make_tournament_room

DISPLAY = Path(__file__).resolve().parents[2] / "display"
JS = DISPLAY / "static" / "js"
SHIPPED = sorted(JS.rglob("*.js"))


# ------------------------------------------------------------------------------------------ the templates
class Scripts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[dict, str]] = []
        self._open: dict | None = None
        self._body: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self._open, self._body = dict(attrs), []

    def handle_data(self, data):
        if self._open is not None:
            self._body.append(data)

    def handle_endtag(self, tag):
        if tag == "script" and self._open is not None:
            self.found.append((self._open, "".join(self._body)))
            self._open = None


def test_every_script_of_every_template_is_a_module_or_data():
    seen = 0
    for template in sorted((DISPLAY / "templates").glob("*.html")):
        parser = Scripts()
        parser.feed(template.read_text(encoding="utf-8"))
        for attrs, body in parser.found:
            seen += 1
            kind = attrs.get("type")
            if kind == "application/json":  # data for the modules (the boot, a part's words)
                assert "src" not in attrs, template.name
                continue
            assert kind == "module", (template.name, attrs)
            assert attrs.get("src", "").startswith("{{ url_for('static', filename="), (template.name, attrs)
            assert not body.strip(), (template.name, "an inline script")  # ready for script-src 'self'
    assert seen > 20


# ------------------------------------------------------------------------------------------ the scripts
IMPORT = re.compile(r'^import\s+(?:\{([^}]*)\}\s+from\s+|\*\s+as\s+\w+\s+from\s+|)"([^"]+)";', re.M)
EXPORT = re.compile(r"^export\s+(.*)$", re.M)
DECLARED = re.compile(r"(?:async\s+)?(?:function\*?|const|let|class)\s+([\w$]+)")
GLOBAL_WRITE = re.compile(
    r"\b(?:window|globalThis|self)\s*(?:\.\s*[\w$]+|\[[^\]]+\])\s*=(?!=)"
    r"|\bglobalThis\b|Object\.(?:assign|defineProperty|defineProperties)\(\s*(?:window|self)\b"
)
FOR_TESTS = re.compile(r"for (?:the )?tests?\b|test[- ]hook|\b__test|pour les tests", re.I)


def exports_of(path: Path) -> set[str]:
    names = set()
    for statement in EXPORT.findall(path.read_text(encoding="utf-8")):
        if statement.startswith("{"):
            names |= {part.split(" as ")[-1].strip() for part in statement.strip("{};").split(",") if part.strip()}
            continue
        declared = DECLARED.match(statement)
        assert declared, f"{path.name}: an export this test cannot read: export {statement}"
        names.add(declared.group(1))
    return names


def imports_of(path: Path) -> list[tuple[Path, set[str] | None]]:
    """(the module imported, the names taken from it; None for a namespace or a bare import)."""
    out = []
    for names, specifier in IMPORT.findall(path.read_text(encoding="utf-8")):
        target = (path.parent / specifier).resolve()
        taken = {part.split(" as ")[0].strip() for part in names.split(",") if part.strip()} if names else None
        out.append((target, taken))
    return out


def test_the_shipped_scripts_import_what_exists_and_export_only_what_a_page_uses():
    used: dict[Path, set[str]] = {}
    for path in SHIPPED:
        text = path.read_text(encoding="utf-8")
        assert '"use strict"' not in text and "(function () {" not in text, f"{path.name}: a classic script's wrapper"
        for target, taken in imports_of(path):
            assert target.is_file(), f"{path.name} imports {target}, which is not shipped"
            if taken is None:
                used.setdefault(target, set()).add("*")
                continue
            if target.is_relative_to(JS):
                missing = taken - exports_of(target)
                assert not missing, f"{path.name} imports {missing} that {target.name} does not export"
            used.setdefault(target, set()).update(taken)
    for path in SHIPPED:
        if "*" in used.get(path, set()):
            continue
        unused = exports_of(path) - used.get(path, set())
        assert not unused, f"{path.name} exports {unused}, imported by no shipped script: a hook for tests?"


def test_no_shipped_script_writes_to_the_global_object_or_says_it_is_there_for_tests():
    for path in SHIPPED:
        text = path.read_text(encoding="utf-8")
        written = GLOBAL_WRITE.findall(text)
        assert not written, f"{path.name} puts {written} on the global object"
        said = FOR_TESTS.findall(text)
        assert not said, f"{path.name}: {said}"


# ------------------------------------------------------------------------------------------ the pages, in Chromium
@pytest.fixture
def site(tmp_path):
    """A hall with a mini-game table and the tournament, served on loopback."""
    room = make_tournament_room(tmp_path)
    server = LiveServer(room.app)
    room.url = server.url
    room.code = (
        room.app.test_client()
        .post(
            "/api/games/rooms",
            json={"game": "lobo77"},  # type: ignore[attr-defined]
            headers=room.headers("speaker"),
        )
        .get_json()["code"]
    )
    yield room
    server.stop()
    services_of(room.app).rooms.stop()
    room.store.close()  # type: ignore[attr-defined]
    room.hall.journal.close()


OWN_NAMES = "() => Object.getOwnPropertyNames(window)"
SCRIPTS = (
    """() => [...document.scripts].map((s) => [s.type, s.src ? new URL(s.src).pathname : "", s.text.trim().length])"""
)


def test_no_page_leaves_a_global_on_window_and_every_script_is_a_module(browser, site):
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="fr-FR")
    try:
        blank = context.new_page()  # the hall's error page runs no script: what Chromium itself puts there
        blank.goto(site.url + "/nowhere")
        assert not [kind for kind, _, _ in blank.evaluate(SCRIPTS) if kind != "application/json"]
        browser_names = set(blank.evaluate(OWN_NAMES))
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.on(
            "response",
            lambda resp: (
                errors.append(f"{resp.status} {resp.url}") if "/static/" in resp.url and resp.status >= 400 else None
            ),
        )
        code = site.code  # type: ignore[attr-defined]
        # each page, and what shows its scripts have run (None: a form that waits for a person)
        public = {
            "/": "body[data-seq]",
            "/j": None,
            f"/j/{code}": "body[data-version]",
            f"/jeux/{code}": "#gs-code:not(:empty)",
            "/tournoi/classement": "#tp-game:not(:empty)",
            "/tournoi/table/1": "#tt-code-form:not([hidden])",
            "/speaker": None,
            "/tournoi": None,
        }  # 2 PIN forms
        staff = {
            "/speaker": "body[data-seq]",
            "/controle": "body[data-seq]",
            "/lots": None,
            "/admin": "body[data-seq]",
            "/caisse": "body[data-seq]",
            "/tournoi": "#td-phase:not(:empty)",
        }
        visited = []
        for logged, pages in ((False, public), (True, staff)):
            if logged:
                page.goto(site.url + "/admin")
                page.fill("#pin", PINS["admin_pin"])
                page.click("#login-form button[type=submit]")
                page.wait_for_selector("nav.nav")
            for path, ran in pages.items():
                page.goto(site.url + path)
                page.wait_for_load_state("load")
                if ran:
                    page.wait_for_selector(ran, state="attached")
                scripts = page.evaluate(SCRIPTS)
                for kind, src, inline in scripts:
                    assert kind in ("module", "application/json"), (path, kind, src)
                    assert kind == "application/json" or (src.startswith("/static/js/") and not inline), (path, src)
                extra = set(page.evaluate(OWN_NAMES)) - browser_names
                assert not extra, f"{path} leaves {sorted(extra)} on window"
                visited.append((path, sum(1 for kind, _, _ in scripts if kind == "module")))
        assert not errors, errors
        assert all(n for _, n in visited), visited
    finally:
        context.close()
