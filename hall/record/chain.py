"""The journal's hash chain: each record carries the hash of the one before it and the hash of its own content with
that link, so a record changed, removed, inserted or moved after the night shows.

A record's hash is the SHA-256, in hex, of the canonical JSON (keys sorted, no spaces, UTF-8, not ASCII-escaped)
of ``{"at", "payload", "prev", "role", "seq", "type"}``: the payload as a JSON object (however its text was
spaced), ``prev`` the hash of the record before it (``GENESIS`` for the first). Anyone can recompute it with
another tool. The last record's hash is the evening's **fingerprint**, printed on paper in groups a person can
read aloud; ``verify`` checks a journal's rows and, given a fingerprint from paper, that the record it names is
still there (records cut off the end show only that way). Pure, stdlib only.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass

GENESIS = "0" * 64
SHOWN = 20  # hex characters of a fingerprint as printed: five groups of four (80 bits)
MIN_TYPED = 16  # the shortest fingerprint ``verify --fingerprint`` accepts
_HEX = re.compile(r"[0-9a-f]+")


def canonical(value: object) -> str:
    """The canonical JSON text of ``value``."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def record_hash(prev: str, seq: int, type_name: str, payload: object, role: str, at: str) -> str:
    """The hash of a record whose predecessor's hash is ``prev`` (``payload``: its parsed JSON)."""
    body = canonical({"at": at, "payload": payload, "prev": prev, "role": role, "seq": seq, "type": type_name})
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def text_hash(prev: str, seq: int, type_name: str, payload_text: str, role: str, at: str) -> str:
    """``record_hash`` of a record whose payload is stored as JSON text; ``ValueError`` when it is not JSON."""
    return record_hash(prev, seq, type_name, json.loads(payload_text), role, at)


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
    ``missing`` (a number is skipped), ``unreadable`` (its payload is not JSON), ``fingerprint_missing`` (no record
    has the fingerprint given: records cut off the end, or the chain rewritten), ``bad_fingerprint``."""

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


def verify(rows: Iterable[Row], fingerprint: str | None = None) -> Verdict:
    """Walk ``rows`` (in ``seq`` order) and check every link and every content hash; with ``fingerprint`` (from
    ``typed``), check that a record of the chain has it. Stops at the first record that does not match."""
    want = typed(fingerprint) if fingerprint is not None else None
    if fingerprint is not None and want is None:
        return Verdict(0, 0, "", "", "bad_fingerprint")
    prev, count, last_seq, last_at, matched = GENESIS, 0, 0, "", None
    for row in rows:
        problem, expected = None, None
        if row.seq != last_seq + 1:
            problem, expected = "missing", last_seq + 1
        elif row.prev != prev:
            problem = "unlinked"
        else:
            try:
                if text_hash(prev, row.seq, row.type, row.payload, row.role, row.at) != row.hash:
                    problem = "changed"
            except ValueError:
                problem = "unreadable"
        if problem is not None:
            return Verdict(
                count,
                last_seq,
                prev if count else "",
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
