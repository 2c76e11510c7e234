"""The salle annexe's « Quine ! » kept while the link is lost (RULES L23a): never dropped, sent once it returns.

A claim pressed while the annex cannot reach the main hall (the link judged lost, or the forward unanswered) is
kept — one at a time: a second press while one is kept is the same shout — written to the data folder
(``annex-claims.json``, 0600, so a restart of the annex keeps it too), answered ``202 {"kept": true}`` and said on
the annex's screen. As soon as the link is back it is sent to the main hall's ``POST /api/rooms/{room}/claim``
with its ``Idempotency-Key``: a forward that reached the main but whose answer was lost, sent again, is answered
the first claim (``display/idempotency.py``), never a second one. A refusal of the main (a partie over by then)
ends it, said on the screen with the main's words; the main away or answering 5xx keeps it for the next try.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from urllib.parse import quote

from display.annex_link import Link, MainAway, MainRefused, call
from hall import write_json

log = logging.getLogger("loto-hall.annex")

FILE = "annex-claims.json"
RETRY_S = 0.25  # a kept claim is tried this often while the link is up (and at once when it comes back)


@dataclass(frozen=True)
class Claim:
    """One « Quine ! » of the annex: its key (the retry's ``Idempotency-Key``), the lot kind it claims, and the
    last ball the annex had shown when it was pressed."""

    key: str
    kind: str
    ball: int | None


def new_claim(kind: str, ball: int | None) -> Claim:
    return Claim("annex-" + secrets.token_urlsafe(18), kind, ball)


def forward(link: Link, claim: Claim, kept: bool = False) -> dict:
    """The claim sent to the main hall (its key in ``Idempotency-Key``, the ball shown when it was pressed, whether
    it was kept); ``MainRefused`` / ``MainAway`` as ``call``."""
    url = f"{link.main_url}/api/rooms/{quote(link.room, safe='')}/claim"
    body = {"kind": claim.kind, "shown": claim.ball, "kept": kept}
    return call(url, body, token=link.token, headers={"Idempotency-Key": claim.key})


class KeptClaims:
    """The claim kept while the link is lost (at most one), and its delivery once the link is back.
    ``publish(name, payload)``: the annex's own Socket.IO (``annex_claim``: kept, sent, refused)."""

    def __init__(self, link: Link, folder: str | Path | None, publish: Callable[[str, object], None]):
        self.link, self.publish = link, publish
        self.path = None if folder is None else Path(folder) / FILE
        self._lock = threading.Lock()  # one delivery at a time, and the kept claim changed by one at a time
        self._wake = threading.Event()
        self._stopped = threading.Event()
        self.kept: Claim | None = self._read()
        self.delivered = 0

    def _read(self) -> Claim | None:
        if self.path is None:
            return None
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            claim = Claim(str(data["key"]), str(data["kind"]), data.get("ball"))
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return claim if isinstance(claim.ball, int | None) else None

    def keep(self, claim: Claim) -> Claim:
        """Keep ``claim`` (or answer the one already kept: the same shout) until the link is back."""
        with self._lock:
            if self.kept is None:
                self.kept = claim
                if self.path is not None:
                    write_json(self.path, asdict(claim), mode=0o600)
                log.warning("salle annexe %s : annonce gardée, liaison perdue", self.link.room)
            kept = self.kept
        self.publish("annex_claim", {"state": "kept", "kind": kept.kind})
        return kept

    def _drop(self) -> None:
        self.kept = None
        if self.path is not None:
            self.path.unlink(missing_ok=True)

    def deliver(self) -> bool:
        """Send the kept claim now if there is one and the link is up; True once it was delivered (or ended by the
        main's refusal)."""
        with self._lock:
            claim = self.kept
            if claim is None or self.link.link != "ok":
                return False
            try:
                answer = forward(self.link, claim, kept=True)
            except MainAway:
                return False
            except MainRefused as exc:
                if exc.status >= 500 or exc.status == 429:
                    return False  # the main restarting, or busy: tried again
                self._drop()
                log.warning("salle annexe : annonce gardée refusée par la salle principale (%s)", exc)
                self.publish("annex_claim", {"state": "refused", "message": exc.body.get("message", "")})
                return True
            self._drop()
            self.delivered += 1
        log.info("salle annexe %s : annonce gardée transmise", self.link.room)
        self.publish("annex_claim", {"state": "sent", "kind": claim.kind, "ball": answer.get("ball")})
        return True

    def on_link(self, link: str) -> None:
        if link == "ok":
            self._wake.set()

    def _forever(self) -> None:
        while not self._stopped.is_set():
            self._wake.wait(RETRY_S)
            self._wake.clear()
            try:
                self.deliver()
            except Exception:
                log.exception("salle annexe : annonce gardée non transmise")

    def start(self) -> None:
        self.link.on_link = self.on_link
        threading.Thread(target=self._forever, name="annex-kept-claims", daemon=True).start()

    def stop(self) -> None:
        self._stopped.set()
        self._wake.set()
