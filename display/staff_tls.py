"""The staff's traffic over HTTPS, the phones' over plain HTTP (docs/install-pi.md, « Les pages de l'équipe »).

The hall's Wi-Fi is WPA2 with a password the projector shows to everyone: whoever joins it can read the other
phones' plain HTTP. So the staff's pages, their PINs, their enrolment codes and their cookies go over HTTPS on
``[server] staff_port`` with the hall's own certificate (``display/tls.py``), while the players' pages stay on
plain HTTP (a self-signed certificate's warning on 300 phones would lose the hall). Chosen over a second,
staff-only Wi-Fi: the Pi's one radio serves one access point well, a hall with its own access points would need
one more each, and the projector would have to hide one password while showing the other.

When the hall serves that port (``app.config["LOTO_STAFF_PORT"]``, set by the wiring once it listens), a browser
that is not the Pi itself asking a staff page over plain HTTP is sent to the same page over HTTPS, and a login or
an enrolment sent in clear is refused (``tls_required``) before a PIN is read. Cookies set over HTTPS are
``Secure``: the browser never sends them back in clear.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from flask import Flask, current_app, redirect, request
from flask.sessions import SecureCookieSessionInterface

from display import current
from display.services import services
from hall.refusal import Rejected

STAFF_PAGES = frozenset({"/speaker", "/controle", "/lots", "/caisse", "/admin", "/tournoi", "/ajout"})
CREDENTIALS = frozenset({"/api/login", "/api/enrol"})


def _loopback(address: str | None) -> bool:
    try:
        return ipaddress.ip_address(address or "").is_loopback
    except ValueError:
        return False


def in_clear() -> bool:
    """Whether this request came in plain HTTP from another machine while the staff's HTTPS port is served."""
    return (
        bool(current_app.config.get("LOTO_STAFF_PORT")) and not request.is_secure and not _loopback(request.remote_addr)
    )


def staff_url(path: str) -> str:
    """``path`` on the staff's HTTPS port of the host the browser asked for when it is one of the hall's own names
    (its certificate's), else of the hall's own address: a foreign ``Host`` is never copied into a redirect."""
    own = urlsplit(current.config().hall_url).hostname or "localhost"
    try:
        asked = (urlsplit("//" + request.host).hostname or "").lower()
    except ValueError:
        asked = ""
    name = asked if asked == own or asked in services().own_hosts else own
    if ":" in name:
        name = f"[{name}]"
    return f"https://{name}:{current_app.config['LOTO_STAFF_PORT']}{path}"


def secure_cookies() -> bool:
    """Whether a cookie set now is ``Secure``: under ``[server] tls``, or over the staff's HTTPS port."""
    return bool(current_app.config.get("SESSION_COOKIE_SECURE")) or request.is_secure


class StaffSessions(SecureCookieSessionInterface):
    """Flask's signed cookie session, ``Secure`` whenever it is set over HTTPS."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config.get("SESSION_COOKIE_SECURE")) or request.is_secure


def install(app: Flask) -> None:
    """The staff's way to their pages over HTTPS (see the module's docstring)."""
    app.session_interface = StaffSessions()

    @app.before_request
    def staff_over_https():
        if not in_clear():
            return None
        if request.method in ("GET", "HEAD") and request.path in STAFF_PAGES:
            query = request.query_string.decode("latin-1")
            return redirect(staff_url(request.path + (f"?{query}" if query else "")), 307)
        if request.path in CREDENTIALS:
            raise Rejected("tls_required", url=staff_url("/admin"))
        return None
