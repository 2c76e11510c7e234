"""The captive portal: what a phone's Wi-Fi check gets, so that it opens the hall's page by itself.

The operating systems' checks (``hall/net/captive.py``) and every request for a name that is not the hall's own
(the hotspot's DNS sends every name here) get a small page, HTTP 200: never the 204 or « Success » that would
mean "internet", so the phone shows it in its portal window, which links to the hall's pages by address.
The hall's own names and addresses keep the hall's pages unchanged.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, current_app, render_template, request
from flask_babel import get_locale

from display import current
from display.services import services
from hall.config import Config
from hall.net.captive import PROBE_PATHS, is_own_host

bp = Blueprint("portal", __name__)
PLAYER_PAGES = ("/j", "/")  # the players' page when the mini-game rooms exist, else the hall's board


def own_hosts(config: Config, machine_hostname: str = "") -> frozenset[str]:
    """The names the hall answers as itself (lowercase, no port): localhost, the mDNS name, the configured ones."""
    names = {"localhost", config.network.hostname, f"{config.network.hostname}.local"}
    if machine_hostname:
        names |= {machine_hostname, f"{machine_hostname}.local"}
    if config.server.host not in ("", "0.0.0.0", "::"):
        names.add(config.server.host)
    if config.network.url:
        names.add(urlsplit(config.network.url).hostname or "")
    return frozenset(n.lower() for n in names if n)


def portal_page():
    """The portal page (HTTP 200, no caching: each check must reach us again)."""
    config = current.config()
    base = config.hall_url.rstrip("/")
    rules = {r.rule for r in current_app.url_map.iter_rules()}
    players = next(p for p in PLAYER_PAGES if p in rules or p == "/")
    body = render_template(
        "portal.html",
        hall_name=config.hall.name,
        players_url=base + players,
        controle_url=base + "/controle",
        hall_url=base + "/",
        lang=str(get_locale()),
    )
    return current_app.response_class(
        body, status=200, mimetype="text/html", headers={"Cache-Control": "no-store", "Connection": "close"}
    )


def for_the_hall() -> bool:
    """Whether the request (a page, or a socket's handshake) names the hall itself in its ``Host``: a name the
    hotspot's DNS sent here, or a page of another site whose name was rebound to the Pi's address, does not."""
    config = current.config()
    return is_own_host(request.host, services().own_hosts, config.network.portal_address)


@bp.before_app_request
def captive():
    """A request for another host than the hall's, or an OS's connectivity check: the portal page."""
    if request.path in PROBE_PATHS or not for_the_hall():
        return portal_page()
    return None
