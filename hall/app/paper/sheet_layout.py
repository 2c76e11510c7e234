"""Where things go on a planche of cartons (A4, points): the page's margins, and for 2, 3, 4, 6 or 12 cartons a
page the slot of each carton and, inside it, the grid, the QR code, the bar code, the header and the type sizes.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.pagesizes import A4

PAGE_W, PAGE_H = A4
MARGIN_X, MARGIN_Y = 28.0, 24.0


@dataclass(frozen=True, slots=True)
class Layout:
    """Where things go in one carton slot (points, origin at the slot's bottom-left corner)."""

    per_page: int
    cols: int
    rows: int
    slot_w: float
    slot_h: float
    grid: tuple[float, float, float, float]  # x, y, w, h
    qr: tuple[float, float, float]  # x, y, side
    bar: tuple[float, float, float, float]  # x, y, w, h
    header_y: float
    name_size: float
    id_size: float
    number_size: float
    series_at: tuple[float, float, float] | None  # x, y, font size of the big series letter (else in the header)

    def slot_origin(self, index: int) -> tuple[float, float]:
        """Bottom-left corner of slot ``index`` (0 = top-left, then across, then down)."""
        col, row = index % self.cols, index // self.cols
        return MARGIN_X + col * self.slot_w, PAGE_H - MARGIN_Y - (row + 1) * self.slot_h


PER_PAGE = (2, 3, 4, 6, 12)


def layout(per_page: int = 6) -> Layout:
    """The layout of a planche of ``per_page`` (2, 3, 4, 6: one carton per row; 12: two per row)."""
    if per_page not in PER_PAGE:
        raise ValueError(f"per_page must be one of {', '.join(map(str, PER_PAGE))}, not {per_page!r}")
    cols = 2 if per_page == 12 else 1
    rows = 6 if per_page == 12 else per_page
    w, h = (PAGE_W - 2 * MARGIN_X) / cols, (PAGE_H - 2 * MARGIN_Y) / rows
    pad = 7.0 if cols == 1 else 6.0
    if cols == 1:
        # bigger slots keep cells about as high as wide; the room left goes to the header (logo, names)
        grid_w = 9 * 41.0
        grid_h = min(h - 2 * pad - 22.0, 3 * 62.0)
        header_h = h - 2 * pad - grid_h
        right_x = pad + grid_w + 10
        right_w = w - pad - right_x
        side = 60.0
        return Layout(
            per_page,
            cols,
            rows,
            w,
            h,
            (pad, pad, grid_w, grid_h),
            (w - pad - side, pad + grid_h - side, side),
            (right_x, pad, right_w, grid_h - side - 6),
            h - pad - 15,
            11.0,
            20.0,
            18.0,
            (right_x, pad + grid_h - side + 6, 9.0),
        )
    # two cartons across: a band for the name and, under it, the evening's (taken from the bar code's height)
    header_h, grid_w, grid_h = 25.0, 9 * 21.0, 3 * 21.0
    grid_y = h - pad - header_h - grid_h
    right_x = pad + grid_w + 6
    side = w - pad - right_x
    return Layout(
        per_page,
        cols,
        6,
        w,
        h,
        (pad, grid_y, grid_w, grid_h),
        (right_x, grid_y + grid_h - side, side),
        (pad, pad, w - 2 * pad, grid_y - pad - 4),
        h - pad - 12,
        8.0,
        14.0,
        12.0,
        None,
    )
