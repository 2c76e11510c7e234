"""The ball machine's bytes → ball values (INTERFACE §3), without any port."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.ball_protocol import Ball, Debouncer, Garbage, LineParser, StxParser, frame, make_parser


def numbers(readings) -> list[int]:
    return [r.number for r in readings if isinstance(r, Ball)]


def reasons(readings) -> list[str]:
    return [r.reason for r in readings if isinstance(r, Garbage)]


def test_a_line_ended_by_cr_lf_or_crlf_is_a_ball():
    assert numbers(LineParser().feed(b"7\r12\n42\r\n90\n\r")) == [7, 12, 42, 90]


def test_an_optional_prefix_and_suffix_around_the_number():
    readings = LineParser().feed(b"B42\r\nBOULE 7\r\nN=05 OK\r\n")
    assert numbers(readings) == [42, 7, 5]
    assert readings[0] == Ball(42, b"B42")


def test_a_ball_split_across_reads_is_one_ball():
    parser = LineParser()
    assert parser.feed(b"4") == []
    assert numbers(parser.feed(b"2\r")) == [42]
    assert parser.feed(b"\n") == []  # the LF of the CRLF is not an empty ball


def test_garbage_and_numbers_outside_1_to_90_are_never_balls():
    readings = LineParser().feed(b"ERR\r\n0\r\n00\r\n91\r\n99\r\n123\r\n\x00\xff\r\n12 34\r\n")
    assert numbers(readings) == []
    assert reasons(readings) == [
        "no_match",
        "out_of_range",
        "out_of_range",
        "out_of_range",
        "out_of_range",
        "no_match",
        "no_match",
        "no_match",
    ]


def test_non_ascii_digits_do_not_count():
    assert numbers(LineParser().feed("٤٢\r\n".encode())) == []


def test_an_endless_line_is_reported_once_then_skipped_to_its_end():
    parser = LineParser(max_frame=8)
    readings = parser.feed(b"x" * 30 + b"\r\n17\r\n")
    assert reasons(readings) == ["too_long"] and numbers(readings) == [17]


def test_the_pattern_is_configurable():
    parser = make_parser("lines", r"^#(\d+)$")
    assert numbers(parser.feed(b"#8\r\n8\r\n#88\r\n")) == [8, 88]


def test_a_pattern_without_a_group_uses_the_whole_match():
    assert numbers(make_parser("lines", r"\d+").feed(b"ball 33\r\n")) == [33]


def test_a_bad_pattern_names_the_key():
    with pytest.raises(ValueError, match="ball_machine.pattern"):
        make_parser("lines", "(")


def test_flush_reports_the_partial_line_of_an_unplug():
    parser = LineParser()
    parser.feed(b"4")
    assert parser.flush() == [Garbage(b"4", "truncated")]
    assert numbers(parser.feed(b"2\r\n")) == [2]  # what comes after replug starts afresh


def test_stx_frames():
    readings = StxParser().feed(b"\x0242\x03\r\n\x027\x03")
    assert numbers(readings) == [42, 7] and readings[0].raw == b"\x0242\x03"


def test_stx_noise_truncated_frames_and_bad_contents_are_garbage():
    readings = StxParser().feed(b"zz\x024\x0218\x03\x0291\x03\x02a1\x03")
    assert numbers(readings) == [18]
    assert reasons(readings) == ["no_match", "truncated", "out_of_range", "no_match"]


def test_frame_is_what_the_parser_reads():
    for protocol in ("lines", "stx"):
        assert numbers(make_parser(protocol).feed(b"".join(frame(n, protocol) for n in (1, 45, 90)))) == [1, 45, 90]


def test_the_same_number_within_the_window_is_one_ball():
    d = Debouncer(2.0)
    assert d.is_new(42, 0.0)
    assert not d.is_new(42, 1.0)
    assert not d.is_new(42, 2.5)  # a ball lying on the reader: the window slides with each read
    assert d.is_new(42, 5.0)  # read again much later: a new read (the hall will refuse it)
    assert d.is_new(7, 5.1) and d.is_new(42, 5.2)


chunked = st.lists(st.binary(max_size=40), max_size=30)
digits_and_noise = st.lists(
    st.sampled_from(
        [b"0", b"1", b"4", b"9", b"\r", b"\n", b"\x02", b"\x03", b"B", b" ", b"\xff", b"123", b"90", b"91"]
    ),
    max_size=80,
).map(lambda xs: [b"".join(xs)])


@settings(max_examples=300, deadline=None)
@given(st.one_of(chunked, digits_and_noise), st.sampled_from(["lines", "stx"]), st.data())
def test_any_byte_stream_gives_no_crash_and_only_balls_1_to_90(chunks, protocol, data):
    parser = make_parser(protocol)
    readings = [r for chunk in chunks for r in parser.feed(chunk)] + parser.flush()
    assert all(isinstance(r, (Ball, Garbage)) for r in readings)
    assert all(1 <= n <= 90 and type(n) is int for n in numbers(readings))
    # however the same bytes are cut into reads, the parser finds the same things
    stream = b"".join(chunks)
    cut = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
    parts = [stream[a:b] for a, b in zip([0, *cut], [*cut, len(stream)])]
    again = make_parser(protocol)
    assert [r for p in parts for r in again.feed(p)] + again.flush() == readings
