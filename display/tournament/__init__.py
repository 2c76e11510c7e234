"""The OSGA tournament day on the web: the desk ``/tournoi``, the captains' ``/tournoi/table/<n>``, the
projector's ``/tournoi/classement``, and their API under ``/api/tournoi`` (docs/osga.md).

The day lives in a :class:`hall.minigames.osga.store.TournamentStore` handed in by the composition root
(``create_app(..., tournament=store)``); the PDF makers too (``documents["tournament_sheets_pdf"]``,
``documents["tournament_standings_pdf"]``). The desk (or admin) signs in with its PIN; a captain holds the
code printed on the table's score sheet, which opens that table for that game only. Words are French first,
English in ``display/translations/en/LC_MESSAGES/messages.po``.

| module | holds |
|---|---|
| ``api`` | ``/api/tournoi…``: the day's picture and every change (the desk's and the captains') |
| ``downloads`` | the sheets and standings PDFs, the standings CSV |
| ``pages`` | ``/tournoi``, ``/tournoi/classement``, ``/tournoi/table/<n>`` |
| ``access`` | the day's store, who may write (desk, captain), the day as each one reads it |
| ``code_guard`` | the captains' codes: guessed by nobody, never held by a stranger's guessing |
| ``messages`` | the refusals and the words |
"""

from __future__ import annotations

from flask import Flask

from display.tournament import api, downloads, pages


def install(app: Flask) -> None:
    """Register the tournament's blueprints (its refusals are answered by the app's one handler)."""
    for module in (api, downloads, pages):
        app.register_blueprint(module.bp)
