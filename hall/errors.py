"""The errors of the hall core: bad input raises a named error (a refused command is ``hall.refusal.Rejected``)."""

from __future__ import annotations


class HallError(Exception):
    """Root of every error the hall core raises on purpose."""


class InvalidNumber(HallError, ValueError):
    """A ball number that is not an integer 1–90 (``"4a"``, ``0``, ``91``, ``""``)."""


class RangeTooLarge(HallError, ValueError):
    """A list of card IDs or ranges naming more cartons than allowed (refused before any is expanded)."""

    def __init__(self, count: int, limit: int):
        self.count, self.limit = count, limit
        super().__init__(f"{count} cartons demandés, {limit} au plus")


class InvalidCard(HallError, ValueError):
    """A carton that breaks the layout rules (INTERFACE §2, RULES L1–L4)."""


class InvalidCardFile(HallError, ValueError):
    """A card CSV with bad lines; ``errors`` lists ``(line_number, message)`` for every one of them."""

    def __init__(self, errors: list[tuple[int, str]]):
        self.errors = list(errors)
        lines = "\n".join(f"  ligne {n} : {msg}" for n, msg in self.errors)
        super().__init__(f"{len(self.errors)} ligne(s) invalide(s), fichier refusé en entier :\n{lines}")


class ConfigError(HallError, ValueError):
    """A configuration file with problems; ``problems`` names every bad key at once."""

    def __init__(self, problems: list[str], source: str = "config"):
        self.problems = list(problems)
        body = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"{source}: {len(self.problems)} problème(s) :\n{body}")


class JournalError(HallError):
    """A durable file (the journal, the rooms', the tournament's) cannot be opened or is of another schema version."""
