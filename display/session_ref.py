"""Who did it: a short reference of the caller's login session, journalled beside the role (a sale, a partie
started with lots changed, cartons marked by hand), so the report names the console or the desk that did it.

A hash of the session id (``display/sessions.ref``), never the id itself: the journal and the report are read by
people who must not be able to use it. /admin lists the live consoles by the same reference.
"""

from __future__ import annotations

from flask import session

from display.auth import auth, bearer_token
from display.sessions import ref


def caller_session() -> str:
    """The caller's session id (its Bearer token's, else its cookie's); "" without one."""
    token = bearer_token()
    sid = auth().token_session(token) if token else session.get("sid")
    return sid if isinstance(sid, str) else ""


def session_ref() -> str:
    """The caller's session as 8 hex characters (the same for every request of one login); "" without one."""
    sid = caller_session()
    return ref(sid) if sid else ""
