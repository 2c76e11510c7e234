"""Benchmark: 10 000 cartons to printable PDF planches (target < 30 s). Prints figures; never run as a test.

python bench/bench_sheets.py [--count 10000] [--per-page 6 12] [--out DIR]
"""

from __future__ import annotations

import argparse
import platform
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hall.app.paper.sheets import write_cards_pdf
from hall.cartons.planches import generate_cards


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--per-page", type=int, nargs="+", default=[6, 12], choices=(6, 12))
    parser.add_argument("--out", help="folder for the PDFs (default: a temporary folder)")
    parser.add_argument("--check", action="store_true", help="read every QR/Code128 of the first and last page back")
    args = parser.parse_args()
    out = Path(args.out or tempfile.mkdtemp(prefix="bench-sheets-"))
    out.mkdir(parents=True, exist_ok=True)
    print(f"python {platform.python_version()} on {platform.machine()} ({platform.processor() or 'cpu ?'})")
    t0 = time.perf_counter()
    cards = generate_cards(args.count, seed="bench", series="A")
    print(f"generate_cards({args.count}): {time.perf_counter() - t0:.2f} s")
    for per_page in args.per_page:
        path = out / f"cartons-{per_page}.pdf"
        t0 = time.perf_counter()
        pages = write_cards_pdf(cards, path, "Salle des fêtes de Saint-Ézéchiel", "A", per_page=per_page)
        elapsed = time.perf_counter() - t0
        size = path.stat().st_size
        print(
            f"{args.count} cartons, {per_page} per page: {pages} pages in {elapsed:.2f} s "
            f"({args.count / elapsed:.0f} cartons/s, {size / 1e6:.1f} MB, {size / args.count:.0f} B/carton) "
            f"-> {'OK' if elapsed < 30 else 'OVER'} target 30 s"
        )
        if args.check:
            import pypdfium2 as pdfium
            import zxingcpp

            pdf = pdfium.PdfDocument(path)
            for index in (0, len(pdf) - 1):
                found = zxingcpp.read_barcodes(pdf[index].render(scale=3, grayscale=True).to_pil())
                ids = {cid for cid, _ in cards[index * per_page : (index + 1) * per_page]}
                ok = {r.text for r in found} == ids and len(found) == 2 * len(ids)
                print(f"  page {index + 1}: {len(found)} codes read back, {'OK' if ok else 'MISMATCH'}")
            pdf.close()
    print(f"PDFs in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
