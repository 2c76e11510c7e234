"""The evening's report as a PDF/A-2b file (ISO 19005-2, level B: it prints and reads the same in ten years, with
nothing taken from the machine that opens it), for the association's archive and the tax office.

What reportlab 5.1 (open source) gives, checked with veraPDF (docs/record.md): the TrueType font embedded
(``typeface.py``), PDF 1.4 with its binary comment and file ID, no encryption, no JavaScript; an ``XMP`` stream
class and a catalogue that takes it. What it does not: a PDF/A switch, an ``OutputIntents`` key in its catalogue,
and an end of line before each ``endstream`` — ``PDFStream.format`` writes the data straight against the keyword,
which ISO 19005-2 §6.1.7.1 forbids (veraPDF rule 6.1.7.1-2, on every stream). Rather than patch reportlab's
internals, the report is written by reportlab as before and made an archive file in one pass of pikepdf (qpdf):

- the output intent (``GTS_PDFA1``, sRGB) with the sRGB ICC profile vendored in ``colour/`` (its licence beside
  it): the report's device colours (RGB and grey) are then defined (§6.2.3, §6.2.4.3);
- the XMP metadata stream in the catalogue: ``pdfaid:part`` 2, ``pdfaid:conformance`` B, and the document
  information's title, author, subject, keywords, creator, producer and dates, the same in both places (§6.6);
- the whole file written anew by qpdf: every stream ended by an end of line, its length exact, the
  cross-reference table rebuilt.

The report has no transparency (its frequency table's shades are opaque), so it needs no blending colour space.
"""

from __future__ import annotations

import io
from pathlib import Path

SRGB = Path(__file__).with_name("colour") / "sRGB.icc"
SRGB_NAME = "sRGB IEC61966-2.1"  # the output condition, as the ICC's registry names it
PART, CONFORMANCE = "2", "B"


def archival(draft: bytes, language: str = "") -> bytes:
    """``draft``, a PDF reportlab wrote, as a PDF/A-2b file: the same pages, with the sRGB output intent and the
    XMP metadata that declares the part and level, the file written anew; ``language`` (``fr``, ``en``), when given,
    is the document's, in its catalogue (``/Lang``, what a screen reader reads it in) and its XMP (``dc:language``)."""
    # imported here, not at the top: ~0.15 s that the service's start (which imports this module) need not pay
    import pikepdf
    from pikepdf import Array, Dictionary, Name, String

    with pikepdf.open(io.BytesIO(draft)) as pdf:
        profile = pdf.make_stream(SRGB.read_bytes(), N=3)
        intent = Dictionary(
            Type=Name.OutputIntent,
            S=Name.GTS_PDFA1,
            OutputConditionIdentifier=String(SRGB_NAME),
            Info=String(SRGB_NAME),
            RegistryName=String("http://www.color.org"),
            DestOutputProfile=profile,
        )
        pdf.Root.OutputIntents = Array([pdf.make_indirect(intent)])
        if language:
            pdf.Root.Lang = String(language)
        if Name.Trapped in pdf.docinfo:  # a printer's trapping flag (reportlab: /False): nothing to say, and
            del pdf.docinfo[Name.Trapped]  # pikepdf keeps no XMP twin of it
        with pdf.open_metadata(set_pikepdf_as_editor=False) as meta:
            meta.load_from_docinfo(pdf.docinfo, raise_failure=True)
            meta["pdfaid:part"] = PART
            meta["pdfaid:conformance"] = CONFORMANCE
            if language:
                meta["dc:language"] = [language]
        out = io.BytesIO()
        pdf.save(out)
        return out.getvalue()
