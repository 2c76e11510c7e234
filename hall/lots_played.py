"""What a partie plays when it starts: the programme's lots (values and donors included), unless the speaker
changed them on the spot — and then which lots were changed, for the report.

Pure, stdlib only. The programme's next partie is its own lots after the lots carried over by « démarquez »
(docs/loto-rules.md, L16a). Whatever starts the partie (the console, the keypad through it, the API with or
without ``lots``) goes through ``lots_to_play``: a lot sent that names a programme lot (same kind and label,
its value and donor not contradicted) is that lot, value and donor kept; anything else is a change.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hall.events import LotSpec


def next_lots(own: Sequence[LotSpec], carried: Sequence[LotSpec]) -> tuple[LotSpec, ...]:
    """The next partie's lots: the carried ones first (they were promised), then the partie's own."""
    return tuple(carried) + tuple(own)


def _names(sent: LotSpec, planned: LotSpec) -> bool:
    """Whether ``sent`` names ``planned``: same kind and label; a value or donor sent must be the same."""
    return (sent.kind == planned.kind and sent.label.strip() == planned.label.strip()
            and (sent.value_eur is None or sent.value_eur == planned.value_eur)
            and (not sent.sponsor or sent.sponsor == planned.sponsor))


def lots_to_play(planned: Sequence[LotSpec], sent: Sequence[LotSpec] | None) -> tuple[LotSpec, ...]:
    """The lots a start plays: ``planned`` when nothing is sent, else each lot sent, as the programme's lot it
    names (value and donor kept) or as sent."""
    if not sent:
        return tuple(planned)
    free = list(planned)
    out = []
    for lot in sent:
        match = next((i for i, p in enumerate(free) if _names(lot, p)), None)
        out.append(lot if match is None else free.pop(match))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class LotChange:
    """A lot of the programme played otherwise: ``planned`` replaced by ``played``; ``planned`` None: a lot
    added on the spot; ``played`` None: a programme lot left out."""

    planned: LotSpec | None
    played: LotSpec | None


def lot_changes(planned: Sequence[LotSpec], played: Sequence[LotSpec]) -> tuple[LotChange, ...]:
    """What differs between the programme's lots and the lots played (the order alone is no change)."""
    left = list(planned)
    extra = []
    for lot in played:
        if lot in left:
            left.remove(lot)
        else:
            extra.append(lot)
    changes = [LotChange(p, q) for p, q in zip(left, extra)]
    changes += [LotChange(p, None) for p in left[len(extra):]]
    changes += [LotChange(None, q) for q in extra[len(left):]]
    return tuple(changes)
