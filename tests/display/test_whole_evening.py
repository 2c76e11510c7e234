"""The whole evening as one test (issue 32): ``loto-hall serve`` on a data folder and every page people hold, in
Debian's Chromium — the admin's tiers and programme, the door, a phone following two printed cartons, the speaker's
keypad, /controle, the projector, a tie, a carried lot, the buvette's till, the tombola (prepared on /admin, sold at
/caisse with its tickets printed on a real TCP printer, drawn from the console onto the projector's /tombola, its
lot handed over at the prize desk), the prize desk, the report's three accounts as the treasurer opens them, the
journal verified and the next evening on the pages left open. The steps are tests/display/whole_evening's ``STEPS``,
one function each. Screenshots: the test's folder, or docs/screenshots with ``LOTO_SCREENSHOTS=1``
(evening-NN-page-what.png)."""

from __future__ import annotations

import pytest

from tests.display.whole_evening import STEPS
from tests.display.whole_evening.stage import Evening

pytestmark = pytest.mark.slow  # the real service, restarted once, and eight pages: a minute or so


@pytest.fixture
def evening(browser, tmp_path):
    ev = Evening(tmp_path, browser)
    ev.start()
    yield ev
    ev.close()


def test_the_whole_evening(evening):
    for step in STEPS:
        step(evening)
