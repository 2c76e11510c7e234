"""The admin's downloads: the evening's report and the carton planches, made by the real PDF makers."""

from __future__ import annotations

import io

import pypdfium2
import pytest

from display import views
from hall.app.paper.report_pdf import write_report_pdf
from hall.app.paper.sheets import write_cards_pdf
from tests.display.conftest import A1, A2, make_room, play_to_tie


@pytest.fixture
def docs_room(tmp_path):
    room = make_room(tmp_path)
    from tests.display.conftest import make_app

    room.app, room.socketio = make_app(
        room.hall, room.config, documents={"report_pdf": write_report_pdf, "cards_pdf": write_cards_pdf}
    )
    room.app.config["TESTING"] = True
    yield room
    room.hall.journal.close()


def pdf_text(data: bytes) -> str:
    pdf = pypdfium2.PdfDocument(io.BytesIO(data))
    return "\n".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))


def test_report_after_a_tie_names_winner_consolation_and_draw_order(docs_room):
    room = docs_room
    play_to_tie(room)
    award = views.award(room.hall.award(role="speaker"))
    client = room.app.test_client()
    headers = room.headers("admin")
    csv_text = client.get("/api/report.csv", headers=headers).get_data(as_text=True)
    assert award["winner"] in csv_text and award["consolation"][0] in csv_text
    res = client.get("/api/report.pdf", headers=headers)
    assert res.status_code == 200 and res.mimetype == "application/pdf"
    text = pdf_text(res.get_data())
    assert award["winner"] in text and "Panier garni" in text


def test_cards_pdf_holds_every_carton_of_the_book(docs_room):
    client = docs_room.app.test_client()
    res = client.get("/api/cards.pdf?series=A", headers=docs_room.headers("admin"))
    assert res.status_code == 200
    text = pdf_text(res.get_data())
    assert A1 in text and A2 in text
    assert client.get("/api/cards.pdf?series=ZZ", headers=docs_room.headers("admin")).status_code == 404
    assert client.get("/api/cards.pdf?per_page=7", headers=docs_room.headers("admin")).status_code == 422


def test_documents_need_the_admin(docs_room):
    client = docs_room.app.test_client()
    assert client.get("/api/report.pdf").status_code == 401
    assert client.get("/api/report.csv", headers=docs_room.headers("speaker")).status_code == 403


def test_without_pdf_makers_the_download_is_absent_not_broken(room):
    client = room.app.test_client()
    res = client.get("/api/report.pdf", headers=room.headers("admin"))
    assert res.status_code == 404 and res.get_json()["error"] == "not_found"
