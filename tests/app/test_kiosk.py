"""The projector's first page (systemd/kiosk-wait.html) keeps knocking until the hall answers, then opens it.

Real Chromium (the Debian one, through Playwright), a port where nothing listens yet, then a server.
"""

from __future__ import annotations

import http.server
import threading
from pathlib import Path

from .conftest import free_port

WAIT_PAGE = Path(__file__).resolve().parents[2] / "systemd" / "kiosk-wait.html"


class Projector(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write(b"<title>projecteur</title>")

    def log_message(self, *args):
        pass


def test_wait_page_retries_until_the_hall_answers(browser):
    port = free_port()
    target = f"http://127.0.0.1:{port}/"
    page = browser.new_page()
    try:
        page.goto(f"{WAIT_PAGE.as_uri()}#{target}")
        # Nothing listens: the page stays, calm, and knocks again 2 s later.
        page.wait_for_function("Number(document.body.dataset.tries) >= 2", timeout=15000)
        assert page.url.startswith("file://")
        server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Projector)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            page.wait_for_url(target, timeout=10000)
            assert page.title() == "projecteur"
        finally:
            server.shutdown()
            server.server_close()
    finally:
        page.close()
