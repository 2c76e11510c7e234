"""Every page state a screenshot shows is checked by axe-core in the same Chromium before it is taken.

axe-core 4.14.1 (MPL-2.0) is vendored for the tests only, in ``tests/display/vendor/axe-core/`` with its licences:
the tests run offline like the hall, and nothing of it is shipped (``display/static/vendor/`` stays the pages').
Refresh it with ``npm pack axe-core@VERSION`` and check ``SHA256SUMS`` (see the vendor folder's README).

The verdict: no critical and no serious violation, ever; a moderate one only when ``docs/accessibility.md``
writes down why (``MODERATE_ALLOWED``, none today); minor ones are reported by the same rules and fixed too.
"""

from __future__ import annotations

from pathlib import Path

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"

# moderate rules accepted on a page, with the reason written in docs/accessibility.md: {rule: reason}
MODERATE_ALLOWED: dict[str, str] = {}

_RUN = """async () => {
  const r = await axe.run(document, {resultTypes: ['violations']});
  return r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ') + ' — ' + (n.failureSummary || '').split('\\n').slice(-1)[0])}));
}"""


def violations(page) -> list[dict]:
    """axe-core's violations on the page as it is now (the script is added once per document)."""
    # the state the screenshot shows: an arrival's fade (opacity .3 → 1) is finished, as Playwright's
    # ``animations="disabled"`` does, or axe measures the contrast of a half-faded number
    page.evaluate("() => document.getAnimations().forEach((a) => a.finish())")
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    return page.evaluate(_RUN)


def audit(page, where: str = "") -> list[dict]:
    """Fail on any critical, serious or minor violation and on a moderate one not written down; return them all."""
    found = violations(page)
    bad = [v for v in found if not (v["impact"] == "moderate" and v["id"] in MODERATE_ALLOWED)]
    assert not bad, f"axe-core on {where or page.url}:\n" + "\n".join(
        f"  {v['impact']} {v['id']} ({v['help']}): {v['nodes']}" for v in bad
    )
    return found


def shoot(target, path, **options) -> Path:
    """Audit the page (of a page or of a locator), then take the screenshot: no state is documented unchecked."""
    page = getattr(target, "page", target)
    audit(page, str(Path(path).name))
    target.screenshot(path=str(path), **options)
    return Path(path)
