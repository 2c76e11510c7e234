"""The core's public face: what the web (``display/``) and the drivers (``drivers/``) use of the loto core.

The core stands on floors (pyproject.toml's layers contract, ARCHITECTURE): ``hall.door`` (``Hall``, its
writer, its desks) above ``hall.ports`` and ``hall.money`` (the takings and the report), above the pictures
(``hall.snapshots``) and the configuration, above ``hall.loto`` (the rules, the claim check, the lots), above
``hall.cartons`` (cards, IDs, the card book, the sales ledger), above ``hall.record`` (the journal and its
chain, the durable writes). ``display`` and ``drivers`` import the core from here, or from its shared words:
``hall.events``, ``hall.snapshots``, ``hall.ports``, ``hall.config``, ``hall.rights``, ``hall.refusal``
(an import-linter contract holds them to it). The core itself never imports this module.
"""

from __future__ import annotations

from hall.cartons import sales
from hall.cartons.card_ids import (
    MAX_CARD_CODE_TEXT,
    MAX_CARD_TEXT,
    MAX_FOLLOW_KEY,
    display_card_id,
    make_card_id,
    normalize_card_id,
    split_card_id,
    typed_card_code,
)
from hall.cartons.cardbook import CardBook
from hall.cartons.cards import parse_number
from hall.cartons.planches import generate_cards
from hall.cartons.sales import RangeError, as_eur, expand_ranges
from hall.config import Config, load_config
from hall.door.calling_desk import pace_for
from hall.door.service import Hall
from hall.errors import ConfigError, HallError, InvalidCardFile, InvalidNumber, RangeTooLarge
from hall.loto import fairness, programme
from hall.loto.claims import verify
from hall.loto.keypad_keys import (
    ACTIONS,
    DEFAULT_KEYS,
    DIGIT_KEYS,
    action_keys,
    browser_keymap,
    unknown_actions,
)
from hall.loto.lots import (
    KIND_LABELS,
    LOT_KINDS,
    MAX_LABEL,
    ROWS,
    WITHIN,
    LotTermsError,
    balls_left,
    has_control_character,
    kinds_table,
    prize_at,
    read_terms,
)
from hall.loto.programme import is_pin, pin_matches
from hall.loto.speech_words import ball_phrase, number_words
from hall.loto.ties import METHODS as TIE_METHODS
from hall.loto.ties import WINS as TIE_WINS
from hall.loto.ties import default_wins
from hall.money.report import REPORT_LANGUAGES, written_in
from hall.money.report_csv import write_csv
from hall.numbers import is_ascii_digits, parse_amount, parse_int
from hall.ports import HallPort
from hall.record import chain, durable
from hall.record.evenings import (
    REPORT_CSV,
    REPORT_PDF,
    EveningSummary,
    archive_dir,
    archived_journal,
    lotos_in_year,
    past_evenings,
    year_of,
)
from hall.record.journal import Offload
from hall.record.reading import JournalCheck, verify_file
from hall.record.secretfile import load_or_create_secret
from hall.refusal import Rejected
from hall.sources import utc_now
from hall.spreadsheet import as_plain_csv, safe_cell

__all__ = [
    "action_keys",
    "ACTIONS",
    "archive_dir",
    "archived_journal",
    "as_eur",
    "as_plain_csv",
    "balls_left",
    "ball_phrase",
    "browser_keymap",
    "CardBook",
    "chain",
    "Config",
    "ConfigError",
    "DEFAULT_KEYS",
    "default_wins",
    "DIGIT_KEYS",
    "display_card_id",
    "durable",
    "EveningSummary",
    "expand_ranges",
    "fairness",
    "generate_cards",
    "Hall",
    "JournalCheck",
    "HallError",
    "HallPort",
    "has_control_character",
    "InvalidCardFile",
    "InvalidNumber",
    "is_ascii_digits",
    "is_pin",
    "KIND_LABELS",
    "kinds_table",
    "load_config",
    "load_or_create_secret",
    "LOT_KINDS",
    "lotos_in_year",
    "LotTermsError",
    "make_card_id",
    "MAX_CARD_CODE_TEXT",
    "MAX_CARD_TEXT",
    "MAX_FOLLOW_KEY",
    "MAX_LABEL",
    "normalize_card_id",
    "number_words",
    "Offload",
    "pace_for",
    "parse_amount",
    "parse_int",
    "parse_number",
    "past_evenings",
    "pin_matches",
    "prize_at",
    "programme",
    "RangeError",
    "RangeTooLarge",
    "read_terms",
    "Rejected",
    "TIE_METHODS",
    "TIE_WINS",
    "REPORT_CSV",
    "REPORT_LANGUAGES",
    "REPORT_PDF",
    "ROWS",
    "safe_cell",
    "sales",
    "split_card_id",
    "typed_card_code",
    "unknown_actions",
    "utc_now",
    "verify",
    "verify_file",
    "WITHIN",
    "write_csv",
    "written_in",
    "year_of",
]
