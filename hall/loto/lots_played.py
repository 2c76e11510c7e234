"""What a partie plays when it starts: the programme's lots (values and donors included), unless the speaker
changed them on the spot — and then which lots were changed, for the report.

Pure, stdlib only. The programme's next partie is its own lots with the lots carried over by « démarquez », each
played where its kind plays (RULES L19, docs/loto-rules.md L19a). Whatever starts the partie (the console, the keypad through it, the API with or
without ``lots``) goes through ``lots_to_play``: a lot sent that names a programme lot (same kind and label,
its value and donor not contradicted) is that lot, value and donor kept; anything else is a change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hall.events import LotSpec
from hall.loto.lots import KIND_RANK


def play_order(lots: Sequence[LotSpec]) -> tuple[LotSpec, ...]:
    """``lots`` in the order a partie plays them (RULES L7, L19): its quines, then its double quines, then its
    cartons pleins (the table's order, ``hall.loto.lots.KIND_RANK``), each kind in the order given. A partie never
    plays a carton plein while one of its quines is still to be played."""
    return tuple(sorted(lots, key=lambda lot: KIND_RANK.get(lot.kind, len(KIND_RANK))))


def next_lots(own: Sequence[LotSpec], carried: Sequence[LotSpec]) -> tuple[LotSpec, ...]:
    """The next partie's lots: each carried lot where its kind plays, before the partie's own lots of that kind
    (they were promised first), then the partie's own (RULES L19)."""
    return play_order(tuple(carried) + tuple(own))


def _names(sent: LotSpec, planned: LotSpec) -> bool:
    """Whether ``sent`` names ``planned``: same kind, label and terms; a value or donor sent must be the same."""
    return (
        sent.kind == planned.kind
        and sent.label.strip() == planned.label.strip()
        and (sent.row, sent.within, sent.fallback) == (planned.row, planned.within, planned.fallback)
        and (sent.value_eur is None or sent.value_eur == planned.value_eur)
        and (not sent.sponsor or sent.sponsor == planned.sponsor)
    )


def lots_to_play(
    planned: Sequence[LotSpec],
    sent: Sequence[LotSpec] | None,
    carried: Sequence[LotSpec] = (),
    drop_carried: bool = False,
) -> tuple[LotSpec, ...]:
    """The lots a start plays: ``planned`` when nothing is sent, else each lot sent, as the programme's lot it
    names (value and donor kept) or as sent. A lot ``carried`` by « Démarquez » (among ``planned``) that no lot sent
    names is played all the same, where its kind plays (RULES L19): it was promised to the hall as « reporté », and
    a start that names its own lots (a console, an integration that knows nothing of carried lots) never drops it
    in silence; only ``drop_carried``, the speaker's explicit choice, leaves it out (the report says so)."""
    if not sent:
        return tuple(planned)
    free = list(planned)
    out = []
    for lot in sent:
        match = next((i for i, p in enumerate(free) if _names(lot, p)), None)
        out.append(lot if match is None else free.pop(match))
    kept: list[LotSpec] = []
    if not drop_carried:
        for lot in carried:
            if lot in free:
                free.remove(lot)
                kept.append(lot)
    return play_order(kept + out)


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
    changes += [LotChange(p, None) for p in left[len(extra) :]]
    changes += [LotChange(None, q) for q in extra[len(left) :]]
    return tuple(changes)
