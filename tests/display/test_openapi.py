"""The OpenAPI document is complete: schemathesis calls every operation (a bounded number of examples, as the
speaker's token) and checks that every answer is declared, never a 5xx, and conforms to its schema."""

from __future__ import annotations

import pytest

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis.errors import Unsatisfiable  # noqa: E402
from schemathesis.generation import GenerationMode  # noqa: E402

from display.openapi import spec  # noqa: E402
from tests.display.conftest import make_room  # noqa: E402


def test_every_path_parameter_is_declared():
    for path, ops in spec()["paths"].items():
        for method, op in ops.items():
            declared = {p["name"] for p in op.get("parameters", ()) if p["in"] == "path"}
            wanted = {part[1:-1] for part in path.split("/") if part.startswith("{")}
            assert declared == wanted, (method, path)


@pytest.mark.slow
def test_the_api_answers_only_what_it_declares(tmp_path):
    from schemathesis.checks import not_a_server_error
    from schemathesis.specs.openapi.checks import (
        content_type_conformance,
        response_schema_conformance,
        status_code_conformance,
    )

    room = make_room(tmp_path)
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", room.app)
    tokens = {role: room.token(role) for role in ("admin", "speaker")}
    seen: dict[str, set[int]] = {}

    @settings(max_examples=8, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    def check(case):
        for role in ("admin", None) if case.path != "/api/logout" else (None,):  # logout would end the token
            headers = {"Authorization": f"Bearer {tokens[role]}"} if role else {}
            headers["Host"] = "localhost"  # the hall's own name: any other gets the captive portal (test_portal)
            response = case.call(headers=headers)
            seen.setdefault(f"{case.method} {case.path}", set()).add(response.status_code)
            case.validate_response(
                response,
                checks=[
                    not_a_server_error,
                    status_code_conformance,
                    content_type_conformance,
                    response_schema_conformance,
                ],
            )

    failures = []
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.path in ("/api/cards.pdf", "/api/report.pdf"):
            continue  # a few seconds a PDF: covered by tests/display/test_documents.py
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            try:
                given(operation.as_strategy(mode))(check)()
            except Unsatisfiable:
                pass  # nothing to make invalid (no parameter, no body)
            except Exception as exc:
                failures.append(f"{operation.method.upper()} {operation.path} ({mode.value}): {str(exc)[:600]}")
    generate = schema["/api/cards/generate"]["POST"]
    for body in ({"count": 3, "series": "Q"}, {"count": "²"}, {"count": 0}):  # the findings, every time
        check(generate.Case(body=body))
    room.hall.journal.close()
    assert not failures, "\n\n".join(failures)
    assert len(seen) >= 25
    buvette = {"GET /api/buvette", "POST /api/buvette/products", "POST /api/buvette/sales", "POST /api/buvette/close"}
    assert buvette <= set(seen)
    assert {201, 422} <= seen["POST /api/cards/generate"], seen["POST /api/cards/generate"]
