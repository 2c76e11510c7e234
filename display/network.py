"""The admin's view of the hall's Wi-Fi: the name's and password's risky characters, the sockets connected now,
and the table tent (PDF, made by ``hall/app/paper/table_tent.py`` and handed in by the composition root)."""

from __future__ import annotations

import io

from flask import Blueprint, Response, jsonify
from flask_babel import gettext

from display import auth as A
from display import current
from display.documents import _download, _maker
from display.qrcode_svg import qr_response
from display.services import services
from hall.net import address
from hall.net.wifi import RISK_TEXT, misread_risks, wifi_qr_payload
from hall.refusal import Rejected

bp = Blueprint("network", __name__, url_prefix="/api")


def wifi_warnings(config) -> list[str]:
    """What keeps phones from the hall: a hall listening on loopback only (its QR codes lead nowhere), then what
    some phones may misread in ``[network] ssid`` and ``password``, in the page's language."""
    net = config.network
    out = []
    if address.phones_cannot_reach(listen=config.server.host, url=net.url):
        out.append(gettext(address.UNREACHABLE_TEXT, host=config.server.host, url=config.hall_url))
    if not net.ssid:
        return out
    return out + [gettext(RISK_TEXT[code]) for code in misread_risks(net.ssid, net.password)]


@bp.get("/network")
def network_state():
    """``{"ssid", "url", "warnings", "connections", "frames", "relays"}`` for ``/admin`` (admin only: it reads the
    password's risks): the sockets connected to the core now, the sockets cut for sending too many frames (and the
    addresses cut most), and with relays each one's phones (``RelayPublisher.spread``)."""
    A.require_right("network")
    config = current.config()
    live = services().sockets
    relay = services().relay
    return jsonify(
        {
            "ssid": config.network.ssid,
            "url": config.hall_url,
            "warnings": wifi_warnings(config),
            "connections": live.connections.count,
            "frames": live.gate.report(),
            "relays": relay.spread() if relay is not None else [],
        }
    )


@bp.get("/table-tent.pdf")
def table_tent_pdf():
    """The Wi-Fi and page QR codes on an A4 sheet to fold and stand on the tables; 404 without ``[network] ssid``."""
    A.require_right("network")
    config = current.config()
    net = config.network
    if not net.ssid:
        raise Rejected("not_found")
    out = io.BytesIO()
    _maker("table_tent_pdf")(
        out,
        hall_name=config.hall.name,
        ssid=net.ssid,
        password=net.password,
        wifi_qr=wifi_qr_payload(net.ssid, net.password),
        url=config.hall_url,
    )
    return _download(out.getvalue(), "application/pdf", "chevalet-wifi.pdf")


def _qr(text: str) -> Response:
    """An SVG QR code with the 4-module quiet zone phone cameras need (the one QR maker of the screens), made once
    per text and served with its ETag (``display/qrcode_svg.py``)."""
    return qr_response(text, border=4)


@bp.get("/wifi/qr.svg")
def wifi_qr() -> Response:
    """The hall's Wi-Fi as the standard ``WIFI:`` QR code phones join by scanning; 404 without ``[network] ssid``.
    Public, as the projector shows it to the whole hall."""
    net = current.config().network
    if not net.ssid:
        raise Rejected("not_found")
    return _qr(wifi_qr_payload(net.ssid, net.password))


@bp.get("/wifi/page-qr.svg")
def page_qr() -> Response:
    """The QR code of the page phones open once on the hall's Wi-Fi (``[network] url``)."""
    config = current.config()
    if not config.network.ssid:
        raise Rejected("not_found")
    return _qr(config.hall_url)
