"""The hall's voice on the web (INTERFACE §11): each ball's clip, the ritual's clips, the calling's settings, the
projector's report, the console's « répéter » and « tester la voix », the recordings made on /admin.

``GET /speech/{n}.wav`` (1–90, no role): the ball as the hall says it (404 when speech is off or n is not a
ball). ``GET /speech/phrase/{key}.wav``: a sentence of the claim ritual, or ``le_{n}`` (« le huit »).
``GET /api/speech``: what the projector needs to call the balls. Recordings: a PCM WAV the page made from the
microphone (MediaRecorder, decoded and written as WAV in the browser: the Pi needs no converter and the hall serves
one format, the one the URL names), checked here with ``wave`` (length, not silence) and kept whole.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from flask import Blueprint, jsonify, request, send_file
from flask_babel import force_locale

from display import auth as A
from display.current import hall
from display.limits import field, json_body, read_body
from display.services import services, services_of
from display.speech_queue import Busy
from display.speech_render import MAX_RECORDING_BYTES, Voice, recording_problem
from display.voice_words import RITUAL
from hall import ball_phrase, number_words, pace_for
from hall.events import CallingSet
from hall.refusal import Rejected

bp = Blueprint("speech", __name__)
BALL = re.compile(r"[0-9]{1,2}")
PHRASE = re.compile(r"[a-z_]{1,24}|le_[0-9]{1,2}")
REPORTS = {
    "speaks": ("ok", "voice_speaks"),
    "blocked": ("degraded", "voice_blocked"),
    "failed": ("degraded", "voice_failed"),
    "off": ("ok", "voice_off"),
}
WAV_TYPES = ("audio/wav", "audio/x-wav", "audio/wave")


def voice() -> Voice:
    return services().voice


def _ball(text: str) -> int:
    if not BALL.fullmatch(text) or not 1 <= int(text) <= 90:
        raise Rejected("not_found")
    return int(text)


def _speech_on() -> None:
    if not hall().config.speech.enabled:
        raise Rejected("speech_off")


def _served(path: Path):
    resp = send_file(path, mimetype="audio/wav", conditional=True, etag=path.stem, max_age=0)
    resp.headers["Cache-Control"] = "no-cache"  # the ETag says whether the clip changed (a nickname edited)
    return resp


def spoken(text: str, spoken_voice: str):
    """``text`` said in ``spoken_voice`` at the hall's rate, as a WAV response (made once, kept)."""
    speech = hall().config.speech
    try:
        return _served(voice().clip(text, spoken_voice, speech.rate))
    except Busy:
        raise Rejected("speech_busy", retry_after=1) from None  # being made: the screen asks again
    except OSError:
        raise Rejected("speech_unavailable") from None


def ball_text(n: int, calling: CallingSet) -> str:
    """What the hall says for ball ``n`` now: its words, the digits (``repeat``), its nickname when they are on."""
    speech = hall().config.speech
    nickname = dict(calling.nicknames).get(n, "") if calling.nicknames_on else ""
    return ball_phrase(
        n, speech.voice if speech.voice != "recorded" else "fr-FR", repeat=speech.repeat, nickname=nickname
    )


def phrase_text(key: str) -> str | None:
    """The French sentence of the ritual's ``key`` (``le_8``: « le huit »), or ``None``."""
    if key.startswith("le_"):
        n = int(key[3:])
        speech = hall().config.speech
        return "le " + number_words(n, speech.voice) if 1 <= n <= 90 else None
    if key not in RITUAL:
        return None
    with force_locale("fr"):
        return str(RITUAL[key])


@bp.get("/speech/<text>.wav")
def ball_clip(text: str):
    n = _ball(text)
    _speech_on()
    speech = hall().config.speech
    if speech.voice == "recorded":
        path = voice().recording(n)
        if path is None:
            raise Rejected("not_recorded", n=n)
        return _served(path)
    return spoken(ball_text(n, hall().calling()), speech.voice)


@bp.get("/speech/phrase/<key>.wav")
def phrase_clip(key: str):
    text = phrase_text(key) if PHRASE.fullmatch(key) else None
    if text is None:
        raise Rejected("not_found")
    _speech_on()
    speech = hall().config.speech
    return spoken(text, "fr-FR" if speech.voice == "recorded" else speech.voice)


@bp.get("/speech/tombola/<text>.wav")
def tombola_clip(text: str):
    """« le billet numéro N », for a winning ticket of the tombola only (the projector calls each winner)."""
    if not re.fullmatch(r"[0-9]{1,6}", text) or int(text) not in {w.ticket for w in hall().tombola().wins}:
        raise Rejected("not_found")
    _speech_on()
    speech = hall().config.speech
    return spoken(f"le billet numéro {int(text)}", "fr-FR" if speech.voice == "recorded" else speech.voice)


def calling_view(calling: CallingSet) -> dict:
    """The calling as every screen reads it (``GET /api/speech`` and the ``calling`` event)."""
    config = hall().config
    speech, p = config.speech, hall().snapshot().running
    table = {str(n): text for n, text in calling.nicknames}
    said = [
        speech.enabled,
        speech.voice,
        speech.rate,
        speech.repeat,
        calling.nicknames_on,
        sorted(table.items()) if calling.nicknames_on else [],
        sorted(voice().recorded_numbers()) if speech.voice == "recorded" else [],
    ]
    return {
        "enabled": speech.enabled,
        "voice": speech.voice,
        "repeat": speech.repeat,
        "rate": speech.rate,
        "nicknames_on": calling.nicknames_on,
        "nicknames": table,
        "flash": calling.flash,
        "flash_s": config.display.flash_s,
        "hearing_loop": config.hall.hearing_loop,
        "others_s": config.draw.others_s,
        "pace_s": config.draw.pace_s,
        "paces": {str(partie): s for partie, s in calling.pace},
        "pace_now": pace_for(calling, p.number, config.draw.pace_s) if p is not None else config.draw.pace_s,
        "count_shown": hall().count_on_screen(),
        "clips": hashlib.sha256(repr(said).encode()).hexdigest()[:12],
    }  # changes when any clip would


@bp.get("/api/speech")
def speech_settings():
    return jsonify(calling_view(hall().calling()))


@bp.post("/api/speech/report")
def projector_report():
    """The projector says whether it speaks (a clip played, the browser refused the sound, a clip failed): the
    console shows it with the devices. No role (the projector has none); one report a second per address."""
    data = json_body()
    state, what = data.get("state"), field(data, "what", str, required=False, default="")
    if not isinstance(state, str) or state not in REPORTS:  # types first: {"state": {}} is no key of the table
        raise Rejected("bad_field", field="state")
    if not isinstance(what, str) or len(what) > 24:
        raise Rejected("bad_field", field="what")
    if services().voice_reports.take(request.remote_addr or ""):
        raise Rejected("too_many_reports")
    status, code = REPORTS[state]
    hall().set_device_status("voice", status, code=code, params={"what": re.sub(r"[^0-9a-z_]", "", what)})
    return jsonify({"state": state}), 202


@bp.post("/api/speech/again")
def say_again():
    """The last ball said and shown again on the projector (the console's key)."""
    record = hall().repeat_ball(role=A.require_right("repeat_ball"))
    return jsonify({"number": record.event.number, "seq": record.seq})


@bp.post("/api/speech/test")
def test_voice():
    record = hall().test_voice(role=A.require_right("test_voice"))
    return jsonify({"seq": record.seq})


@bp.post("/api/speech/count")
def show_count():
    """The ball count (/stats) on the projector during a break, or off it (``{"shown": false}``)."""
    role = A.require_right("show_count")
    shown = field(json_body(), "shown", bool, required=False, default=True)
    record = hall().show_count(shown, role=role)
    return jsonify({"shown": record.event.shown, "seq": record.seq})


@bp.post("/api/admin/calling")
def set_calling():
    """Flash mode, nicknames (on, and the table ``{"n": text}``), pace per partie ``{"partie": seconds}``."""
    role = A.require_right("edit_calling")
    data = json_body()
    table, pace = data.get("nicknames"), data.get("pace")
    if table is not None and (not isinstance(table, dict) or len(table) > 90):
        raise Rejected("bad_field", field="nicknames")
    if pace is not None and (not isinstance(pace, dict) or len(pace) > 100):
        raise Rejected("bad_field", field="pace")
    try:
        pairs = None if table is None else [(int(k), v) for k, v in table.items()]
        paces: dict[object, object] | None = None if pace is None else {int(k): v for k, v in pace.items()}
    except ValueError:
        raise Rejected("bad_field", field="nicknames" if pace is None else "pace") from None
    record = hall().set_calling(
        role=role, flash=data.get("flash"), nicknames_on=data.get("nicknames_on"), nicknames=pairs, pace=paces
    )
    if hall().config.speech.enabled and voice().available:
        voice().ahead(clip_texts())  # the balls said with the new nicknames, made before the next ball asks
    return jsonify({**calling_view(record.event), "seq": record.seq})


@bp.get("/api/admin/speech/recordings")
def recordings():
    A.require_right("speech_recordings")
    return jsonify({"recorded": voice().recorded_numbers(), "voice": hall().config.speech.voice})


@bp.put("/api/admin/speech/recordings/<text>")
def record(text: str):
    """The hall's recording of ball ``n``: a PCM 16-bit WAV of 0.2 to 6 s, not silence, 1 MiB at most."""
    A.require_right("speech_recordings")
    n = _ball(text)
    if request.mimetype not in WAV_TYPES:
        raise Rejected("recording_format")
    problem = recording_problem(read_body(MAX_RECORDING_BYTES))
    if problem == "size":
        raise Rejected("too_large", limit=MAX_RECORDING_BYTES)
    if problem == "length":
        raise Rejected("recording_length")
    if problem == "silence":
        raise Rejected("recording_silence")
    if problem is not None:
        raise Rejected("recording_format")
    voice().keep_recording(n, read_body(MAX_RECORDING_BYTES))
    return jsonify({"n": n, "recorded": voice().recorded_numbers()}), 201


@bp.get("/api/admin/speech/recordings/<text>.wav")
def recording(text: str):
    """A recording as kept (to listen on /admin), whatever voice the hall uses now."""
    A.require_right("speech_recordings")
    path = voice().recording(_ball(text))
    if path is None:
        raise Rejected("not_recorded", n=int(text))
    return _served(path)


def clip_texts() -> list[tuple[str, str, float]]:
    """Every clip the hall says with its settings now: the 90 balls (unless recorded) and the ritual's sentences."""
    speech = hall().config.speech
    calling = hall().calling()
    spoken = "fr-FR" if speech.voice == "recorded" else speech.voice
    texts = [] if speech.voice == "recorded" else [(ball_text(n, calling), spoken, speech.rate) for n in range(1, 91)]
    return texts + [(text, spoken, speech.rate) for key in RITUAL if (text := phrase_text(key))]


def prerender(app) -> None:
    """Make every clip now, so the first ball of the evening is not the slow one (a background task of the app's
    start; a clip already cached costs a file check; a ball asked meanwhile is made first)."""
    with app.app_context():
        if not hall().config.speech.enabled or not voice().available:
            return
        texts = clip_texts()
    made = services_of(app).voice.prerender(texts)
    if made:
        app.logger.info("voix : %s sons préparés", made)
