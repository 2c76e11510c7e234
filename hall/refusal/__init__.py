"""One refusal for the whole house: a command, a move or a request refused, with a stable code.

Every layer raises it: the loto core, the mini-games (which may import nothing of the loto: this package holds
nothing of it and only the standard library), the web. ``Rejected("rooms/bad_name", max=20)``: before the slash
the area whose catalogue declares the code, after it the code the wire carries (INTERFACE §4:
``{"error": "bad_name", "message": …}``); a code with no slash is the loto's. An area's codes never meet another's,
so the rooms' ``bad_name`` (a first name, 20 characters) is not the sales desk's (a buyer, 80). The status and the
sentence of each code are declared once, at the web's edge (``display/errors.py``).
"""

from __future__ import annotations

from typing import Any

LOTO = "loto"
"""The area of a code written without one: the loto's core and its web."""


class Rejected(Exception):
    """A refusal: ``code`` is stable and public (``"not_your_turn"``), ``area`` the catalogue that declares it,
    ``detail`` says with what (it fills the sentence)."""

    def __init__(self, code: str, /, **detail: Any):
        area, _, public = code.rpartition("/")
        self.area = area or LOTO
        self.code = public
        self.detail = detail
        extra = ", ".join(f"{k}={v!r}" for k, v in detail.items())
        super().__init__(code + (f" ({extra})" if extra else ""))

    @property
    def key(self) -> str:
        """``area/code``: the refusal's entry in the catalogue."""
        return f"{self.area}/{self.code}"
