"""The words the page scripts show (``boot.strings``, ``t("key")`` and ``tn("key", n)`` in common.js), in the
reader's language: one table by key, with the door's (display/door_words.py) and the voice's
(display/voice_words.py) merged in, and the sentences with a count in both forms."""

from __future__ import annotations

from flask_babel import get_translations
from flask_babel import lazy_gettext as _l

from display.buvette_words import BUVETTE_STRINGS
from display.close_words import CLOSE_STRINGS
from display.door_words import DOOR_STRINGS
from display.tombola_words import TOMBOLA_STRINGS
from display.verdict_words import VERDICT_STRINGS
from display.voice_words import VOICE_STRINGS

# The words the page scripts show, by key; ``%(name)s`` is filled in the browser.
JS_STRINGS = {
    "reconnecting": _l("Reconnexion…"),
    "drawn_zero": _l("Aucun numéro tiré"),
    "drawn_one": _l("%(n)s numéro tiré"),
    "drawn_many": _l("%(n)s numéros tirés"),
    "partie": _l("Partie %(n)s"),
    "kind_quine": _l("Quine"),
    "kind_double_quine": _l("Double quine"),
    "kind_carton_plein": _l("Carton plein"),
    "then": _l("ensuite"),
    "checking": _l("Vérification en cours…"),
    "valid_quine": _l("Quine validée — carton %(card)s"),
    "valid_double_quine": _l("Double quine validée — carton %(card)s"),
    "valid_carton_plein": _l("Carton plein validé — carton %(card)s"),
    "false_claim": _l("Fausse annonce — la partie continue"),
    "tie_break": _l("Tirage au sort"),
    "tie_lowest_wins": _l("le plus petit numéro gagne"),
    "tie_highest_wins": _l("le plus grand numéro gagne"),
    "tie_by_hall": _l("Tirage au sort par l'ordinateur"),
    "tie_physical": _l("Tirage à la main : chaque gagnant tire un numéro auprès de l'animateur"),
    "valid_many": _l("%(kind)s : %(n)s cartons valides — %(cards)s"),
    "shared": _l("%(lot)s — partagé entre les cartons %(cards)s"),
    "undone": _l("%(n)s annulé"),
    "clear_carry": _l("Démarquer et reporter ces lots à la partie suivante"),
    "clear_lose": _l("Démarquer : ces lots ne seront pas joués"),
    "tie_title": _l("Égalité : %(n)s cartons gagnants"),
    "tie_choice_draw": _l("Tirage par l'ordinateur, affiché"),
    "tie_choice_physical": _l("Tirage à la main dans la salle (taper les numéros)"),
    "tie_choice_share": _l("Partager le lot"),
    "tie_announced": _l("Annoncé à la salle : %(way)s"),
    "tie_way_draw": _l("Égalité : tirage au sort par l'ordinateur"),
    "tie_way_physical": _l("Égalité : chaque gagnant tire un numéro auprès de l'animateur"),
    "tie_way_share": _l("Égalité : le lot est partagé entre les gagnants"),
    "tie_change_to": _l("Changer pour : %(way)s"),
    "stage_line": _l("%(lot)s : carton %(card)s"),
    "tie_rule_of_the_evening": _l("Règle de la soirée : %(rule)s"),
    "ties_rule_lowest": _l("Égalité : tirage au sort, le plus petit numéro gagne"),
    "ties_rule_highest": _l("Égalité : tirage au sort, le plus grand numéro gagne"),
    "ties_rule_share": _l("Égalité : le lot est partagé"),
    "ties_rule_physical_lowest": _l(
        "Égalité : chaque gagnant tire un numéro auprès de l'animateur, le plus petit gagne"
    ),
    "ties_rule_physical_highest": _l(
        "Égalité : chaque gagnant tire un numéro auprès de l'animateur, le plus grand gagne"
    ),
    "lot_shared": _l("Lot partagé"),
    "tie_bad_number": _l("Un numéro de 1 à 90 pour chaque carton"),
    "vouchers_title": _l("Bons d'échange :"),
    "tie_line": _l("Le carton %(card)s tire le %(n)s"),
    "won": _l("%(lot)s — gagné par le carton %(card)s"),
    "consolation_for": _l("Lot de consolation : %(cards)s"),
    "demarquez": _l("Démarquez !"),
    "partie_starts": _l("La partie %(n)s commence"),
    "journal_after": _l("Empreinte du journal après la partie %(n)s"),
    "journal_closed": _l("Empreinte du journal à la clôture de la soirée"),
    "evening_over": _l("La soirée est terminée : merci et à bientôt !"),
    "journal_how": _l("enregistrement n° %(seq)s — à photographier : loto-hall verify --fingerprint la reconnaît"),
    "next_partie": _l("Prochaine partie : n° %(n)s"),
    "all_awarded": _l("Tous les lots sont gagnés"),
    "welcome": _l("Bienvenue"),
    "previous": _l("Précédents"),
    "wifi_join": _l("1. Le Wi-Fi « %(ssid)s »"),
    "wifi_password": _l("mot de passe : %(password)s"),
    "wifi_then_open": _l("2. Puis le loto"),
    # speaker
    "status_playing": _l("Tirage en cours"),
    "status_checking": _l("Tirage arrêté : vérification"),
    "status_held": _l("Tirage arrêté : lot attribué — + pour reprendre"),
    "status_finished": _l("Tous les lots attribués : faites démarquer"),
    "status_waiting": _l("Pas de partie en cours"),
    "confirm_undo": _l("Annuler le numéro %(n)s ?"),
    "confirm_clear": _l("Démarquer maintenant ? La partie sera terminée."),
    "confirm_clear_force": _l("Il reste des lots ! Démarquer quand même ?"),
    "drawn_ok": _l("%(n)s tiré"),
    "can_claim_none": _l("Personne ne peut crier pour l'instant"),
    "can_claim": _l("%(n)s carton(s) peuvent crier %(kind)s"),
    "slept": _l("Dormeurs (ont laissé passer leur tour)"),
    "no_devices": _l("Aucun appareil branché : saisie à la main"),
    "device_ball_machine": _l("Machine à boules"),
    "device_printer": _l("Imprimante"),
    "device_keypad": _l("Pavé numérique"),
    "device_scanner": _l("Lecteur de codes"),
    "device_relays": _l("Relais des téléphones"),
    "device_ok": _l("OK"),
    "device_degraded": _l("Problème"),
    "device_absent": _l("Débranché"),
    "device_unconfigured": _l("Non configuré"),
    "proposed": _l("La machine propose le %(n)s"),
    "award_result": _l("Lot attribué au carton %(card)s"),
    "vouchers": _l("Bons : %(codes)s"),
    "pending": _l("Cartons gagnants en attente"),
    "menu_resume": _l("Reprendre le tirage"),
    "menu_award": _l("Attribuer le lot"),
    "menu_clear": _l("Démarquez !"),
    "menu_start": _l("Démarrer la partie"),
    "menu_check": _l("Vérifier un carton (taper son numéro)"),
    "menu_announce": _l("Quelqu'un crie ! (arrêter)"),
    "menu_unavailable": _l("Pas maintenant : %(action)s"),
    "nothing_to_undo": _l("Rien à annuler."),
    "resume_blocked": _l("Un carton gagnant attend son lot : attribuez-le d'abord."),
    "no_checks": _l("Aucune vérification"),
    # verdicts (controller, speaker)
    "v_valid": _l("%(lot)s valide !"),
    "v_incomplete": _l("Fausse annonce : il manque %(n)s numéro(s)"),
    "v_unknown_card": _l("Carton inconnu"),
    "v_typo": _l("Vérifiez le numéro : il est mal saisi (caractère de contrôle faux)"),
    "v_near": _l("Vérifiez le numéro : %(cards)s ?"),
    "check_this": _l("Vérifier %(card)s"),
    "redeem_this": _l("C'est le bon %(code)s : le remettre"),
    "v_near_code": _l("Vérifiez le code : il ressemble à un bon de la soirée"),
    "v_unsold_card": _l("Carton non vendu : refusé"),
    "v_cancelled_card": _l("Carton annulé pour cette partie"),
    "v_closed": _l("Aucun lot en jeu : vérification impossible"),
    "vs_valid": _l("Valide"),
    "vs_incomplete": _l("Fausse annonce"),
    "vs_missed": _l("Trop tard"),
    "vs_unknown_card": _l("Carton inconnu"),
    "vs_unsold_card": _l("Non vendu"),
    "vs_cancelled_card": _l("Annulé"),
    "vs_closed": _l("Aucun lot en jeu"),
    "already_checked": _l("Déjà vérifié %(n)s fois"),
    "next_card": _l("Carton suivant"),
    "scan_start": _l("Scanner"),
    "scan_stop": _l("Arrêter la caméra"),
    "no_camera": _l("Caméra indisponible (HTTPS nécessaire) : tapez le numéro"),
    "scanning": _l("Visez le code du carton…"),
    "row": _l("Ligne %(n)s"),
    "last_number": _l("Dernier numéro : %(n)s"),
    # desk
    "redeemed": _l("À remettre : %(lot)s"),
    "redeemed_detail": _l("Partie %(partie)s — carton %(card)s"),
    "consolation": _l("Lot de consolation"),
    "code_voucher": _l("Bon de partie"),
    "code_tombola": _l("Billet de tombola"),
    "code_tombola_n": _l("Billet de tombola n° %(ticket)s"),
    "tombola_lot": _l("Lot n° %(lot)s : %(label)s"),
    "tombola_buyer": _l("Acheteur : %(buyer)s"),
    "hand_lot": _l("Remettre le lot"),
    "lot_handed": _l("Lot remis : n° %(lot)s, %(label)s"),
    "tombola_until": _l("Les lots se retirent jusqu'au %(date)s."),
    "tombola_unclaimed": _l("Ensuite : %(what)s."),
    "tombola_ticket_of": _l("billet n° %(ticket)s"),
    "tombola_not_drawn_yet": _l("La tombola n'est pas encore tirée."),
    "tombola_all_handed": _l("Tous les lots de la tombola sont remis."),
    "connections": _l("Connectés en ce moment : %(n)s (téléphones et écrans)"),
    "relay_spread": _l("Téléphones sur les relais : %(list)s"),
    # « Mes cartons » (the players' phones) and what the projector says of them
    "mc_marked": _l("%(n)s, marqué"),
    "mc_card": _l("Carton %(card)s"),
    "mc_one_to_go": _l("Plus qu'un : %(n)s"),
    "mc_call": _l("%(kind)s ! Criez-le !"),
    "mc_won": _l("Gagné : %(lot)s. Présentez ce carton au stand des lots."),
    "mc_remove_card": _l("Retirer le carton %(card)s"),
    "mc_call_button": _l("%(kind)s ! Prévenir le meneur de jeu"),
    "mc_call_sent": _l("Appel envoyé au meneur de jeu : criez aussi !"),
    "mc_not_drawn": _l("Le %(n)s n'est pas sorti : il ne se marque pas."),
    "mc_is_it": _l("C'est le %(card)s ?"),
    "mc_busy": _l("Toute la salle scanne en même temps : votre carton arrive dans quelques secondes…"),
    "mc_refused_unknown_card": _l("Carton inconnu : %(card)s. Vérifiez le numéro."),
    "mc_refused_unsold_card": _l("Carton %(card)s non vendu : il ne joue pas."),
    "mc_refused_bad_card_id": _l("Numéro de carton illisible."),
    "mc_refused_unknown_sale": _l("Ce QR code de vente n'est pas valable : scannez vos cartons un par un."),
    "mc_refused_too_many_links": _l("Trop de demandes depuis ce téléphone : réessayez dans une minute."),
    "phone_call": _l("Appel d'un téléphone : carton %(card)s, %(lot)s sur le %(n)s (boule n° %(index)s)"),
    "players_follow": _l("Suivez vos cartons sur votre téléphone : scannez le QR code de votre carton"),
    "players_help_off": _l("Suivi des cartons sur téléphone : fermé"),
    "players_help_board": _l("Téléphones : le tableau des numéros seulement"),
    "players_help_tap": _l("Téléphones : touchez chaque numéro pour le marquer"),
    "players_help_auto": _l("Téléphones : vos cartons se marquent tout seuls"),
    "preflight_ok": _l("OK"),
    "preflight_problem": _l("PROBLÈME"),
    "preflight_advice": _l("conseil"),
    "preflight_running": _l("Vérification en cours…"),
    "preflight_ready": _l("Tout est prêt : les portes peuvent ouvrir (gardé au journal, n° %(seq)s)."),
    "preflight_not_ready": _l(
        "À régler avant d'ouvrir les portes : voyez les lignes rouges (gardé au journal, n° %(seq)s)."
    ),
    # common
    "error": _l("Erreur"),
    "network": _l("Service injoignable : réessayez"),
}


def plural(singular: str, many: str) -> tuple[str, str]:
    """A sentence and its plural for the page scripts (extracted with ``-k plural:1,2``, translated with msgid_plural
    in the catalogue); ``tn("key", n, …)`` in common.js picks the form by the page language's plural rule."""
    return singular, many


# Sentences with a count: « 1 carton vendu », « 2 cartons vendus » (French says « 0 carton » too; English « 0 cards »).
JS_PLURALS: dict[str, tuple[str, str]] = {
    "sold_count": plural("%(n)s carton vendu", "%(n)s cartons vendus"),
    "sold_ok": plural("Vendu : %(n)s carton, %(eur)s €", "Vendu : %(n)s cartons, %(eur)s €"),
    "reserved_ok": plural("Réservé : %(n)s carton, %(eur)s € à payer", "Réservé : %(n)s cartons, %(eur)s € à payer"),
    "paid_ok": plural(
        "Réservation payée : %(n)s carton, %(eur)s € (%(pay)s)",
        "Réservation payée : %(n)s cartons, %(eur)s € (%(pay)s)",
    ),
    "reserved_count": plural(
        "réservé, non payé : %(n)s carton, %(eur)s €", "réservés, non payés : %(n)s cartons, %(eur)s €"
    ),
    "sale_line": plural("%(n)s carton · %(eur)s € · %(pay)s", "%(n)s cartons · %(eur)s € · %(pay)s"),
    "pay_what": plural(
        "%(n)s carton, %(eur)s €, pour %(buyer)s. Payé comment ?",
        "%(n)s cartons, %(eur)s €, pour %(buyer)s. Payé comment ?",
    ),
    "suggested": plural("tarif pour %(n)s carton : %(eur)s €", "tarif pour %(n)s cartons : %(eur)s €"),
    "sell_button": plural("Encaisser %(n)s carton — %(eur)s €", "Encaisser %(n)s cartons — %(eur)s €"),
    "reserve_button": plural("Réserver %(n)s carton — %(eur)s € à payer", "Réserver %(n)s cartons — %(eur)s € à payer"),
    "cards_total": plural("%(n)s carton", "%(n)s cartons"),
    "of_them_sold": plural(", dont %(n)s vendu", ", dont %(n)s vendus"),
}


def js_strings() -> dict[str, str]:
    """Every page script's word in the request's language, a sentence with a count as its ``_one`` and ``_other``."""
    words = {key: str(value) for key, value in JS_STRINGS.items()}
    translations = get_translations()
    for key, (singular, many) in JS_PLURALS.items():  # both forms, in the reader's language (ngettext)
        words[key + "_one"] = translations.ngettext(singular, many, 1)
        words[key + "_other"] = translations.ngettext(singular, many, 2)
    return words


# the sales desk (/caisse) and the takings on /admin
JS_STRINGS.update(
    {
        "sell_empty": _l("Ajoutez des cartons"),
        "remove": _l("Retirer"),
        "sale_number": _l("Vente n° %(id)s"),
        "sale_phones": _l("Vos cartons sur votre téléphone : scannez ce code avec l'appareil photo"),
        "takings": _l("Recette : %(eur)s €"),
        "pay_especes": _l("Espèces"),
        "pay_carte": _l("Carte"),
        "pay_cheque": _l("Chèque"),
        "voided": _l("annulée"),
        "reserved": _l("réservé, à payer"),
        "mark_paid": _l("Payé"),
        "scan_cards": _l("Scanner les cartons"),
        "confirm_void": _l("Annuler la vente n° %(id)s ? Ses cartons redeviennent invendus."),
        "void": _l("Annuler"),
        "by_seller": _l("Par vendeur"),
        "by_partie": _l("Par partie"),
        "all_parties": _l("toute la soirée"),
        "flag_cash": _l("Lot en argent : interdit dans un loto traditionnel"),
        "flag_over_limit": _l("Au-dessus du plafond que la salle s'est fixé (%(eur)s €) ; la loi n'en fixe pas"),
        "programme_saved": _l("Programme enregistré : il s'applique à partir de la partie %(n)s"),
        "pin_saved": _l("Code PIN changé pour le rôle %(role)s"),
        "add_lot": _l("+ lot"),
        "add_partie": _l("+ partie"),
        "up": _l("Monter"),
        "down": _l("Descendre"),
        "partie_played": _l("jouée"),  # not "played": the mini-games' word on the same page
        "lot_label": _l("Libellé"),
        "lot_value": _l("Valeur €"),
        "lot_sponsor": _l("Donateur"),
        "consolation_label": _l("Consolation"),
        "partie_n": _l("Partie %(n)s"),
    }
)
JS_STRINGS.update(
    {
        "pin_changed": _l("changé sur cette page (non affiché)"),
        "line_n": _l("ligne %(n)s :"),
        "close": _l("Fermer"),
        "kind": _l("Type de lot"),
        "cards_count_unrecorded": _l(
            "%(n)s cartons ; ventes non enregistrées : tous jouent (la première vente à la caisse change cela)"
        ),
    }
)
# the lots' values at the console, the price tiers, past evenings
JS_STRINGS.update(
    {
        "lot_worth": _l("%(eur)s €"),
        "running": _l("en cours"),
        "tier_one": _l("1 carton %(eur)s €"),
        "tier_many": _l("%(n)s cartons %(eur)s €"),
        "tiers_line": _l("Tarifs : %(tiers)s"),
        "off_tier": _l("Hors tarif (tarif : %(eur)s €) : noté au rapport"),
        "tier_cards": _l("Cartons"),
        "tier_price": _l("Prix €"),
        "tier_each": _l("Le carton"),
        "tiers_saved": _l("Tarifs enregistrés : la caisse les propose dès la prochaine vente"),
        "tier_over_law": _l(
            "Un carton à 20 € ou plus : refusé. Loto traditionnel : les mises sont « inférieures à 20 "
            "euros » (article L322-4 du code de la sécurité intérieure)."
        ),
        "evenings_year": _l(
            "Lotos archivés en %(year)s : %(n)s (l'exonération des six manifestations compte aussi les autres)"
        ),
        "evenings_none": _l("Aucune soirée archivée"),
        "evening_when": _l("Soirée"),
        "evening_parties": _l("Parties"),
        "evening_cards": _l("Cartons"),
        "evening_receipts": _l("Recette"),
        "evening_lots": _l("Lots"),
        "evening_balance": _l("Solde"),
    }
)
# The evening's record on /admin (docs/record.md): the journal's fingerprint, the board's copy, archives' verdicts
JS_STRINGS.update(
    {
        "journal_fingerprint": _l("Empreinte du journal : %(fp)s (enregistrement n° %(seq)s, %(at)s)"),
        "journal_empty": _l("Journal vide : pas encore d'empreinte"),
        "ticket_asked": _l("Copie du bureau demandée : l'imprimante la sort dès qu'elle est prête (empreinte %(fp)s)"),
        "evening_record": _l("Journal"),
        "record_ok": _l("✓ intact"),
        "record_ok_noted": _l("✓ intact, empreinte de l'archivage retrouvée"),
        "record_changed": _l("✗ enregistrement n° %(seq)s modifié"),
        "record_unlinked": _l("✗ enregistrement supprimé ou déplacé avant le n° %(seq)s"),
        "record_missing": _l("✗ enregistrement supprimé avant le n° %(seq)s"),
        "record_unreadable": _l("✗ journal illisible"),
        "record_fingerprint_missing": _l("✗ fin du journal retirée depuis l'archivage"),
        "record_no_journal": _l("— pas de journal"),
    }
)
# The volunteers' evening: questions in the page, the basket read as it fills, plurals
JS_STRINGS.update(
    {
        "ask_yes": _l("Oui"),
        "ask_no": _l("Non"),
        "ask_ok": _l("OK"),
        "ask_cancel": _l("Annuler"),
        "sell_fix_first": _l("Corrigez d'abord les cartons marqués ✗"),
        "basket_unknown": _l("%(card)s : carton inconnu de la salle"),
        "basket_sold": _l("Déjà vendu : %(cards)s"),
        "take_this": _l("Prendre %(card)s"),
        "pay_title": _l("Vente n° %(id)s : encaisser la réservation"),
        "pay_refused": _l("Vente n° %(id)s non encaissée"),
        "evening_files": _l("Rapports"),
        # who opens what (/admin's PINs; README « Who opens what »)
        "role_speaker": _l("Animateur"),
        "role_controller": _l("Contrôleurs"),
        "role_desk": _l("Caisse, lots et tournoi"),
        "role_admin": _l("Admin"),
        "role_buvette": _l("Buvette"),
        "opens_buvette": _l("/buvette"),
        "opens_speaker": _l("/speaker, /controle"),
        "opens_controller": _l("/controle"),
        "opens_desk": _l("/caisse, /lots, /tournoi"),
        "opens_admin": _l("toutes les pages"),
    }
)
# lots as lines: a quine on a named row, a maxi-bingo's jackpot and fallback (RULES L20–L21; lines.js, lot_terms.js)
JS_STRINGS.update(
    {
        "row_name_1": _l("ligne du haut"),
        "row_name_2": _l("ligne du milieu"),
        "row_name_3": _l("ligne du bas"),
        "lot_row_1": _l("sur la ligne du haut"),
        "lot_row_2": _l("sur la ligne du milieu"),
        "lot_row_3": _l("sur la ligne du bas"),
        "lot_within": _l("en %(n)s boules"),
        "jackpot_left": _l("Jackpot : encore %(n)s boules"),
        "jackpot_left_one": _l("Jackpot : encore 1 boule"),
        "jackpot_last_ball": _l("Jackpot : c'est la dernière boule !"),
        "jackpot_lost": _l("Jackpot perdu : on joue pour %(lot)s"),
        "jackpot_lost_banner": _l("Le jackpot est perdu"),
        "v_jackpot": _l("JACKPOT (boule %(ball)s sur %(n)s)"),
        "v_fallback": _l("Lot de repli (boule %(ball)s, jackpot jusqu'à %(n)s)"),
        "v_incomplete_row": _l("Fausse annonce : seule la %(row)s compte"),
        "mc_valid_pending": _l("Validé : %(lot)s. Le lot va être attribué."),
        "mc_won_news": _l("Gagné ! %(lot)s — votre carton %(card)s"),
        "mc_valid_mine": _l("Votre carton %(card)s est validé : %(lot)s"),
        "mc_valid_other": _l("Carton %(card)s validé : %(lot)s"),
        "lot_row_label": _l("Ligne"),
        "lot_row_any": _l("toutes"),
        "lot_within_label": _l("Jackpot en (boules)"),
        "lot_fallback_label": _l("Lot de repli"),
        "lot_fallback_value": _l("Valeur du lot de repli €"),
        "lot_fallback_sponsor": _l("Donateur du lot de repli"),
    }
)
JS_STRINGS.update(
    {  # the projector's jackpot box (projector_lines.js)
        "jackpot_caption": _l("Jackpot en %(n)s boules"),
        "jackpot_more": _l("encore %(n)s boules"),
        "jackpot_more_one": _l("encore 1 boule"),
        "jackpot_last": _l("c'est la dernière boule !"),
    }
)
JS_STRINGS["lot_else"] = _l("sinon : %(lot)s")  # a maxi-bingo announced: its fallback (projector_lines.js)
JS_STRINGS.update(
    {  # the speaker's list of kinds and terms, short (lot_terms.js)
        "choice_quine_row_1": _l("Quine du haut"),
        "choice_quine_row_2": _l("Quine du milieu"),
        "choice_quine_row_3": _l("Quine du bas"),
        "choice_carton_plein_maxi": _l("Maxi-bingo"),
    }
)
JS_STRINGS.update(DOOR_STRINGS)
JS_STRINGS.update(BUVETTE_STRINGS)
JS_STRINGS.update(CLOSE_STRINGS)  # « Clore la soirée » (display/close_words.py)
JS_STRINGS.update(TOMBOLA_STRINGS)
JS_STRINGS.update(VERDICT_STRINGS)  # why a verdict was what it was, everywhere (display/verdict_words.py)
# the hall's voice, the claim ritual, the last five, the pace, the recordings (display/voice_words.py)
JS_STRINGS.update(VOICE_STRINGS)
