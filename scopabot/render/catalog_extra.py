"""The catalog's continuation (``catalog.py`` holds the rest): counts, durations and the
reasons of refusals, key -> (English, Italian), merged into ``CATALOG``.

A key ending in ``.one`` is the singular of the key without it, ``.vowel`` the Italian form
before a number read with a vowel first ("agli 11"): :func:`scopabot.render.i18n.trn` picks.
The reasons (``illegal.*``, ``option.*``) follow "Mossa non consentita:" / "Opzione non
possibile:", written from the service's data (the rule, the cards), never from its English.
"""

from __future__ import annotations

from typing import Final

EXTRA: Final[dict[str, tuple[str, str]]] = {
    # Durations (a turn's time)
    "time.seconds": ("{n} s", "{n} s"),
    "time.minutes": ("{n} min", "{n} min"),
    "time.minutes_seconds": ("{m} min {s} s", "{m} min {s} s"),
    "time.hours": ("{n} hours", "{n} ore"),
    "time.hours.one": ("{n} hour", "{n} ora"),
    "time.days": ("{n} days", "{n} giorni"),
    "time.days.one": ("{n} day", "{n} giorno"),
    # Statistics, counted
    "stats.games": ("{n} matches", "{n} partite"),
    "stats.games.one": ("{n} match", "{n} partita"),
    "stats.wins": ("{n} won", "{n} vinte"),
    "stats.wins.one": ("{n} won", "{n} vinta"),
    "stats.scope": ("{n} scope", "{n} scope"),
    "stats.scope.one": ("{n} scopa", "{n} scopa"),
    "stats.settebelli": ("{n} settebelli", "{n} settebelli"),
    "stats.settebelli.one": ("{n} settebello", "{n} settebello"),
    # A server whose managers chose no language
    "settings.language_auto": (
        "public messages in {language}, the server's Discord language",
        "messaggi pubblici in {language}, la lingua del server su Discord",
    ),
    # Why a move is refused (engine IllegalReason)
    "illegal.game_over": ("the match is over.", "la partita è finita."),
    "illegal.not_your_turn": ("it is not your turn.", "non è il tuo turno."),
    # A card the player named but does not hold, or a capture not on the table, is not named
    # back: it may be in someone else's hand, and nothing of another's hand is ever written.
    "illegal.not_in_hand": ("you do not hold that card.", "quella carta non è nella tua mano."),
    "illegal.not_on_table": (
        "the cards to take must be on the table.",
        "le carte da prendere devono essere in tavola.",
    ),
    "illegal.must_capture": (
        "{card} must take {options}.",
        "{card} deve prendere {options}.",
    ),
    "illegal.must_take_same_value": (
        "a card of the same value is on the table, so {card} must take {options}.",
        "in tavola c'è una carta dello stesso valore, quindi {card} deve prendere {options}.",
    ),
    "illegal.wrong_sum": (
        "{card} cannot take those cards; it can take {options}.",
        "{card} non può prendere quelle carte; può prendere {options}.",
    ),
    "illegal.wrong_sum.none": (
        "{card} takes nothing here: lay it on the table.",
        "{card} qui non prende niente: calala in tavola.",
    ),
    "illegal.or": (" or ", " oppure "),
    "illegal.unknown": ("the rules do not allow it.", "le regole non lo consentono."),
    # Why options are refused (engine RulesProblem)
    "option.players": (
        "scopa is played by 2, 3 or 4 players, not {value}.",
        "a scopa si gioca in 2, 3 o 4, non in {value}.",
    ),
    "option.pairs": (
        "scopone is played by 4 players in two pairs.",
        "lo scopone si gioca in 4, a coppie.",
    ),
    "option.deals": (
        "a match has 1 to {max} deals, not {value}.",
        "una partita ha da 1 a {max} smazzate, non {value}.",
    ),
    "option.target": (
        "the target is 1 to {max} points, not {value}.",
        "il traguardo va da 1 a {max} punti, non {value}.",
    ),
    "option.no_end": (
        "a match needs a target or a number of deals.",
        "una partita ha bisogno di un traguardo o di un numero di smazzate.",
    ),
    "option.unknown_option": (
        "I do not know the option “{option}”.",
        "non conosco l'opzione “{option}”.",
    ),
    "option.bad_choice": (
        "“{value}” is not one of the choices of {option}.",
        "“{value}” non è tra le scelte di {option}.",
    ),
    # The end of a deal (render/deal.py): its own message in the thread, "la conta"
    "deal.end": ("End of deal {deal}", "Fine della smazzata {deal}"),
    "deal.leftovers": (
        "The cards left on the table go to {name}: {cards}.",
        "Le carte rimaste in tavola vanno a {name}: {cards}.",
    ),
    "deal.totals": ("Score ({goal}): {points}", "Punteggio ({goal}): {points}"),
}
