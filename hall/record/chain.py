"""The journal's hash chain: each record carries the hash of the one before it and the hash of its own content with
that link, so a record changed, removed, inserted or moved after the night shows.

A record's hash is the SHA-256, in hex, of the canonical JSON (keys sorted, no spaces, UTF-8, not ASCII-escaped)
of ``{"at", "payload", "prev", "role", "seq", "type"}``: the payload as the JSON object its stored text reads as,
``prev`` the hash of the record before it (``GENESIS`` for the first; a journal from before the chain starts from
its ``anchor`` instead, hall/record/journal.py). Anyone can recompute it with another tool.

**The text stored is the text hashed**: a payload is stored as ``stored_text`` writes it (compact, UTF-8, keys in
the event's order) and a stored text is read only when it is exactly that writing of what it reads as
(``read_text``): a duplicate key, an escape, a space or another way of writing a number would let two readers see
two payloads under one hash, so such a record does not verify.

The last record's hash is the evening's **fingerprint**, printed on paper in groups a person can read aloud;
``verify`` checks a journal's rows and, given a fingerprint from paper, that the record it names is still there
(records cut off the end show only that way). Pure, stdlib only.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass

GENESIS = "0" * 64
SHOWN = 20  # hex characters of a fingerprint as printed: five groups of four (80 bits)
MIN_TYPED = 16  # the shortest fingerprint ``verify --fingerprint`` accepts
_HEX = re.compile(r"[0-9a-f]+")


def canonical(value: object) -> str:
    """The canonical JSON text of ``value``."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


class TextProblem(ValueError):
    """A stored payload that cannot be read one way only; ``code``: ``unreadable`` (not a JSON object),
    ``duplicate_key`` (a key given twice: readers differ on which one counts), ``not_canonical`` (JSON, but not
    the hall's writing of it: spaces, escapes, another way of writing a number)."""

    def __init__(self, code: str, detail: str):
        super().__init__(f"{code}: {detail}")
        self.code = code


def stored_text(payload: dict) -> str:
    """The text a payload is stored as; ``TextProblem`` for a value that could not be read back as itself (a NaN,
    a key that is not a string)."""
    try:
        text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise TextProblem("unreadable", str(exc)) from exc
    read_text(text)  # the writer's own rule, checked on what it writes
    return text


def _pairs(pairs: list[tuple[str, object]]) -> dict:
    out: dict[str, object] = {}
    for key, value in pairs:
        if key in out:
            raise TextProblem("duplicate_key", f"key {key!r} given twice")
        out[key] = value
    return out


def _no_constant(name: str) -> object:
    raise TextProblem("not_canonical", f"{name} is not JSON")


def parse_text(text: object) -> dict:
    """The JSON object a stored text holds, however it is spaced or escaped; ``TextProblem`` when it is not one
    object read one way only (a duplicate key, a ``NaN``, not an object, not text)."""
    if not isinstance(text, str):
        raise TextProblem("unreadable", f"stored as {type(text).__name__}, not text")
    try:
        value = json.loads(text, object_pairs_hook=_pairs, parse_constant=_no_constant)
    except TextProblem:
        raise
    except ValueError as exc:
        raise TextProblem("unreadable", str(exc)) from exc
    if not isinstance(value, dict):
        raise TextProblem("unreadable", "not a JSON object")
    return value


def read_text(text: object) -> dict:
    """The payload a stored text reads as, when the text is exactly ``stored_text`` of it; ``TextProblem``
    otherwise (what a record's hash may be computed from)."""
    value = parse_text(text)
    if json.dumps(value, ensure_ascii=False, separators=(",", ":")) != text:
        raise TextProblem("not_canonical", "not written as the hall writes it")
    return value


def record_hash(prev: str, seq: int, type_name: str, payload: object, role: str, at: str) -> str:
    """The hash of a record whose predecessor's hash is ``prev`` (``payload``: its parsed JSON)."""
    body = canonical({"at": at, "payload": payload, "prev": prev, "role": role, "seq": seq, "type": type_name})
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def text_hash(prev: str, seq: int, type_name: str, payload_text: str, role: str, at: str) -> str:
    """``record_hash`` of a record whose payload is stored as ``payload_text``; ``TextProblem`` when that text
    does not read one way only (``read_text``)."""
    for column in (type_name, role, at, prev):
        if not isinstance(column, str):
            raise TextProblem("unreadable", f"a column stored as {type(column).__name__}, not text")
    return record_hash(prev, seq, type_name, read_text(payload_text), role, at)


def anchor(type_name: str, payload: object, role: str, at: str) -> str:
    """Where a journal from before the chain starts (the ``prev`` of its first record): the hash of the record
    that says it was chained, as if it came first. Removing or changing that record unlinks the first one."""
    return record_hash(GENESIS, 0, type_name, payload, role, at)


def shown(hash_hex: str) -> str:
    """A fingerprint as printed: the first ``SHOWN`` hex characters in upper case, in groups of four."""
    head = hash_hex[:SHOWN].upper()
    return " ".join(head[i : i + 4] for i in range(0, len(head), 4))


def typed(text: str) -> str | None:
    """The hex digits of a fingerprint as a person types it (spaces, dashes, any case); ``None`` when it is not
    one (fewer than ``MIN_TYPED`` hex digits, or another character)."""
    digits = re.sub(r"[\s\-:.]", "", str(text)).lower()
    return digits if MIN_TYPED <= len(digits) <= 64 and _HEX.fullmatch(digits) else None


@dataclass(frozen=True, slots=True)
class Row:
    """A journal row as stored: its columns, the payload as text."""

    seq: int
    type: str
    payload: str
    role: str
    at: str
    prev: str
    hash: str


@dataclass(frozen=True, slots=True)
class Verdict:
    """What ``verify`` found. ``problem`` is a code (``None``: the chain holds): ``changed`` (the record's content is
    not what its hash says), ``unlinked`` (it does not follow the record before it: one removed, inserted or moved),
    ``missing`` (a number is skipped), ``unreadable`` (its payload is not a JSON object, or a column is not text),
    ``duplicate_key`` and ``not_canonical`` (its stored text does not read one way only: ``read_text``),
    ``fingerprint_missing`` (no record has the fingerprint given: records cut off the end, or the chain
    rewritten), ``bad_fingerprint``."""

    records: int  # rows read
    last_seq: int
    fingerprint: str  # the last good record's full hash ("" for an empty journal)
    last_at: str
    problem: str | None = None
    seq: int | None = None  # the first record that does not match
    expected_seq: int | None = None  # for ``missing``: the number that should have come
    type: str = ""
    at: str = ""
    matched_seq: int | None = None  # with a fingerprint: the record it names
    after: int = 0  # records written after that one

    @property
    def ok(self) -> bool:
        return self.problem is None


def verify(rows: Iterable[Row], fingerprint: str | None = None, starts: Collection[str] = (GENESIS,)) -> Verdict:
    """Walk ``rows`` (in ``seq`` order) and check every link and every content hash; with ``fingerprint`` (from
    ``typed``), check that a record of the chain has it. ``starts``: what the first record may follow (``GENESIS``,
    or the ``anchor`` of a journal chained at its first open). Stops at the first record that does not match."""
    want = typed(fingerprint) if fingerprint is not None else None
    if fingerprint is not None and want is None:
        return Verdict(0, 0, "", "", "bad_fingerprint")
    prev, count, last_seq, last_at, matched = GENESIS, 0, 0, "", None
    for row in rows:
        problem, expected = None, None
        if row.seq != last_seq + 1:
            problem, expected = "missing", last_seq + 1
        elif row.prev != prev and not (count == 0 and row.prev in starts):
            problem = "unlinked"
        else:
            prev = row.prev
            try:
                if text_hash(prev, row.seq, row.type, row.payload, row.role, row.at) != row.hash:
                    problem = "changed"
            except TextProblem as exc:
                problem = exc.code
        if problem is not None:
            return Verdict(
                count,
                last_seq,
                prev if count else "",  # the last good record's hash
                last_at,
                problem,
                row.seq,
                expected,
                row.type,
                row.at,
                matched,
                count - matched if matched else 0,
            )
        count, prev, last_seq, last_at = count + 1, row.hash, row.seq, row.at
        if want is not None and row.hash.startswith(want):
            matched = row.seq
    final = prev if count else ""
    if want is not None and matched is None:
        return Verdict(count, last_seq, final, last_at, "fingerprint_missing")
    return Verdict(count, last_seq, final, last_at, matched_seq=matched, after=last_seq - matched if matched else 0)


def chain(rows: Iterable[tuple[int, str, str, str, str]], prev: str = GENESIS) -> list[tuple[str, str, int]]:
    """``(prev, hash, seq)`` for each of ``rows`` (``seq, type, payload text, role, at``), chained from ``prev``:
    how a journal from before the chain is chained at its first open."""
    out = []
    for seq, type_name, payload, role, at in rows:
        digest = text_hash(prev, seq, type_name, payload, role, at)
        out.append((prev, digest, seq))
        prev = digest
    return out
