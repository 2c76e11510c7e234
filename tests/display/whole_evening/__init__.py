"""The whole evening as one test (tests/display/test_whole_evening.py): its steps, in the evening's order.

Each step is a function taking the ``Evening`` (stage.py: the real hall, the pages people hold, what was noted along
the way); it acts through a page as the person holding it would and asserts what every screen concerned shows
afterwards. A feature that changes what happens during an evening adds its step to ``STEPS`` where it happens (in
before.py, play.py or after.py), or a few assertions to the step that already goes through that screen.
"""

from __future__ import annotations

from tests.display.whole_evening import after, before, play

STEPS = (
    before.admin_sets_tiers,
    before.admin_sets_programme,
    before.admin_imports_and_prints_cartons,
    before.admin_prepares_the_tombola,
    before.the_projector_before_the_doors_open,
    before.door_sales,
    before.door_sells_tombola_tickets,
    before.admin_voids_a_sale,
    before.phone_follows_two_cartons,
    play.partie_1_quine_after_a_false_claim,
    play.partie_1_double_quine_by_the_same_carton,
    play.partie_1_demarquez_carrying_the_velo,
    play.reservation_paid_at_the_break,
    play.buvette_sells_at_the_break,
    play.tombola_drawn_at_the_interval,
    play.partie_2_tie_on_the_middle_row,
    play.partie_2_the_carried_velo_won,
    play.partie_2_demarquez_keeping_the_cafetiere,
    after.prize_desk_hands_the_panier_over,
    after.prize_desk_hands_the_tombola_lot_over,
    after.buvette_closes_with_the_stock_counted,
    after.report_agrees,
    after.journal_verifies,
    after.a_new_evening,
)
