"""The tests' shared assertions for a refusal, said once (issue 41 item 6): over HTTP (``refused``), and raised by the
core or the mini-games (``rejected``, ``raises_refusal``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from hall.refusal import Rejected


def refused(resp: Any, status: int, code: str) -> dict:
    """The body of the refusal ``resp`` is, after checking it is one (INTERFACE §4): HTTP ``status``,
    ``{"error": code, "message": …}`` with a sentence for people (never the undeclared code's fallback)."""
    body = resp.get_json()
    assert resp.status_code == status, (resp.status_code, body)
    assert isinstance(body, dict) and body.get("error") == code, (resp.status_code, body)
    message = body.get("message")
    assert isinstance(message, str) and message and "(" not in message[:3], body
    return body


def rejected(fn: Callable[..., object], *args: object, **kwargs: object) -> Rejected:
    """The ``Rejected`` that ``fn(*args, **kwargs)`` raises (the test fails if it raises none)."""
    with pytest.raises(Rejected) as info:
        fn(*args, **kwargs)
    return info.value


def raises_refusal(key: str) -> Any:
    """``with raises_refusal("rooms/room_full"):`` — the block raises ``Rejected`` whose ``area/code`` starts so."""
    return pytest.raises(Rejected, match=f"^{key}")


def type_check(tmp_path, source: str):
    """mypy's verdict on ``source`` written as a module (skipped where mypy is not installed): the run, its output."""
    import importlib.util
    import subprocess
    import sys
    from pathlib import Path

    import pytest

    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (it is part of the test extras: pip install -e '.[test]')")
    snippet = tmp_path / "snippet.py"
    snippet.write_text(source)
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--follow-imports=silent", str(snippet)],
        cwd=Path(__file__).resolve().parents[1],
        capture_output=True,
        text=True,
    )
