"""The core's public face: what the web (``display/``) and the drivers (``drivers/``) use of the loto core.

The core stands on floors (pyproject.toml's layers contract, ARCHITECTURE): ``hall.door`` (``Hall``, its
writer, its desks) above ``hall.ports`` and ``hall.money`` (the takings and the report), above the pictures
(``hall.snapshots``) and the configuration, above ``hall.loto`` (the rules, the claim check, the lots), above
``hall.cartons`` (cards, IDs, the card book, the sales ledger), above ``hall.record`` (the journal and its
chain, the durable writes). ``display`` and ``drivers`` import the core from here, or from its shared words:
``hall.events``, ``hall.snapshots``, ``hall.ports``, ``hall.config``, ``hall.rights``, ``hall.requests``, ``hall.refusal``
(an import-linter contract holds them to it). The core itself never imports this module.

The face names classes, functions and constants, never a whole module, and loads each on first use (PEP 562):
``import hall.refusal`` or ``from hall import parse_number`` runs only the modules that name needs, not the door
and its journal (``sqlite3``). The one list is the ``TYPE_CHECKING`` block below: the checker and the editors read
its imports, ``__getattr__`` (``hall/lazy``) reads the same block once to know where each name lives; ``__all__``
says the same names for ``from hall import *`` and for mypy (tests/test_architecture.py holds the two together).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hall.buvette.ledger import BuvettePicture as BuvettePicture
    from hall.buvette.rules import LIMITS as BUVETTE_LIMITS
    from hall.buvette.rules import PAYMENTS as BUVETTE_PAYMENTS
    from hall.buvette.rules import PRINTS as BUVETTE_PRINTS
    from hall.cartons.card_ids import MAX_CARD_CODE_TEXT as MAX_CARD_CODE_TEXT
    from hall.cartons.card_ids import MAX_CARD_TEXT as MAX_CARD_TEXT
    from hall.cartons.card_ids import MAX_FOLLOW_KEY as MAX_FOLLOW_KEY
    from hall.cartons.card_ids import display_card_id as display_card_id
    from hall.cartons.card_ids import make_card_id as make_card_id
    from hall.cartons.card_ids import normalize_card_id as normalize_card_id
    from hall.cartons.card_ids import split_card_id as split_card_id
    from hall.cartons.card_ids import typed_card_code as typed_card_code
    from hall.cartons.cardbook import CardBook as CardBook
    from hall.cartons.cards import parse_number as parse_number
    from hall.cartons.planches import generate_cards as generate_cards
    from hall.cartons.sales import MAX_RANGE as MAX_RANGE
    from hall.cartons.sales import NO_TIER as NO_TIER
    from hall.cartons.sales import STAKE_LIMIT_CENTS as STAKE_LIMIT_CENTS
    from hall.cartons.sales import RangeError as RangeError
    from hall.cartons.sales import Sale as Sale
    from hall.cartons.sales import TierError as TierError
    from hall.cartons.sales import as_eur as as_eur
    from hall.cartons.sales import expand_ranges as expand_ranges
    from hall.cartons.sales import parse_eur as parse_eur
    from hall.cartons.sales import parse_tiers as parse_tiers
    from hall.config import Config as Config
    from hall.config import load_config as load_config
    from hall.door.calling_desk import pace_for as pace_for
    from hall.door.service import Hall as Hall
    from hall.errors import ConfigError as ConfigError
    from hall.errors import HallError as HallError
    from hall.errors import InvalidCardFile as InvalidCardFile
    from hall.errors import InvalidNumber as InvalidNumber
    from hall.errors import RangeTooLarge as RangeTooLarge
    from hall.loto.claims import verify as verify
    from hall.loto.fairness import BALLS as BALLS
    from hall.loto.fairness import MIN_EXPECTED as FAIRNESS_MIN_EXPECTED
    from hall.loto.fairness import Check as FairnessCheck
    from hall.loto.fairness import Evidence as FairnessEvidence
    from hall.loto.fairness import check as fairness_check
    from hall.loto.fairness import counts as ball_counts
    from hall.loto.fairness import evidence as fairness_evidence
    from hall.loto.keypad_keys import ACTIONS as ACTIONS
    from hall.loto.keypad_keys import DEFAULT_KEYS as DEFAULT_KEYS
    from hall.loto.keypad_keys import DIGIT_KEYS as DIGIT_KEYS
    from hall.loto.keypad_keys import action_keys as action_keys
    from hall.loto.keypad_keys import browser_keymap as browser_keymap
    from hall.loto.keypad_keys import unknown_actions as unknown_actions
    from hall.loto.lots import KIND_LABELS as KIND_LABELS
    from hall.loto.lots import LOT_KINDS as LOT_KINDS
    from hall.loto.lots import MAX_LABEL as MAX_LABEL
    from hall.loto.lots import ROWS as ROWS
    from hall.loto.lots import WITHIN as WITHIN
    from hall.loto.lots import LotTermsError as LotTermsError
    from hall.loto.lots import balls_left as balls_left
    from hall.loto.lots import has_control_character as has_control_character
    from hall.loto.lots import kinds_table as kinds_table
    from hall.loto.lots import prize_at as prize_at
    from hall.loto.lots import read_terms as read_terms
    from hall.loto.programme import ProgrammeError as ProgrammeError
    from hall.loto.programme import is_pin as is_pin
    from hall.loto.programme import legal_flags as legal_flags
    from hall.loto.programme import parse_parties as parse_parties
    from hall.loto.programme import pin_matches as pin_matches
    from hall.loto.speech_words import ball_phrase as ball_phrase
    from hall.loto.speech_words import number_words as number_words
    from hall.loto.ties import METHODS as TIE_METHODS
    from hall.loto.ties import WINS as TIE_WINS
    from hall.loto.ties import default_wins as default_wins
    from hall.money.report import REPORT_LANGUAGES as REPORT_LANGUAGES
    from hall.money.report import written_in as written_in
    from hall.money.report_csv import write_csv as write_csv
    from hall.numbers import is_ascii_digits as is_ascii_digits
    from hall.numbers import parse_amount as parse_amount
    from hall.numbers import parse_int as parse_int
    from hall.ports import HallPort as HallPort
    from hall.record.chain import shown as shown_fingerprint
    from hall.record.durable import flush_times as flush_times
    from hall.record.durable import write_file as write_file
    from hall.record.durable import write_json as write_json
    from hall.record.evenings import REPORT_CSV as REPORT_CSV
    from hall.record.evenings import REPORT_PDF as REPORT_PDF
    from hall.record.evenings import EveningSummary as EveningSummary
    from hall.record.evenings import archive_dir as archive_dir
    from hall.record.evenings import archived_journal as archived_journal
    from hall.record.evenings import lotos_in_year as lotos_in_year
    from hall.record.evenings import past_evenings as past_evenings
    from hall.record.evenings import year_of as year_of
    from hall.record.journal import Offload as Offload
    from hall.record.reading import JournalCheck as JournalCheck
    from hall.record.reading import verify_file as verify_file
    from hall.record.secretfile import load_or_create_secret as load_or_create_secret
    from hall.refusal import Rejected as Rejected
    from hall.sources import utc_now as utc_now
    from hall.spreadsheet import as_plain_csv as as_plain_csv
    from hall.spreadsheet import safe_cell as safe_cell
    from hall.tombola.codes import read_prize_code as read_prize_code

__all__ = [
    "ACTIONS",
    "BALLS",
    "BUVETTE_LIMITS",
    "BUVETTE_PAYMENTS",
    "BUVETTE_PRINTS",
    "DEFAULT_KEYS",
    "DIGIT_KEYS",
    "FAIRNESS_MIN_EXPECTED",
    "KIND_LABELS",
    "LOT_KINDS",
    "MAX_CARD_CODE_TEXT",
    "MAX_CARD_TEXT",
    "MAX_FOLLOW_KEY",
    "MAX_LABEL",
    "MAX_RANGE",
    "NO_TIER",
    "REPORT_CSV",
    "REPORT_LANGUAGES",
    "REPORT_PDF",
    "ROWS",
    "STAKE_LIMIT_CENTS",
    "TIE_METHODS",
    "TIE_WINS",
    "WITHIN",
    "BuvettePicture",
    "CardBook",
    "Config",
    "ConfigError",
    "EveningSummary",
    "FairnessCheck",
    "FairnessEvidence",
    "Hall",
    "HallError",
    "HallPort",
    "InvalidCardFile",
    "InvalidNumber",
    "LotTermsError",
    "JournalCheck",
    "Offload",
    "ProgrammeError",
    "RangeError",
    "RangeTooLarge",
    "Rejected",
    "Sale",
    "TierError",
    "action_keys",
    "archive_dir",
    "archived_journal",
    "as_eur",
    "as_plain_csv",
    "ball_counts",
    "ball_phrase",
    "balls_left",
    "browser_keymap",
    "default_wins",
    "display_card_id",
    "expand_ranges",
    "fairness_check",
    "fairness_evidence",
    "flush_times",
    "generate_cards",
    "has_control_character",
    "is_ascii_digits",
    "is_pin",
    "kinds_table",
    "legal_flags",
    "load_config",
    "load_or_create_secret",
    "lotos_in_year",
    "make_card_id",
    "normalize_card_id",
    "number_words",
    "pace_for",
    "parse_amount",
    "parse_eur",
    "parse_int",
    "parse_number",
    "parse_parties",
    "parse_tiers",
    "past_evenings",
    "pin_matches",
    "prize_at",
    "read_prize_code",
    "read_terms",
    "safe_cell",
    "shown_fingerprint",
    "split_card_id",
    "typed_card_code",
    "unknown_actions",
    "utc_now",
    "verify",
    "verify_file",
    "write_csv",
    "write_file",
    "write_json",
    "written_in",
    "year_of",
]

if not TYPE_CHECKING:  # hidden from the checker, so that a name the block above does not hold stays an error
    from hall.lazy import loader as _loader

    __getattr__, __dir__ = _loader(__name__, __file__, globals())
