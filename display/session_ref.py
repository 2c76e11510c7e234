"""Who did it: a short reference of the caller's login session, journalled beside the role (a sale, a partie
started with lots changed, cartons marked by hand), so the report names the console or the desk that did it.

A hash of the session id (``display/sessions.py``), never the id itself: the journal and the report are read by
people who must not be able to use it.
"""
from __future__ import annotations

import hashlib

from flask import session

from display.auth import auth, bearer_token


def session_ref() -> str:
    """The caller's session as 8 hex characters (the same for every request of one login); "" without one."""
    token = bearer_token()
    sid = auth().token_session(token) if token else session.get("sid")
    if not isinstance(sid, str) or not sid:
        return ""
    return hashlib.sha256(sid.encode()).hexdigest()[:8]
