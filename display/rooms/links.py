"""The address the phones join a room at (the QR code's target): the hall's one address (hall/net/address.py)."""

from __future__ import annotations

from display.services import services


def join_url(code: str) -> str:
    """The phones' address of a room, at the hall's address as every QR code gives it."""
    return str(services().config.hall_link(f"j/{code}"))
