"""The words of the hall's voice and of the claim ritual (INTERFACE §11): shown on the projector, the phones and
the consoles (French and English), and said by the voice (French: the hall's voices are French).

``RITUAL`` is the ritual's sentences: each is shown in the reader's language and, with the voice on, said from a
clip rendered once (``/speech/phrase/<key>.wav``); a number of the ritual (« le 8 n'est pas sorti ») is said by
its own clip (``le_8``). ``VOICE_STRINGS`` joins the page scripts' words (display/page_words.py).
"""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

from display.errors import declare

# the ritual, in the order a claim goes: key → sentence (its clip is the French sentence, said by the voice)
RITUAL = {
    "no_unmark": _l("Ne démarquez pas !"),
    "good_quine": _l("La quine est bonne !"),
    "good_double_quine": _l("La double quine est bonne !"),
    "good_carton_plein": _l("Le carton plein est bon !"),
    "bad_quine": _l("La quine n'est pas bonne."),
    "bad_double_quine": _l("La double quine n'est pas bonne."),
    "bad_carton_plein": _l("Le carton plein n'est pas bon."),
    "good": _l("Le carton est bon !"),  # a kind of lot the ritual has no sentence of its own for
    "bad": _l("Le carton n'est pas bon."),
    "late": _l("Trop tard : le dernier numéro n'est pas sur ce carton."),  # a missed, by its reason (RULES L12a)
    "missed_rows": _l("Le dernier numéro n'est pas sur les lignes qui comptent."),
    "missed_paid_quine": _l("Cette ligne a déjà gagné une quine."),
    "missed_paid_double_quine": _l("Cette ligne a déjà gagné une double quine."),
    "missed_paid_carton_plein": _l("Ce carton a déjà gagné le carton plein."),
    "missed_paid": _l("Cette ligne a déjà été payée."),
    "not_out_one": _l("n'est pas sorti."),
    "not_out_many": _l("ne sont pas sortis."),
    "and": _l("et"),
    "others": _l("Y a-t-il d'autres gagnants ?"),
    "unmark": _l("Vous pouvez démarquer."),
    "test": _l("Essai de la voix : un, deux, trois."),
}

VOICE_STRINGS = {
    # the ritual on the projector and the phones (its words; the clips say the French)
    **{"ritual_" + key: text for key, text in RITUAL.items()},
    "ritual_the_number": _l("le %(n)s"),
    "ritual_others_left": _l("encore %(s)s s"),
    "ritual_others_last": _l("dernier appel"),
    "ritual_card": _l("carton %(card)s"),
    "recent_title": _l("Les cinq derniers"),
    "said_again": _l("Je répète : le %(n)s"),
    "hearing_loop": _l("Boucle magnétique : réglez votre appareil sur T"),
    # « Mes cartons »
    "mc_not_heard": _l("Je n'ai pas entendu"),
    "mc_recent": _l("Derniers numéros, le plus récent d'abord : %(numbers)s"),
    "mc_no_ball": _l("Aucun numéro tiré pour l'instant"),
    # the console
    "say_again": _l("Répéter le dernier numéro"),
    "test_voice": _l("Tester la voix"),
    "test_voice_sent": _l("Le projecteur dit la phrase d'essai…"),
    "pace_next": _l("Prochaine boule dans %(s)s s"),
    "pace_now": _l("Prochaine boule : maintenant"),
    "pace_frozen": _l("Rythme arrêté : %(s)s s"),
    "count_show": _l("Compte des boules au projecteur"),
    "count_hide": _l("Retirer le compte des boules"),
    "count_title": _l("Le compte des boules"),
    # /stats: the fairness count on a screen
    "stats_scope": _l("Boules : %(draws)s · parties : %(parties)s · soirées archivées : %(evenings)s, et ce soir"),
    "stats_pending": _l("%(n)s soirée(s) archivée(s) pas encore lue(s) : la page se complète toute seule"),
    "stats_count": _l("%(n)s : %(count)s fois"),
    # /admin
    "voice_state_on": _l("Voix de la salle : %(voice)s, vitesse %(rate)s ([speech] du fichier de configuration)"),
    "voice_state_off": _l("Voix éteinte : [speech] enabled = false dans le fichier de configuration"),
    "rec_recording": _l("Enregistrement du %(n)s : dites-le, puis « Arrêter »"),
    "voice_saved": _l("Enregistré : les projecteurs et les téléphones l'appliquent tout de suite"),
    "rec_record": _l("Enregistrer"),
    "rec_stop": _l("Arrêter"),
    "rec_listen": _l("Écouter"),
    "rec_redo": _l("Refaire"),
    "rec_saved": _l("Le %(n)s est enregistré"),
    "rec_count": _l("Enregistrés : %(n)s sur 90"),
    "rec_no_mic": _l("Micro indisponible (il faut HTTPS ou cette machine) : choisissez un fichier son"),
    "rec_bad_file": _l("Ce fichier n'est pas un son lisible"),
    "rec_too_long": _l("Trop long : 6 secondes au plus par numéro"),
    "nickname_for": _l("Surnom du %(n)s"),
    "pace_for": _l("Rythme de la partie %(n)s (s)"),
}

# the projector's voice as the console shows it (a device, reported by the projector itself)
VOICE_DEVICE_MESSAGES = {
    "voice_speaks": _l("Le projecteur parle (dernier son : %(what)s)."),
    "voice_blocked": _l(
        "Le projecteur est muet : le navigateur refuse le son sans geste (kiosque : "
        "--autoplay-policy=no-user-gesture-required)."
    ),
    "voice_failed": _l("Le projecteur n'a pas pu dire %(what)s : son introuvable ou illisible."),
    "voice_off": _l("Voix éteinte ([speech] enabled = false) : le projecteur affiche sans parler."),
}
VOICE_DEVICE_NAME = _l("Voix du projecteur")

declare(
    "loto",
    {
        "speech_off": (404, _l("La voix de la salle est éteinte ([speech] enabled = false).")),
        "speech_unavailable": (
            503,
            _l("La voix ne peut pas parler : espeak-ng n'est pas installé (apt install espeak-ng)."),
        ),
        "speech_busy": (503, _l("Ce son est en cours de préparation : réessayez dans une seconde.")),
        "not_recorded": (404, _l("Le %(n)s n'est pas encore enregistré : enregistrez-le sur /admin.")),
        "recording_format": (422, _l("Enregistrement refusé : un son WAV (PCM 16 bits) est attendu.")),
        "recording_length": (422, _l("Enregistrement refusé : de 0,2 à 6 secondes par numéro.")),
        "recording_silence": (422, _l("Enregistrement refusé : on n'y entend rien (micro coupé ?).")),
        "nothing_to_repeat": (409, _l("Aucun numéro tiré à répéter.")),
        "too_many_reports": (429, _l("Trop de rapports de ce projecteur : un par seconde au plus.")),
    },
)
