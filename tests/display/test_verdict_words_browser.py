"""Words that tell the truth (issue 39, item 3; RULES L12a): every ``missed`` says which reason holds — complete before
the last ball (« trop tard »), the last ball not on the rows that count, the row already paid for this kind — in the
controller's verdict (/controle, the speaker's checks: staff.js), the ritual on the projector and the phones
(ritual.js) and its voice (display/voice_words.py RITUAL, said from French clips), the phone's own carton and the
public banner; each wording in French and in English, read from the pages' own scripts in Chromium; then an evening
that meets them, on /controle, the projector and a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from display.speech import phrase_text
from display.voice_words import RITUAL
from hall.events import LotSpec
from tests.display.conftest import A1, PINS, login_page

KINDS = ("quine", "double_quine", "carton_plein")
WORDS = {
    "fr": {
        ("v_", "late"): "Trop tard : le 45 n'est pas sur ce carton",
        ("v_", "last_not_in_rows"): "Le 45 n'est pas sur les lignes qui comptent",
        ("v_", "named"): "Le 45 n'est pas sur la ligne du milieu, la seule qui compte",
        ("v_", "quine"): "Ligne déjà payée : elle a déjà gagné une quine",
        ("v_", "double_quine"): "Ligne déjà payée : elle a déjà gagné une double quine",
        ("v_", "carton_plein"): "Déjà payé : ce carton a déjà gagné un carton plein",
        ("mc_", "late"): "Trop tard : complet avant le 45, qui n'est pas sur ce carton",
        (
            "mc_",
            "last_not_in_rows",
        ): "Complet, mais le 45 n'est pas sur les lignes qui comptent",
        ("mc_", "named"): "Complet, mais le 45 n'est pas sur la ligne du milieu",
        ("mc_", "quine"): "Cette ligne a déjà gagné une quine : elle ne gagne pas deux fois",
        ("mc_", "double_quine"): "Cette ligne a déjà gagné une double quine : elle ne gagne pas deux fois",
        ("mc_", "carton_plein"): "Ce carton a déjà gagné un carton plein",
        ("public", "late"): "Trop tard — la partie continue",
        ("public", "last_not_in_rows"): "Pas sur les lignes qui comptent — la partie continue",
        ("public", "row_already_paid"): "Déjà payé pour ce lot — la partie continue",
        ("ritual", "late"): "Trop tard : le dernier numéro n'est pas sur ce carton.",
        ("ritual", "last_not_in_rows"): "Le dernier numéro n'est pas sur les lignes qui comptent.",
        ("ritual", "quine"): "Cette ligne a déjà gagné une quine.",
        ("ritual", "double_quine"): "Cette ligne a déjà gagné une double quine.",
        ("ritual", "carton_plein"): "Ce carton a déjà gagné le carton plein.",
        ("false", "quine"): "Fausse annonce : sa ligne complète a déjà gagné une quine",
        ("false", "double_quine"): "Fausse annonce : ses lignes complètes ont déjà gagné une double quine",
        ("false", "carton_plein"): "Fausse annonce : ce carton a déjà gagné un carton plein",
    },
    "en": {
        ("v_", "late"): "Too late: 45 is not on this card",
        ("v_", "last_not_in_rows"): "45 is not on the rows that count",
        ("v_", "named"): "45 is not on the middle row, the only one that counts",
        ("v_", "quine"): "Row already paid: it already won a one-line prize",
        ("v_", "double_quine"): "Row already paid: it already won a two-lines prize",
        ("v_", "carton_plein"): "Already paid: this card already won a full house",
        ("mc_", "late"): "Too late: complete before 45, which is not on this card",
        ("mc_", "last_not_in_rows"): "Complete, but 45 is not on the rows that count",
        ("mc_", "named"): "Complete, but 45 is not on the middle row",
        ("mc_", "quine"): "This row already won a one-line prize: it does not win twice",
        ("mc_", "double_quine"): "This row already won a two-lines prize: it does not win twice",
        ("mc_", "carton_plein"): "This card already won a full house",
        ("public", "late"): "Too late — the game goes on",
        ("public", "last_not_in_rows"): "Not on the rows that count — the game goes on",
        ("public", "row_already_paid"): "Already paid for this prize — the game goes on",
        ("ritual", "late"): "Too late: the last number is not on this card.",
        ("ritual", "last_not_in_rows"): "The last number is not on the rows that count.",
        ("ritual", "quine"): "This row already won a one-line prize.",
        ("ritual", "double_quine"): "This row already won a two-lines prize.",
        ("ritual", "carton_plein"): "This card already won the full house.",
        ("false", "quine"): "False claim: its complete row already won a one-line prize",
        ("false", "double_quine"): "False claim: its complete rows already won a two-lines prize",
        ("false", "carton_plein"): "False claim: this card already won a full house",
    },
}

# each wording as the pages' scripts say it: the controller's (staff.js verdictText), the phone's (lines.js), the
# public banner's, the ritual's words and the clips its voice says
SAY = """async () => {
  const lines = await import("/static/js/lines.js"), staff = await import("/static/js/staff.js");
  const ritual = await import("/static/js/ritual.js");
  const out = {};
  const plain = (text) => text.replace(/[\\u00a0\\u202f]/g, " ");
  const missed = (reason, lot) => ({verdict: "missed", reason, lot, last: 45});
  for (const [key, reason, lot] of [["late", "late", {kind: "quine"}], ["last_not_in_rows", "last_not_in_rows", {kind: "quine"}],
                                    ["named", "last_not_in_rows", {kind: "quine", row: 2}],
                                    ...%s.map((k) => [k, "row_already_paid", {kind: k}])]) {
    out["v_|" + key] = plain(staff.verdictText(missed(reason, lot)).line);
    out["tone|" + key] = staff.verdictText(missed(reason, lot)).tone;
    out["mc_|" + key] = plain(lines.missedText("mc_", reason, lot, 45));
    const step = ritual.ritualStep("verdict", missed(reason, lot));
    out["ritual|" + key] = plain(step.words);
    out["clips|" + key] = step.clips.join(",");
    out["public|" + reason] = plain(lines.missedPublic(reason));
  }
  for (const k of %s) {
    const v = staff.verdictText({verdict: "incomplete", reason: "row_already_paid", lot: {kind: k}, missing: []});
    out["false|" + k] = plain(v.line);
    out["false_clips|" + k] = ritual.ritualStep("verdict", {verdict: "incomplete", reason: "row_already_paid", lot: {kind: k}}).clips.join(",");
  }
  return out;
}""" % (list(KINDS), list(KINDS))


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_each_reason_of_a_missed_verdict_has_its_own_words(page, live, lang):
    page.goto(live.url + f"/mes-cartons?lang={lang}")
    said = page.evaluate(SAY)
    words = WORDS[lang]
    for (where, key), text in words.items():
        assert said[f"{where}|{key}"] == text, (where, key, said.get(f"{where}|{key}"))
    # three reasons, three sentences, wherever they are read; a missed is orange, never a false claim's red
    for where in ("v_", "mc_", "ritual"):
        assert len({said[f"{where}|{key}"] for key in ("late", "last_not_in_rows", "quine")}) == 3
    assert {said[f"tone|{key}"] for key in ("late", "last_not_in_rows", "named", *KINDS)} == {"warn"}
    # the voice says each reason from its own clip, rendered from the ritual's French sentence
    clips = {key: said[f"clips|{key}"] for key in ("late", "last_not_in_rows", *KINDS)}
    assert clips == {
        "late": "late",
        "last_not_in_rows": "missed_rows",
        **{k: f"missed_paid_{k}" for k in KINDS},
    }
    for clip in clips.values():
        assert clip in RITUAL and phrase_text(clip) == str(RITUAL[clip])
    assert {said[f"false_clips|{k}"] for k in KINDS} == {f"bad_{k},missed_paid_{k}" for k in KINDS}


def test_the_voice_says_each_reason_in_french(live):
    with live.app.app_context():
        said = {key: phrase_text(key) for key in ("late", "missed_rows", *(f"missed_paid_{k}" for k in KINDS))}
    assert said == {
        "late": "Trop tard : le dernier numéro n'est pas sur ce carton.",
        "missed_rows": "Le dernier numéro n'est pas sur les lignes qui comptent.",
        "missed_paid_quine": "Cette ligne a déjà gagné une quine.",
        "missed_paid_double_quine": "Cette ligne a déjà gagné une double quine.",
        "missed_paid_carton_plein": "Ce carton a déjà gagné le carton plein.",
    }


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_an_evening_meets_each_reason_on_controle_the_projector_and_the_phone(browser, live, lang):
    """A1 (4 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90) in a partie of two quines: claimed late (the 1 is not on
    it), then on the 9 (on an incomplete row), then its quine won on 84 and claimed again for the second quine on the
    same ball (the row paid for a quine). Each verdict said on /controle, the projector's banner and ritual, and the
    phone following A1."""
    h = live.hall
    words = WORDS[lang]
    h.start_partie(
        [LotSpec("quine", "Panier"), LotSpec("quine", "Jambon"), LotSpec("carton_plein", "Vélo")], role="speaker"
    )
    ctx = browser.new_context(viewport={"width": 360, "height": 640}, locale="fr-FR" if lang == "fr" else "en-GB")
    screen = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        ctl, phone, projector = ctx.new_page(), ctx.new_page(), screen.new_page()
        login_page(ctl, live.url + f"/controle?lang={lang}", PINS["controller_pin"])
        phone.goto(live.url + f"/c/{A1}?k={h.card_code(A1)}&lang={lang}")
        projector.goto(live.url + f"/?lang={lang}")
        phone.locator(f'[data-card="{A1}"]').wait_for()

        def claimed(expected: str, public: str, ritual: str, reason: str) -> None:
            ctl.fill("#card-id", A1)
            ctl.press("#card-id", "Enter")
            expect(ctl.locator("#verdict-line")).to_have_text(expected)
            expect(ctl.locator("#verdict")).to_have_attribute("data-verdict", "missed")
            expect(projector.locator("#banner-text")).to_have_text(public)
            expect(projector.locator("#ritual-words")).to_have_text(ritual)
            expect(projector.locator("#ritual")).to_have_attribute("data-ritual", "late")
            ctl.click("#verdict-close")

        for n in (4, 13, 37, 52, 80, 1):
            h.draw(n, role="speaker")
        card = phone.locator(f'[data-card="{A1}"]')
        expect(card).to_have_attribute("data-reason", "late")
        expect(card.locator(".mc-status").first).to_have_text(words[("mc_", "late")].replace("45", "1"))
        claimed(words[("v_", "late")].replace("45", "1"), words[("public", "late")], words[("ritual", "late")], "late")
        h.draw(9, role="speaker")
        expect(card).to_have_attribute("data-reason", "last_not_in_rows")
        claimed(
            words[("v_", "last_not_in_rows")].replace("45", "9"),
            words[("public", "last_not_in_rows")],
            words[("ritual", "last_not_in_rows")],
            "last_not_in_rows",
        )
        for n in (21, 45, 66, 84):  # the middle row, completed by 84: its quine
            h.draw(n, role="speaker")
        expect(card).to_have_attribute("data-verdict", "valid")
        assert h.check_claim(A1, role="controller").verdict == "valid"
        h.award(role="speaker")
        expect(card).to_have_attribute("data-reason", "row_already_paid")  # the second quine, on the same 84
        expect(card.locator(".mc-status").first).to_have_text(words[("mc_", "quine")])
        claimed(
            words[("v_", "quine")],
            words[("public", "row_already_paid")],
            words[("ritual", "quine")],
            "row_already_paid",
        )
    finally:
        ctx.close()
        screen.close()
