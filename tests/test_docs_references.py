"""The repository explains itself: every citation of the project's documents resolves inside it, every link leads
somewhere.

The code and the docs cite three documents by name: ``INTERFACE §9`` (docs/interface.md, by section number),
``RULES L20–L21`` / ``RULES §1c`` / ``RULES 5b`` (docs/rules.md and its addenda, by row or section) and
``ARCHITECTURE "the one-writer rule"`` (docs/architecture.md, by section name). A citation that names nothing here
sends a newcomer outside the repository, so it fails. So does a relative link in docs/ or the README whose file (or
heading) does not exist.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SCANNED = ("hall", "display", "drivers", "tests", "bench", "docs", "systemd")
SUFFIXES = {".py", ".js", ".md", ".toml", ".html", ".css", ".txt", ".service", ".rules"}
# The rows a RULES citation may name: the rules page and the project's addenda to it.
RULE_PAGES = ("rules.md", "loto-rules.md", "osga.md", "rooms.md")

ITEM = r"(?:§\s?\d+[a-z+]*|[LEOPNTR]\d+[a-z]?|\d+[a-z]?)"
RANGE = rf"{ITEM}(?:\s?[–-]\s?{ITEM})?"
RULES_CITE = re.compile(rf"\bRULES(?:\.md)?`?[ \u00a0]+({RANGE}(?:,[ \u00a0]*{RANGE})*)")
ADDENDUM_CITE = re.compile(r"loto-rules\.md`?\)?,?[ \u00a0]+((?:L\d+[a-z]?)(?:,[ \u00a0]*L\d+[a-z]?)*)")
INTERFACE_CITE = re.compile(r"\bINTERFACE(?:\.md)?`?[ \u00a0]+(§\s?\d+(?:\s?[–-]\s?§?\d+)?)")
ARCHITECTURE_CITE = re.compile(r"\bARCHITECTURE(?:\.md)?(?:'s)?[ \u00a0]*(?:[\"“«]\s*([^\"”»\n]+?)\s*[\"”»])?")
OUTSIDE = re.compile(r"(?:\.\./|/work/)shared/(?:INTERFACE|RULES|ARCHITECTURE)\.md")
LINK = re.compile(r"!?\[[^\]\n]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*$", re.M)
ROW_ID = re.compile(r"^\|\s*([A-Z]\d+[a-z]?)\s*\|", re.M)


def scanned_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "pyproject.toml"]
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*")):
            # this file alone cites nowhere on purpose (its last test)
            if path.suffix in SUFFIXES and "vendor" not in path.parts and path.is_file() and path != Path(__file__):
                files.append(path)
    return files


def where(path: Path, text: str, pos: int) -> str:
    return f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, pos) + 1}"


def headings(page: Path) -> list[str]:
    return HEADING.findall(page.read_text()) if page.exists() else []


def section_numbers(page: Path) -> set[str]:
    """``## 10. More phones`` → ``10``; ``### 1b+. Carried lots`` → ``1b+``."""
    return {m.group(1) for h in headings(page) if (m := re.match(r"(\d+[a-z+]*)\.\s", h))}


def rule_ids() -> set[str]:
    return {i for name in RULE_PAGES if (DOCS / name).exists() for i in ROW_ID.findall((DOCS / name).read_text())}


def expand(item_range: str) -> list[str]:
    """``L6–L9`` → L6 … L9; ``§4–§5`` → 4, 5; ``5a–5c`` → 5a, 5c (its ends); ``L12a`` → L12a."""
    parts = [p.strip().replace("§", "").strip() for p in re.split(r"[–-]", item_range)]
    if len(parts) == 2:
        a, b = (re.fullmatch(r"([A-Z]?)(\d+)", p) for p in parts)
        if a and b and a.group(1) == b.group(1):
            return [f"{a.group(1)}{n}" for n in range(int(a.group(2)), int(b.group(2)) + 1)]
    return parts


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def unresolved_citations() -> list[str]:
    interface = section_numbers(DOCS / "interface.md")
    rule_sections = section_numbers(DOCS / "rules.md")
    rules = rule_ids()
    arch = [h.lower() for h in headings(DOCS / "architecture.md")]
    bad: list[str] = []
    for path in scanned_files():
        text = path.read_text(errors="replace")
        for m in INTERFACE_CITE.finditer(text):
            for n in expand(m.group(1)):
                if n not in interface:
                    bad.append(f"{where(path, text, m.start())}: INTERFACE §{n}: no section {n}. in docs/interface.md")
        for cite in (*RULES_CITE.finditer(text), *ADDENDUM_CITE.finditer(text)):
            for item_range in re.split(r",\s*", cite.group(1)):
                for item in expand(item_range):
                    if item[0].isdigit():
                        if item not in rule_sections:
                            bad.append(
                                f"{where(path, text, cite.start())}: RULES §{item}: no such section in docs/rules.md"
                            )
                    elif item not in rules:
                        pages = ", ".join(RULE_PAGES)
                        bad.append(f"{where(path, text, cite.start())}: RULES {item}: no row {item} in docs/ ({pages})")
        for m in ARCHITECTURE_CITE.finditer(text):
            if not (DOCS / "architecture.md").exists():
                bad.append(f"{where(path, text, m.start())}: ARCHITECTURE: docs/architecture.md is missing")
            elif m.group(1) and not any(m.group(1).lower() in h for h in arch):
                bad.append(f"{where(path, text, m.start())}: ARCHITECTURE {m.group(1)!r}: no such section")
        for m in OUTSIDE.finditer(text):
            bad.append(f"{where(path, text, m.start())}: {m.group(0)} is outside the repository: cite docs/ instead")
    return bad


def broken_links() -> list[str]:
    pages = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
    bad: list[str] = []
    for page in pages:
        text = re.sub(r"```.*?```", lambda m: "\n" * m.group(0).count("\n"), page.read_text(), flags=re.S)
        for m in LINK.finditer(text):
            target = m.group(1)
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, mailto: …: not ours to check offline
                continue
            file_part, _, anchor = target.partition("#")
            dest = (page.parent / file_part).resolve() if file_part else page
            if not dest.exists():
                bad.append(f"{where(page, text, m.start())}: {target}: no such file")
            elif anchor and dest.suffix == ".md" and anchor not in {slug(h) for h in headings(dest)}:
                bad.append(f"{where(page, text, m.start())}: {target}: no heading #{anchor} in {dest.name}")
    return bad


def test_every_citation_of_the_projects_documents_resolves_in_docs():
    assert unresolved_citations() == []


def test_every_relative_link_in_the_docs_and_the_readme_leads_to_a_file():
    assert broken_links() == []


def test_the_readme_links_the_developers_start_here_and_it_links_the_three_documents():
    readme = (ROOT / "README.md").read_text()
    assert "](docs/README.md)" in readme
    start = (DOCS / "README.md").read_text()
    for page in ("architecture.md", "door.md", "interface.md", "rules.md", "loto-rules.md"):
        assert f"]({page})" in start, page


def test_the_checks_see_a_citation_that_resolves_nowhere(tmp_path, monkeypatch):
    """The scanner is not blind: a made-up section, row, name and link are each reported."""
    (tmp_path / "docs").mkdir()
    for name in ("interface.md", "rules.md", "architecture.md"):
        (tmp_path / "docs" / name).write_text((DOCS / name).read_text())
    (tmp_path / "hall").mkdir()
    (tmp_path / "hall" / "x.py").write_text(
        '# INTERFACE §4 and RULES L12a, L6–L9, §1c resolve\n# INTERFACE §99, RULES L99, RULES 9z, ARCHITECTURE "the kitchen"\n'
    )
    (tmp_path / "README.md").write_text("[ok](docs/rules.md#11-x) [gone](docs/nothing.md)\n")
    (tmp_path / "pyproject.toml").write_text("")
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    monkeypatch.setitem(globals(), "DOCS", tmp_path / "docs")
    cited = "\n".join(unresolved_citations())
    assert "§99" in cited and "L99" in cited and "§9z" in cited and "the kitchen" in cited
    assert "§4:" not in cited and "L12a" not in cited and "L7" not in cited and "§1c" not in cited
    linked = "\n".join(broken_links())
    assert "docs/nothing.md: no such file" in linked and "no heading #11-x" in linked
