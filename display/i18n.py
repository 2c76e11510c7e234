"""French first, English available: the locale of a request, and a device's state said as a sentence in it (the
words the page scripts need are display/page_words.py's)."""

from __future__ import annotations

from urllib.parse import urlencode

from flask import current_app, request
from flask_babel import get_locale
from flask_babel import lazy_gettext as _l

from display.notices import notice_words as notice_sentence  # noqa: F401  (a notice's words: display/notices.py)
from display.voice_words import VOICE_DEVICE_MESSAGES, VOICE_DEVICE_NAME

LANGUAGES = ("fr", "en")
LANG_COOKIE = "lang"


def select_locale() -> str:
    """``?lang=`` (kept in a cookie), then that cookie, then Accept-Language, then the hall's language."""
    asked = request.args.get("lang", "")[:5].lower()
    if asked in LANGUAGES:
        return asked
    cookie = request.cookies.get(LANG_COOKIE, "")
    if cookie in LANGUAGES:
        return cookie
    default = current_app.config.get("LOTO_LANGUAGE", "fr")
    return request.accept_languages.best_match(LANGUAGES, default=default) or default


LANGUAGE_NAMES = {"fr": "Français", "en": "English"}  # each in its own language: whoever looks for it reads it


def language_switch() -> dict[str, str]:
    """The same page in the other language (its query kept): the link every page with a person in front shows."""
    current = str(get_locale() or "fr")[:2]
    other = "en" if current == "fr" else "fr"
    args = {k: v for k, v in request.args.items() if k != "lang"}
    args["lang"] = other
    return {"href": request.path + "?" + urlencode(args), "lang": other, "label": LANGUAGE_NAMES[other]}


def remember_locale(response):
    """Keep a ``?lang=`` choice for the next pages (a projector reloads without its query string)."""
    asked = request.args.get("lang", "")[:5].lower()
    if asked in LANGUAGES and request.cookies.get(LANG_COOKIE) != asked:
        response.set_cookie(LANG_COOKIE, asked, max_age=365 * 24 * 3600, samesite="Lax")
    return response


# ---- device states: drivers publish a code and its parameters; the sentence is made here, per reader
DEVICE_MESSAGES: dict[str, object] = {
    "ball_machine_ok": _l("Machine à boules branchée."),
    "ball_machine_missing": _l("Machine à boules absente (%(path)s introuvable) : tapez les numéros à la console."),
    "ball_machine_open": _l("Machine à boules : ouverture impossible de %(path)s (%(error)s)."),
    "ball_machine_lost": _l(
        "Machine à boules débranchée (%(path)s) : reconnexion dès son retour ; tapez les numéros à la console."
    ),
    "keypad_ok": _l("Clavier numérique branché."),
    "keypad_missing": _l("Clavier numérique absent (%(path)s introuvable) : tapez les numéros à la console."),
    "keypad_open": _l("Clavier numérique : ouverture impossible de %(path)s (%(error)s)."),
    "keypad_lost": _l("Clavier numérique débranché (%(path)s) : reconnexion dès son retour."),
    "scanner_ok": _l("Lecteur de codes-barres branché."),
    "scanner_missing": _l("Lecteur de codes-barres absent (%(path)s introuvable) : tapez les numéros de carton."),
    "scanner_open": _l("Lecteur de codes-barres : ouverture impossible de %(path)s (%(error)s)."),
    "scanner_lost": _l("Lecteur de codes-barres débranché (%(path)s) : reconnexion dès son retour."),
    "evdev_missing": _l("%(device)s : module evdev absent (pip install 'loto-hall[pi]')."),
    "printer_ready": _l("Imprimante prête."),
    "printer_test_printed": _l("Imprimante prête : ticket de test imprimé."),
    "printer_paper_low": _l("Papier presque épuisé : préparez un rouleau neuf."),
    "printer_unconfigured": _l("Aucune imprimante configurée : les bons restent au journal."),
    "printer_unreachable": _l("Imprimante injoignable (%(where)s)"),
    "printer_no_answer": _l("L'imprimante ne répond pas (%(where)s)"),
    "printer_cover_open": _l("Capot de l'imprimante ouvert"),
    "printer_no_paper": _l("Plus de papier dans l'imprimante"),
    "printer_offline": _l("L'imprimante est hors ligne"),
    "printer_interrupted": _l("Impression interrompue (%(where)s)"),
    "printer_unconfirmed": _l("L'imprimante n'a pas confirmé le bon (%(where)s) : il sera réimprimé"),
    "printer_error": _l("Erreur d'impression (%(error)s)"),
    "printer_waiting": _l("%(reason)s — %(count)s bon(s) en attente."),
    "printer_test_failed": _l("Test d'impression impossible : %(reason)s"),
    # the relays carrying the phones' sockets (INTERFACE §10, display/relay_publisher.py)
    "relays_ok": _l("Relais des téléphones : %(n)s à l'écoute."),
    "relays_missing": _l(
        "Relais des téléphones : %(n)s sur %(total)s répondent ; les téléphones des autres se reconnectent."
    ),
    "relays_deaf": _l(
        "Relais des téléphones %(relay)s sourd (n'entendait plus la file) : remplacé, ses téléphones "
        "se reconnectent et reçoivent tout."
    ),
    "relays_queue_away": _l(
        "File des téléphones (Redis) injoignable : les tirages continuent ici et sur le "
        "projecteur ; les téléphones les recevront à son retour."
    ),
}
DEVICE_NAMES = {
    "ball_machine": _l("Machine à boules"),
    "printer": _l("Imprimante"),
    "keypad": _l("Clavier numérique"),
    "scanner": _l("Lecteur de codes-barres"),
    "relays": _l("Relais des téléphones"),
}


DEVICE_STATES = {
    "ok": _l("en marche"),
    "degraded": _l("en difficulté"),
    "absent": _l("débranché"),
    "unconfigured": _l("non configuré"),
}
DEVICE_IN_STATE = _l("%(device)s : %(state)s")  # a code the catalogue does not word yet


def device_sentence(status) -> str:
    """A device's state as a sentence in the current language, from its code and parameters only.

    A ``reason`` parameter is itself a code (the printer's problem behind ``printer_waiting``). A code the
    catalogue does not know is said by the device's name and state (« Imprimante : en difficulté »): the speaker
    never reads a driver's own words, nor the path of a device (the demo's is a temporary file)."""
    params = {k: str(v) for k, v in dict(status.params).items()}
    params.setdefault("device", str(DEVICE_NAMES.get(status.device, status.device)))
    message = DEVICE_MESSAGES.get(status.code)
    try:
        if message is None:
            raise KeyError(status.code)
        if params.get("reason") in DEVICE_MESSAGES:
            params["reason"] = str(DEVICE_MESSAGES[params["reason"]]) % params
        return str(message) % params
    except (KeyError, ValueError, TypeError):
        return str(DEVICE_IN_STATE) % {
            "device": params["device"],
            "state": DEVICE_STATES.get(status.state, status.state),
        }


# the hall's voice (display/voice_words.py)
DEVICE_MESSAGES.update(VOICE_DEVICE_MESSAGES)
DEVICE_NAMES["voice"] = VOICE_DEVICE_NAME
