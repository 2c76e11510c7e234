"""Sales figures: 1 000 sales at the door in a row through the HTTP API of a real ``serve`` process (a scan
each: one carton per sale, a partie running), p99 per sale; the evening's report with 10 000 sold cartons.

Run: python bench/bench_sales.py            (prints the figures recorded in docs/benchmarks.md)
     python bench/bench_sales.py --sales 200 --report-cards 2000     (a quicker look)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import io
import json
import os
import random
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request

from bench.stats import summary
from hall.cartons.cardbook import CardBook
from hall.cartons.planches import generate_cards
from hall.config import parse_config
from hall.door.service import Hall
from hall.money.report import report_from_hall
from hall.money.report_csv import write_csv
from hall.record.journal import Journal

PINS = {"speaker": "424242", "controller": "111111", "desk": "222222", "admin": "999999"}


def call(url: str, data: dict | None = None, token: str | None = None) -> tuple[int, dict]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, headers=headers, data=None if data is None else json.dumps(data).encode())
    try:
        with urllib.request.urlopen(request, timeout=10) as res:
            return res.status, json.loads(res.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def bench_door(count: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-sales-"))
    data = folder / "data"
    data.mkdir()
    cards = generate_cards(count + 200, seed="door", series="A")
    CardBook(dict(cards)).save(data)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    pins = "\n".join(f'{role}_pin = "{pin}"' for role, pin in PINS.items())
    (folder / "loto-hall.toml").write_text(
        f'[hall]\nname = "Banc"\ndata_dir = "{data}"\n[server]\nhost = "127.0.0.1"\nport = {port}\n[auth]\n{pins}\n',
        encoding="utf-8",
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    proc = subprocess.Popen(
        [sys.executable, "-m", "hall.app", "serve", "--config", str(folder / "loto-hall.toml")],
        cwd=folder,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if call(url + "/api/state")[0] == 200:
                    break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise
                try:
                    proc.wait(0.1)  # wakes at once if the service dies
                except subprocess.TimeoutExpired:
                    pass
        desk = call(url + "/api/login", {"pin": PINS["desk"]})[1]["token"]
        speaker = call(url + "/api/login", {"pin": PINS["speaker"]})[1]["token"]
        call(url + "/api/partie/start", {}, speaker)  # sales go on while a partie is played
        for n in (4, 13, 37, 52, 80, 9, 21):
            call(url + "/api/draws", {"number": n}, speaker)
        times = []
        for card_id, _ in cards[:count]:
            t0 = time.perf_counter()
            status, body = call(url + "/api/sales", {"cards": [card_id], "payment": "especes"}, desk)
            times.append(1000 * (time.perf_counter() - t0))
            assert status == 201, body
        total = call(url + "/api/sales/summary", token=desk)[1]
        assert total["cards_sold"] == count and total["takings_eur"]["total"] == 3 * count
        print(summary(f"sale at the door (HTTP, {len(cards):,} cartons)", times, width=44, p90=True))
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(30)


def bench_report(sold: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-report-"))
    cards = generate_cards(sold, seed="report", series="R")
    config = parse_config({"hall": {"name": "Banc", "data_dir": str(folder)}})
    hall = Hall(config, Journal(folder / "journal.sqlite"), CardBook(dict(cards)), voucher_secret=b"k" * 32)
    ids = [cid for cid, _ in cards]
    rnd = random.Random(1)
    t0 = time.perf_counter()
    at, sales = 0, 0
    while at < len(ids):
        n = rnd.choice((1, 1, 3, 6, 6, 12))
        hall.sell(
            ids[at : at + n],
            role="desk",
            payment=rnd.choice(("especes", "carte", "cheque")),
            seller=rnd.choice(("Anne", "Marc", "Lucie")),
        )
        at += n
        sales += 1
    selling_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    report = report_from_hall(hall)
    build_s = time.perf_counter() - t0
    out = io.StringIO()
    t0 = time.perf_counter()
    write_csv(report, out)
    csv_s = time.perf_counter() - t0
    from hall.app.paper.report_pdf import write_report_pdf

    pdf = io.BytesIO()
    t0 = time.perf_counter()
    write_report_pdf(report, pdf)
    pdf_s = time.perf_counter() - t0
    from hall.app.paper.pdfa import archival
    from hall.app.paper.report_pdf import draft_pdf

    t0 = time.perf_counter()
    draft = draft_pdf(report)
    draft_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    archival(draft)
    pdfa_s = time.perf_counter() - t0
    from hall.app.paper.report_xlsx import write_report_xlsx

    xlsx = io.BytesIO()
    t0 = time.perf_counter()
    write_report_xlsx(report, xlsx)
    xlsx_s = time.perf_counter() - t0
    t = report.takings
    assert t.totals["cards_sold"] == sold
    print(
        f"report with {sold:,} sold cartons in {sales:,} sales (selling in-process took {selling_s:.1f} s): "
        f"build {build_s * 1000:.0f} ms, CSV {csv_s * 1000:.0f} ms ({len(out.getvalue().encode()) / 1024:.0f} KiB), "
        f"PDF {pdf_s * 1000:.0f} ms ({len(pdf.getvalue()) / 1024:.0f} KiB; again: reportlab {draft_s * 1000:.0f} ms "
        f"({len(draft) / 1024:.0f} KiB) + the PDF/A pass {pdfa_s * 1000:.0f} ms), "
        f"workbook {xlsx_s * 1000:.0f} ms ({len(xlsx.getvalue()) / 1024:.0f} KiB); receipts {t.receipts_cents / 100:.2f} €"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--sales", type=int, default=1000, help="sales at the door over HTTP (0: none)")
    parser.add_argument("--report-cards", type=int, default=10_000)
    args = parser.parse_args()
    if args.sales:
        bench_door(args.sales)
    bench_report(args.report_cards)
