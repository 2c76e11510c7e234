"""``/setup``: the first start on a phone (INTERFACE §12), and the projector's QR code that opens it.

The wizard's state and its writes are the program's (``hall/app/setup_wizard.py``), the devices it tries too
(``hall/app/setup_devices.py``): both are handed in by the composition root (``create_app(setup=…)``). A phone is
let in only through the code of the projector's QR (a ticket in its session cookie after that); ``/setup`` is
403 without it, and 410 once setup has closed (or on a hall that was never in setup mode).
"""

from __future__ import annotations

from typing import Any, TypeAlias

from flask import Blueprint, jsonify, redirect, render_template, request, session
from flask_babel import get_locale
from flask_babel import lazy_gettext as _l

from display import auth as A
from display.current import hall
from display.errors import declare, error_body, status_of
from display.limits import field, json_body
from display.qrcode_svg import qr_svg
from display.services import services
from display.speech import spoken
from hall import ball_phrase
from hall.net.address import link
from hall.refusal import Rejected
from hall.rights import ROLES

# The program's objects (the web may not import them, even for their types): hall/app/setup_wizard.py's
# SetupWizard, hall/app/setup_devices.py's SetupDevices and BallSearch.
SetupWizard: TypeAlias = Any
SetupDevices: TypeAlias = Any
BallSearch: TypeAlias = Any
bp = Blueprint("setup", __name__)
MAX_TEXT = 80
VOICES = ("fr-FR", "fr-BE", "fr-CH")
DEVICE_STEPS = ("imprimante", "boules", "voix")  # hall/app/setup_wizard.py's: re-run from /admin
SCREEN_BALL = 88  # « voyez-vous la boule 88 en entier ? »: two wide digits, the first cut by a cropped screen

declare(
    "loto",
    {
        "setup_no_code": (403, _l("Scannez le code QR du projecteur : la mise en route s'ouvre depuis la salle.")),
        "setup_bad_code": (403, _l("Ce code n'est plus celui du projecteur : scannez à nouveau son code QR.")),
        "setup_closed": (410, _l("La salle est déjà installée : tout se règle maintenant sur /admin.")),
        "setup_bad_answer": (422, _l("Réponse refusée : %(why)s")),
        "setup_bad_text": (422, _l("« %(field)s » : un texte de 1 à %(max)s caractères.")),
        "setup_printer": (
            422,
            _l("L'imprimante n'a pas imprimé (%(reason)s) : vérifiez le câble, le papier, l'adresse."),
        ),
        "setup_needs_printer": (409, _l("Installez d'abord l'imprimante : la fiche des codes s'y imprime.")),
        "setup_codes_made": (
            409,
            _l("Les codes sont déjà faits : la fiche est imprimée (les codes se changent sur /admin)."),
        ),
        "setup_screen": (
            422,
            _l("Réglez le projecteur (zoom, position) jusqu'à voir la boule 88 en entier, puis répondez à nouveau."),
        ),
        "setup_unfinished": (409, _l("Il reste des étapes : %(steps)s.")),
        "setup_listening": (409, _l("La salle écoute déjà la machine à boules : lâchez les trois boules.")),
        "setup_not_own": (
            409,
            _l(
                "Cette salle lit un fichier de configuration écrit à la main : changez l'appareil dans ce fichier "
                "(docs/install-manual.md), puis redémarrez la salle."
            ),
        ),
    },
)


def _parts() -> tuple[SetupWizard, SetupDevices]:
    found = services().setup
    if found is None:
        raise Rejected("setup_closed")  # a hall started with its configuration was never in setup mode
    return found


def setup_open() -> bool:
    found = services().setup
    return found is not None and not found[0].closed


def _text(data: dict, name: str) -> str:
    value = field(data, name, str).strip()
    if not 0 < len(value) <= MAX_TEXT:
        raise Rejected("setup_bad_text", field=name, max=MAX_TEXT)
    return value


def _yes(data: dict, name: str) -> bool:
    return field(data, name, bool)


@bp.get("/setup")
def page():
    try:
        wizard, _ = _parts()
        code = request.args.get("code")
        if code is not None:
            session["setup"] = wizard.let_in(code)
            return redirect("/setup")  # the code leaves the address bar (and the phone's history)
        wizard.admitted(session.get("setup"))
    except Rejected as exc:  # a person's page: the sentence in a page (the API answers JSON)
        body = error_body(exc.key, exc.detail)
        boot = {"strings": {}, "page": "error"}
        return render_template("error.html", body=body, hall_name="loto-hall", boot=boot), status_of(exc.key)
    return render_template(
        "setup.html",
        boot={"page": "setup", "lang": str(get_locale()), "strings": {}},  # its words are in the page itself
        hall_name=wizard.raw.get("hall", {}).get("name", "loto-hall"),
        screen_ball=SCREEN_BALL,
        voices=VOICES,
    )


def projector_qr(config) -> str:
    """The projector's one QR code in setup mode: the hall's address (on « Loto-Setup » while the hall brought it
    up: no wired network), ``/setup`` and the code."""
    wizard, _ = _parts()
    base = wizard.base_url(config.server.port, config.server.tls) or config.hall_url
    return qr_svg(link(base, f"/setup?code={wizard.code}"))


def setup_wifi() -> str | None:
    """The setup Wi-Fi's name while the hall has it up (the projector says which network to join), else ``None``."""
    found = services().setup
    hotspot = found[0].hotspot if found is not None and not found[0].closed else None
    return hotspot.ssid if hotspot is not None and hotspot.address else None


def _admitted() -> SetupWizard:
    wizard, _ = _parts()
    wizard.admitted(session.get("setup"))
    return wizard


@bp.get("/api/setup")
def state():
    wizard = _admitted()
    search: BallSearch | None = services().setup_search
    return jsonify({**wizard.view(), "balls": search.view() if search else None, "screen_ball": SCREEN_BALL})


def _hall_name(wizard: SetupWizard) -> str:
    return str(wizard.raw.get("hall", {}).get("name", "loto-hall"))


def _answered(step: str, sections: dict[str, dict[str, Any]], noted: dict[str, str] | None = None) -> None:
    """``step``'s answer written (checked first), then kept in the record (``setup:answered``, no secret)."""
    wizard, _ = _parts()
    wizard.answer(step, sections)
    hall().record_setup_answer(step, wizard.record_lines(sections, noted), role="admin")


def _printer(wizard: SetupWizard, devices: SetupDevices, data: dict) -> dict[str, dict[str, Any]]:
    """The printer's answer once its test ticket printed (a printer away changes nothing)."""
    url = _text(data, "url")
    wizard.checked({"printer": {"url": url}})
    devices.print_test(url, _hall_name(wizard))
    return {"printer": {"url": url}}


def _voice(data: dict) -> str:
    voice = field(data, "voice", str)
    if voice not in VOICES:
        raise Rejected("bad_field", field="voice")
    return voice


def _step(step: str, data: dict) -> dict[str, Any]:
    """Each step's answer: the sections it writes (checked by the wizard before any write), and what to show."""
    wizard, devices = _parts()
    if step == "salle":
        name = f"{_text(data, 'association')} · {_text(data, 'salle')}"
        _answered(step, {"hall": {"name": name}})
    elif step == "soiree":
        language = field(data, "language", str)
        _answered(step, {"hall": {"evening": _text(data, "evening"), "language": language}})
    elif step == "imprimante":
        _answered(step, _printer(wizard, devices, data))
    elif step == "codes":
        return _codes(wizard, devices)
    elif step == "wifi":
        network = {"ssid": _text(data, "ssid"), "password": field(data, "password", str)}
        _answered(step, {"network": network})
    elif step == "boules":
        return _balls(wizard, devices, field(data, "action", str))
    elif step == "voix":
        voice = _voice(data)
        if data.get("action") == "test":  # the projector says the screen ball: the sound heard where it matters
            return {"voice_test": wizard.ask_voice_test(voice)}
        _answered(step, {"speech": {"enabled": _yes(data, "heard"), "voice": voice}})
    elif step == "ecran":
        if not _yes(data, "seen"):
            raise Rejected("setup_screen")
        _answered(step, {}, {"screen.ball_seen": str(SCREEN_BALL)})
    else:
        raise Rejected("bad_field", field="step")
    return {}


def _codes(wizard: SetupWizard, devices: SetupDevices) -> dict:
    """The committee's PINs, made by the hall, printed (« la fiche des codes »), journalled, shown once."""
    url = wizard.raw.get("printer", {}).get("url")
    if "imprimante" not in wizard.done or not url:
        raise Rejected("setup_needs_printer")
    if "codes" in wizard.done:
        raise Rejected("setup_codes_made")
    pins = wizard.new_pins(ROLES)
    devices.print_pins(url, _hall_name(wizard), pins)  # the sheet first: a printer out of paper changes nothing
    h = hall()
    for role, pin in pins.items():
        record = h.change_pin(role, pin, role="admin")  # the journal keeps each as a salted hash
        A.auth().book.remember(role, pin, record.event)
        A.auth().sessions.end_role(role)
    _answered("codes", {"auth": {f"{role}_pin": pin for role, pin in pins.items()}})
    return {"pins": pins}


def _balls(wizard: SetupWizard, devices: SetupDevices, action: str, again: bool = False) -> dict:
    h = hall()  # the search ends in a thread of its own, outside this request
    if action == "none":  # drawn by hand: no machine in this hall
        if again:
            raise Rejected("bad_field", field="action")  # a machine set up stays until another one is found
        _answered("boules", {}, {"ball_machine": "none"})
        return {}
    if action != "listen":
        raise Rejected("bad_field", field="action")
    running: BallSearch | None = services().setup_search
    if running is not None and running.state == "listening":
        raise Rejected("setup_listening")

    def done(job: BallSearch) -> None:
        if job.found is not None:
            sections = {"ball_machine": dict(job.found)}
            try:
                (wizard.rerun if again else wizard.answer)("boules", sections)
                h.record_setup_answer("boules", wizard.record_lines(sections), again=again, role="admin")
            except Rejected:
                job.state = "not_found"

    services().setup_search = search = devices.find_ball_machine(done)
    return {"balls": search.view()}


@bp.get("/api/setup/projector")
def projector_asks():
    """What the projector is asked to do during the first start (no role: the projector has none): play a voice
    test. Nothing of the code or the answers."""
    wizard, _ = _parts()
    if wizard.closed:
        raise Rejected("setup_closed")
    return jsonify({"voice_test": wizard.voice_test})


@bp.get("/api/setup/voice/<voice>.wav")
def voice_test(voice: str):
    """The screen ball said in ``voice``, by the hall's own voice (espeak-ng on the Pi), for the voice test."""
    wizard, _ = _parts()
    if wizard.closed:
        raise Rejected("setup_closed")
    if voice not in VOICES:
        raise Rejected("not_found")
    return spoken(ball_phrase(SCREEN_BALL, voice), voice)


@bp.post("/api/setup/<step>")
def answer(step: str):
    _admitted()
    if step == "finish":
        _parts()[0].finish()
        session.pop("setup", None)
        return jsonify({"closed": True, "next": "/admin"})
    shown = _step(step, json_body())
    return jsonify({**_parts()[0].view(), **shown})


# ---- a device changed after setup closed: its step again, from /admin ----------------------------------------
def _own_parts() -> tuple[SetupWizard, SetupDevices]:
    """The wizard of a hall that runs from the configuration it wrote itself (a file written by hand is changed
    by hand: ``setup_not_own``)."""
    found = services().setup
    if found is None:
        raise Rejected("setup_not_own")
    return found


@bp.get("/api/devices/setup")
def devices_state():
    """The device steps /admin may run again, what each wrote, and the last search for the ball machine. A hall
    whose configuration was written by hand answers ``{"own": false, "message"}`` (a state to show, not an error:
    its devices are changed in the file); its steps, posted, are ``409 setup_not_own``."""
    A.require_right("setup")
    if services().setup is None:
        return jsonify(own=False, message=error_body("setup_not_own")["message"])
    wizard, _ = _own_parts()
    answers = wizard.view()["answers"]
    search: BallSearch | None = services().setup_search
    return jsonify(
        own=True,
        steps=list(DEVICE_STEPS),
        closed=wizard.closed,
        printer=answers.get("printer", {}),
        ball_machine=answers.get("ball_machine", {}),
        speech=answers.get("speech", {}),
        balls=search.view() if search else None,
        voices=list(VOICES),
        restart=True,  # what a step writes is read at the hall's next start
    )


@bp.post("/api/devices/setup/<step>")
def devices_rerun(step: str):
    """A device's step again: the printer (a test ticket first), the ball machine (listened for again), the
    projector's voice; each answer written into the hall's configuration and kept in the record."""
    role = A.require_right("setup")
    if step not in DEVICE_STEPS:
        raise Rejected("bad_field", field="step")
    wizard, devices = _own_parts()
    data = json_body()
    if step == "boules":
        return jsonify(_balls(wizard, devices, field(data, "action", str), again=True))
    if step == "imprimante":
        sections = _printer(wizard, devices, data)
    else:
        sections = {"speech": {"enabled": _yes(data, "heard"), "voice": _voice(data)}}
    wizard.rerun(step, sections)
    record = hall().record_setup_answer(step, wizard.record_lines(sections), again=True, role=role)
    return jsonify(seq=record.seq, step=step, answers=[list(a) for a in record.event.answers], restart=True)
