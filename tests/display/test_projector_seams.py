"""The projector at 1080p (issue 32, item 8): a tie-break's banner leaves the board's last row on screen; the next
lots (« ensuite ») are never cut inside a label; the last lot's winner is never shown among a new lot's tie."""

from __future__ import annotations

from playwright.sync_api import expect

from hall.events import LotSpec
from tests.display.conftest import A1, A2, play_to_tie

ON_SCREEN = """() => ({bottom: document.querySelector('[data-n="90"]').getBoundingClientRect().bottom,
                     height: innerHeight, page: document.documentElement.scrollHeight})"""


def test_a_tie_break_keeps_the_whole_board_on_a_1080p_screen(page, live):
    page.goto(live.url + "/")
    page.wait_for_function("document.body.dataset.seq !== undefined")  # the banners are events: follow them all
    play_to_tie(live)
    live.hall.award(role="speaker", tie_break={A1: 31, A2: 76})
    expect(page.locator(".banner-lines li.tie-winner")).to_have_count(1, timeout=15_000)
    expect(page.locator("#winners .win-card")).to_have_count(2)
    box = page.evaluate(ON_SCREEN)
    assert box["bottom"] <= box["height"] and box["page"] <= box["height"], box


def test_the_next_lots_are_never_cut_inside_a_label(page, live):
    h = live.hall
    long = "Panier garni de produits du terroir offert par la boucherie Martin"
    h.start_partie(
        [
            LotSpec(k, label)
            for k, label in (
                ("quine", "Jambon"),
                ("quine", long),
                ("double_quine", long + " (bis)"),
                ("carton_plein", long + " (ter)"),
            )
        ],
        role="speaker",
    )
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(live.url + "/")
    nxt = page.locator("#next-lots")
    expect(nxt).to_contain_text("ensuite")
    fits = nxt.evaluate("(e) => e.scrollWidth <= e.clientWidth")
    assert fits
    text = nxt.text_content()
    assert "+" in text and "…" not in text  # whole labels, the rest counted
    shown = [part.strip() for part in text.split(":", 1)[1].split("·") if not part.strip().startswith("+")]
    assert all(part.endswith(("Jambon", "Martin", "(bis)", "(ter)")) for part in shown), shown


def test_the_last_lots_winner_is_not_shown_among_the_next_lots_tie(page, live):
    """A carton valid for the next lot on the same ball (RULES L11) replaces the winners shown, never joins them."""
    page.goto(live.url + "/")
    page.wait_for_function("document.body.dataset.seq !== undefined")
    count = page.evaluate("""async () => {
      const m = await import('/static/js/projector_evening.js');
      const card = (id) => ({card_id: id, grid: [[1, null], [null, 2], [3, null]], marked: [], last: null});
      m.addWinner({card_id: 'P-1', card: card('P-1'), rows: [0], lot: {index: 0}});
      m.addWinner({card_id: 'Q-1', card: card('Q-1'), rows: [1], lot: {index: 1}});
      m.addWinner({card_id: 'R-1', card: card('R-1'), rows: [2], lot: {index: 1}});
      return m.winnerIds(); }""")
    assert count == ["Q-1", "R-1"]
