"""What a driver's passing notice says on the speaker's console (``hall.snapshots.NOTICES``): ONE table, from the
notice (a value: its name, its code, its parameters) to the words, in the console's language.

The drivers publish values, never sentences (``tests/drivers/test_codes_only.py``); ``NOTICE_WORDS`` has one entry
per notice the core names, tested to cover them all, so a new notice cannot reach the console unsaid. Each entry
gives a ``Said``: the sentence for the console's message line (``None`` leaves the line as it is, ``""`` clears it:
a refusal stays until the next action), its tone, and what the console's entry box shows of the Pi's keypad.
``speaker.js`` has one handler for every notice: it shows ``message`` and ``entry`` whatever the notice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from flask_babel import lazy_gettext as _l

from display.errors import Sentence, message_of
from hall.snapshots import NOTICES, Notice

ERROR, INFO = "error", "info"


@dataclass(frozen=True, slots=True)
class Said:
    """A notice in words: ``message`` for the console's line (``None``: leave it; ``""``: clear it), its ``tone``
    (``error``, ``info``), and ``entry``, the Pi keypad's typing shown in the console's entry box (``None``: leave)."""

    message: str | None = None
    tone: str = ERROR
    entry: str | None = None

    def payload(self) -> dict[str, object]:
        out: dict[str, object] = {"tone": self.tone}
        if self.message is not None:
            out["message"] = self.message
        if self.entry is not None:
            out["entry"] = self.entry
        return out


# a ball not drawn, by the refusal's code (typed on a keypad, read by the machine)
BALL_REFUSALS: dict[str, Sentence] = {
    "already_drawn": _l("La boule %(number)s est déjà sortie : non tirée une deuxième fois."),
    "out_of_range": _l("Lecture hors de 1–90 : rien n'est tiré."),
    "locked": _l("Tirage arrêté pour une annonce : la boule %(number)s n'est pas tirée."),
    "held": _l(
        "Lot attribué, tirage arrêté : la boule %(number)s n'est pas tirée. Reprenez le tirage (+) puis tapez-la."
    ),
    "claims_pending": _l("Un quine est en vérification : la boule %(number)s n'est pas tirée."),
    "no_partie": _l("Aucune partie en cours : la boule %(number)s n'est pas tirée."),
    "partie_finished": _l("Partie terminée : la boule %(number)s n'est pas tirée."),
    "no_match": _l("Lecture illisible de la machine à boules : rien n'est tiré."),
    "too_long": _l("Lecture illisible (trop longue) de la machine à boules : rien n'est tiré."),
    "truncated": _l("Lecture coupée (machine débranchée ?) : rien n'est tiré."),
    "not_recorded": _l("La boule %(number)s n'a pas pu être enregistrée : rien n'est tiré, tapez-la à la console."),
}
BALL_REFUSED = _l("Boule %(number)s refusée : %(why)s")  # a code the table above does not word
SCAN_UNREADABLE = _l("Code-barres illisible : scannez à nouveau ou tapez le numéro.")
SCAN_REFUSED = _l("Carton %(card)s non vérifié : %(why)s")
KEYPAD_REFUSED = _l("Pavé — %(why)s")
KEYPAD_UNPLUGGED = _l("Pavé débranché : ce qui était tapé est effacé.")
KEYPAD_UNDO_ARMED = _l("Pavé : annuler le dernier numéro ? Entrée confirme, une autre touche le garde.")
KEYPAD_MENU = _l("Pavé : les actions numérotées (*) se choisissent au clavier de la console.")
KEYPAD_INVALID = {
    "too_many_digits": _l("Pavé : « %(text)s » — deux chiffres au plus : rien n'est tiré."),
    "out_of_range": _l("Pavé : « %(text)s » n'est pas un numéro de 1 à 90 : rien n'est tiré."),
}
KEYPAD_KEY = _l("Pavé : touche « %(kind)s »")  # a kind of key the table below does not know yet


def refusal_sentence(code: str, number: object) -> str:
    """Why a ball was not drawn, in the current language (an unlisted code: the refusal catalogue's sentence)."""
    values = {"number": "" if number is None else number}
    message = BALL_REFUSALS.get(code)
    if message is None:
        return str(BALL_REFUSED) % {**values, "why": message_of(code, values)}
    return str(message) % values


def _ball_refused(n: Notice) -> Said:
    return Said(refusal_sentence(n.code, n.params.get("number")), entry="")


def _keypad_input(n: Notice) -> Said:
    """A key of the Pi's keypad: its typing in the entry box; an action takes the line (the last refusal was
    acted on); a wrong number or an undo waiting for Enter said in words."""
    kind, text = n.code, str(n.params.get("text", ""))
    if kind == "typing":
        return Said(None, INFO, entry=text)
    if kind == "invalid":
        words = KEYPAD_INVALID.get(str(n.params.get("reason", "")), KEYPAD_INVALID["out_of_range"])
        return Said(str(words) % {"text": text}, ERROR, entry="")
    if kind == "undo_armed":
        return Said(str(KEYPAD_UNDO_ARMED), INFO, entry="")
    if kind == "menu":
        return Said(str(KEYPAD_MENU), INFO, entry="")
    if kind == "cancel" and n.params.get("reason") == "unplugged":
        return Said(str(KEYPAD_UNPLUGGED), INFO, entry="")
    if kind in ("draw", "confirm", "undo", "claim", "reject", "cancel"):
        return Said("", INFO, entry="")  # done: what it did shows by itself (a ball, the stop, a refusal)
    return Said(str(KEYPAD_KEY) % {"kind": kind}, INFO, entry="")


def _keypad_refused(n: Notice) -> Said:
    return Said(str(KEYPAD_REFUSED) % {"why": message_of(n.code, dict(n.params))})


def _scan_refused(n: Notice) -> Said:
    card = str(n.params.get("raw", ""))
    return Said(str(SCAN_REFUSED) % {"card": card, "why": message_of(n.code, {"card": card})})


NOTICE_WORDS: Mapping[str, Callable[[Notice], Said]] = {
    "draw:refused": _ball_refused,
    "keypad:input": _keypad_input,
    "keypad:refused": _keypad_refused,
    "scanner:unreadable": lambda n: Said(str(SCAN_UNREADABLE)),
    "scanner:refused": _scan_refused,
}
assert set(NOTICE_WORDS) == set(NOTICES), "every notice of hall.snapshots.NOTICES has its words here"


def notice_words(name: str, said: object) -> dict[str, object]:
    """The words of a driver's notice for the console's socket payload (``message``, ``tone``, ``entry``), in the
    current language; ``{}`` for what is not a driver's notice."""
    if not isinstance(said, Notice):
        return {}
    return NOTICE_WORDS[said.name](said).payload()
