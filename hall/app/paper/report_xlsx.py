"""The evening's report as a spreadsheet workbook (openpyxl): the treasurer opens it and retypes nothing.

One sheet per rubric (the summary, the sales, the lots given, the lots not given, the takings, the parties, the
winners, the draws, the refused claims, the vouchers, what was done outside the rules, the balls' frequencies),
French headers (English for an English hall, ``[hall] language``). The cells are typed: carton IDs, voucher codes and
names are text (``000123`` stays ``000123``), amounts are numbers in euros with a euro number format (they add up),
counts are integers, times are dates in the hall's time zone. Same source as the CSV: ``hall.money.report.EveningReport``.
"""

from __future__ import annotations

import os
from typing import IO

from hall.app.paper.xlsx_book import N_, Book, Cell, Text, in_euros
from hall.cartons.sales import NO_TIER
from hall.money.report import TOTAL_LABELS, EveningReport
from hall.money.report_lots import TO_PLAY
from hall.record.durable import replacing

XlsxTarget = str | os.PathLike[str] | IO[bytes]


def write_report_xlsx(report: EveningReport, target: XlsxTarget) -> None:
    """Write ``report`` as a workbook to ``target`` (a file name or a binary file object)."""
    b = Book(report)
    say, t = b.say, report.takings
    summary: list[list[Cell]] = [
        [say(N_("Salle")), report.hall_name, None],
        [say(N_("Début")), b.when(report.first_at), None],
        [say(N_("Dernier événement")), b.when(report.last_at), None],
        [say(N_("Lotos de l'année (celui-ci compris)")), report.lotos_this_year, None],
    ]
    summary += [[say(label), report.totals.get(key, 0), None] for key, label in TOTAL_LABELS.items()]
    if t is not None:
        summary += [
            [say(N_("Cartons vendus (payés)")), t.totals["cards_sold"], in_euros(t.receipts_cents)],
            [say(N_("Cartons réservés non payés")), t.totals["cards_reserved"], in_euros(t.totals["reserved_cents"])],
            [say(N_("Valeur totale des lots")), len(t.given), in_euros(t.given_cents)],
            [say(N_("dont lots offerts (donateurs)")), None, in_euros(t.donated_cents)],
            [say(N_("dont lots achetés")), None, in_euros(t.bought_cents)],
            [say(N_("Solde (recette − lots achetés donnés)")), None, in_euros(t.balance_cents)],
            [say(N_("Lots non donnés (hors solde)")), len(t.not_given), in_euros(t.kept_cents)],
        ]
    b.sheet(N_("Résumé"), [N_("Rubrique"), N_("Nombre"), N_("Montant")], summary)
    if t is not None:
        _money(b, report)
    _play(b, report)
    if hasattr(target, "write"):
        b.wb.save(target)
    else:  # a file: through the hall's durable writer (a cut leaves old or new)
        with replacing(target) as out:
            b.wb.save(out)


def _money(b: Book, report: EveningReport) -> None:
    t = report.takings
    assert t is not None
    b.sheet(
        N_("Ventes"),
        [
            N_("N°"),
            N_("Heure"),
            N_("Cartons"),
            N_("Nombre"),
            N_("Paiement"),
            N_("État"),
            N_("Vendeur"),
            N_("Acheteur"),
            N_("Partie"),
            N_("Tarif"),
            N_("Encaissé"),
            N_("Montant de la vente"),
            N_("Rôle"),
            N_("Session"),
        ],
        [
            [
                s.sale_id,
                b.when(s.at),
                Text(" ".join(s.cards)),
                len(s.cards),
                b.state(s.payment),
                b.state("voided" if s.voided else "paid" if s.paid else "reserved"),
                s.seller,
                s.buyer,
                s.partie,
                None if s.offered_cents in (None, NO_TIER) else in_euros(s.offered_cents),
                in_euros(s.cents if s.paid and not s.voided else 0),
                in_euros(s.cents),
                s.role,
                s.session,
            ]
            for s in t.sales
        ],
    )
    b.sheet(
        N_("Lots donnés"),
        [
            N_("Partie"),
            N_("Lot"),
            N_("Type"),
            N_("Libellé"),
            N_("Carton"),
            N_("Gagnant"),
            N_("Bon"),
            N_("Donateur"),
            N_("Valeur"),
            N_("Reporté de la partie"),
            N_("Signalement"),
        ],
        [
            [
                v.partie,
                v.lot,
                b.kind(v.kind),
                v.label,
                Text(" ".join(v.cards)),
                ", ".join(x for x in v.buyers if x),
                Text(" ".join(v.vouchers)),
                v.sponsor,
                in_euros(v.cents),
                v.carried_from,
                " ; ".join(b.state(f) for f in v.flags),
            ]
            for v in t.given
        ],
    )
    b.sheet(
        N_("Lots non donnés"),
        [
            N_("Partie"),
            N_("Lot"),
            N_("Type"),
            N_("Libellé"),
            N_("Pourquoi"),
            N_("Reporté à la partie"),
            N_("Donateur"),
            N_("Valeur"),
            N_("Reporté de la partie"),
            N_("Signalement"),
        ],
        [
            [
                v.partie,
                v.lot,
                b.kind(v.kind),
                v.label,
                b.state(v.fate),
                v.carried_to if v.fate == TO_PLAY else None,
                v.sponsor,
                in_euros(v.cents),
                v.carried_from,
                " ; ".join(b.state(f) for f in v.flags),
            ]
            for v in t.not_given
        ],
    )
    totals = t.totals
    takings: list[list[Cell]] = [
        [b.say(N_("Paiement")), b.state(k), in_euros(v)] for k, v in totals["by_payment"].items()
    ]
    takings += [[b.say(N_("Vendeur")), k, in_euros(v)] for k, v in sorted(totals["by_seller"].items())]
    takings += [
        [b.say(N_("Partie")), k or b.say(N_("toute la soirée")), in_euros(v)]
        for k, v in sorted(totals["by_partie"].items())
    ]
    b.sheet(N_("Recette"), [N_("Rubrique"), N_("Détail"), N_("Montant")], takings)
    b.sheet(
        N_("Hors tarif"),
        [
            N_("N°"),
            N_("Heure"),
            N_("Cartons"),
            N_("Nombre"),
            N_("Tarif"),
            N_("Encaissé"),
            N_("Écart"),
            N_("Vendeur"),
            N_("Rôle"),
            N_("Session"),
        ],
        [
            [
                s.sale_id,
                b.when(s.at),
                Text(" ".join(s.cards)),
                len(s.cards),
                None if s.offered_cents in (None, NO_TIER) else in_euros(s.offered_cents),
                in_euros(s.cents),
                None if s.offered_cents in (None, NO_TIER) else in_euros(s.cents - (s.offered_cents or 0)),
                s.seller,
                s.role,
                s.session,
            ]
            for s in t.price_differs
        ],
    )
    b.sheet(
        N_("Lots changés"),
        [N_("Partie"), N_("Heure"), N_("Changement"), N_("Au programme"), N_("Joué"), N_("Rôle"), N_("Session")],
        [
            [
                c.partie,
                b.when(c.at),
                b.state("added" if c.planned is None else "dropped" if c.played is None else "replaced"),
                "" if c.planned is None else c.planned.label,
                "" if c.played is None else c.played.label,
                c.role,
                c.session,
            ]
            for c in t.changes
        ],
    )
    b.sheet(
        N_("Marqués à la main"),
        [N_("Heure"), N_("Vendus"), N_("Nombre"), N_("Cartons"), N_("Rôle"), N_("Session")],
        [[b.when(m.at), m.sold, len(m.cards), Text(" ".join(m.cards)), m.role, m.session] for m in t.marks],
    )


def _play(b: Book, report: EveningReport) -> None:
    parties = report.parties
    b.sheet(
        N_("Parties"),
        [
            N_("Partie"),
            N_("État"),
            N_("Début"),
            N_("Fin"),
            N_("Boules tirées"),
            N_("Démarquée avec des lots restants"),
            N_("Consolation"),
        ],
        [
            [
                p.number,
                b.state(p.status),
                b.when(p.started_at),
                b.when(p.ended_at),
                len(p.draws),
                p.forced,
                p.consolation_label,
            ]
            for p in parties
        ],
    )
    b.sheet(
        N_("Gagnants"),
        [
            N_("Partie"),
            N_("Lot"),
            N_("Type"),
            N_("Libellé"),
            N_("Carton"),
            N_("Rangées"),
            N_("Dernière boule"),
            N_("Boules"),
            N_("Comment"),
            N_("Heure"),
            N_("Reporté de la partie"),
        ],
        [
            [
                lot.partie,
                lot.lot,
                b.kind(lot.kind),
                lot.label,
                Text(card),
                " ".join(map(str, rows)),
                lot.last,
                lot.balls,
                b.state("shared" if lot.shared else "tie_break" if lot.tie_break else "single"),
                b.when(lot.at),
                lot.carried_from,
            ]
            for p in parties
            for lot in p.lots
            if lot.awarded
            for card, rows in zip(lot.winners, lot.rows)
        ],
    )
    b.sheet(
        N_("Tirages"),
        [N_("Partie"), N_("Ordre"), N_("Numéro"), N_("Heure")],
        [[p.number, k, n, b.when(at)] for p in parties for k, (n, at) in enumerate(p.draws, 1)],
    )
    b.sheet(
        N_("Boules annulées"),
        [N_("Partie"), N_("Rang"), N_("Numéro"), N_("Heure"), N_("Rôle")],
        [[u.partie, u.order, u.number, b.when(u.at), u.role] for p in parties for u in p.undos],
    )
    b.sheet(
        N_("Réclamations refusées"),
        [N_("Partie"), N_("Lot"), N_("Carton"), N_("Verdict"), N_("Dernière boule"), N_("Heure"), N_("Rôle")],
        [
            [c.partie, c.lot, Text(c.card_id), b.state(c.verdict), c.last, b.when(c.at), c.role]
            for p in parties
            for c in p.claims
        ],
    )
    b.sheet(
        N_("Bons"),
        [
            N_("Code"),
            N_("N°"),
            N_("Partie"),
            N_("Lot"),
            N_("Type"),
            N_("Lot remis"),
            N_("Carton"),
            N_("Consolation"),
            N_("Partagé"),
            N_("Imprimé"),
            N_("Réimpressions"),
            N_("Remis"),
            N_("Émis"),
            N_("Remis le"),
        ],
        [
            [
                Text(v.code),
                v.serial,
                v.partie,
                v.lot,
                b.kind(v.kind),
                v.label,
                Text(v.card_id),
                v.consolation,
                v.shared,
                v.printed,
                v.reprints,
                v.redeemed,
                b.when(v.issued_at),
                b.when(v.redeemed_at),
            ]
            for v in report.vouchers
        ],
    )
    b.sheet(N_("Fréquences"), [N_("Numéro"), N_("Parties")], [[n, c] for n, c in report.frequencies.items()])
