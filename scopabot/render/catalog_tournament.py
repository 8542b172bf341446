"""The catalog's sentences of tournaments, key -> (English, Italian), merged into ``CATALOG``."""

# ruff: noqa: E501  (sentences of a catalog read best on one line)
from __future__ import annotations

from typing import Final

TOURNAMENT: Final[dict[str, tuple[str, str]]] = {
    "tour.format.round_robin": ("round robin", "girone all'italiana"),
    "tour.format.swiss": ("Swiss system", "sistema Danese"),
    "tour.format.knockout": ("knock-out", "eliminazione diretta"),
    "tour.format.groups": ("groups then knock-out", "gironi ed eliminazione diretta"),
    "tour.created": (
        "**{name}** ({format}, #{id}) is open: join with `/scopa tournament join`.",
        "**{name}** ({format}, n. {id}) è aperto: iscriviti con `/scopa torneo iscriviti`.",
    ),
    "tour.joined": (
        "{who} joined **{name}** ({n} entered).",
        "{who} si iscrive a **{name}** ({n} iscritti).",
    ),
    "tour.left": ("{who} left **{name}**.", "{who} lascia **{name}**."),
    "tour.withdrew": ("{who} withdrew from **{name}**.", "{who} si ritira da **{name}**."),
    "tour.started": (
        "**{name}** has started with {n} entries.",
        "**{name}** è cominciato con {n} iscritti.",
    ),
    "tour.round": (
        "## {name} · round {n}\nThe round ends <t:{ts}:F> (<t:{ts}:R>).",
        "## {name} · turno {n}\nIl turno finisce <t:{ts}:F> (<t:{ts}:R>).",
    ),
    "tour.match": ("{a} v {b}: {table}", "{a} contro {b}: {table}"),
    "tour.table_soon": ("table opening", "tavolo in apertura"),
    "tour.bye": ("{a}: a bye (it counts as a win)", "{a}: turno libero (vale una vittoria)"),
    "tour.rest": ("{a} rests this round", "{a} riposa in questo turno"),
    "tour.decided": ("{a} v {b}: {result}", "{a} contro {b}: {result}"),
    "tour.winner": ("🏆 **{name}** is won by {winner}!", "🏆 **{name}**: vince {winner}!"),
    "tour.no_winner": (
        "**{name}** ended without a winner.",
        "**{name}** è finito senza vincitore.",
    ),
    "tour.cancelled": (
        "**{name}** was called off by its organiser.",
        "**{name}** è stato annullato da chi lo organizza.",
    ),
    "tour.none": ("There is no tournament here.", "Qui non c'è nessun torneo."),
    "tour.standings": (
        "## {name} · standings ({page}/{pages})",
        "## {name} · classifica ({page}/{pages})",
    ),
    "tour.standings_head": (
        "Place · entry · played, won, lost · points · tie-break · points scored–conceded",
        "Posto · iscritto · giocate, vinte, perse · punti · spareggio · punti fatti–subiti",
    ),
    "tour.standings_line": (
        "{rank}. {who} · {played}, {won}, {lost} · **{points}** · {tiebreak} · {scored}–{conceded}",
        "{rank}. {who} · {played}, {won}, {lost} · **{points}** · {tiebreak} · {scored}–{conceded}",
    ),
    "tour.withdrawn": ("(withdrew)", "(ritirato)"),
    "tour.group": ("Group {group}", "Girone {group}"),
    "tour.bracket": ("## {name} · bracket", "## {name} · tabellone"),
    "tour.round_label": ("**Round {n}**", "**Turno {n}**"),
    "tour.final": ("**Final**", "**Finale**"),
    "tour.semi_final": ("**Semi-finals**", "**Semifinali**"),
    "tour.bracket_line": ("{a} {points} {b}{mark}", "{a} {points} {b}{mark}"),
    "tour.playing": ("playing", "in corso"),
    "tour.walkover": ("walkover", "a tavolino"),
    "tour.resigned": ("by resignation", "per abbandono"),
    "tour.by_organiser": ("decided by the organiser", "decisa da chi organizza"),
    "tour.abandoned": (
        "The match of {who} in **{name}** is decided by its organiser: {result}.",
        "La partita di {who} in **{name}** è decisa da chi organizza: {result}.",
    ),
    "tour.abandoned_lost": ("{loser} loses it", "la perde {loser}"),
    "tour.abandoned_both": ("both sides lose it", "la perdono entrambi"),
    "tour.role_set": (
        "Members with {role} may now organise tournaments.",
        "Chi ha il ruolo {role} ora può organizzare tornei.",
    ),
    "tour.role_cleared": (
        "Only server managers organise tournaments now.",
        "Ora organizza tornei solo chi gestisce il server.",
    ),
    "tour.stats": ("Tournaments: {list}", "Tornei: {list}"),
    "tour.stats_won": ("won", "vinto"),
    "tour.both_lost": ("both lost", "persa da entrambi"),
    "tour.empty": ("Nobody has entered yet.", "Non si è ancora iscritto nessuno."),
    "tour.info": (
        "**{name}** · {format} · {status} · {n} entered",
        "**{name}** · {format} · {status} · {n} iscritti",
    ),
    "tour.status.registering": ("registration open", "iscrizioni aperte"),
    "tour.status.playing": ("round {round}", "turno {round}"),
    "tour.status.finished": ("finished", "finito"),
    "tour.status.cancelled": ("called off", "annullato"),
    # What each player is told when a round starts (a DM, or a mention at their table)
    "tour.you.match": (
        "**{name}** · round {n}: you play against {opponent}{partner}; your table: {table}.\nThe round ends <t:{ts}:F> (<t:{ts}:R>): a match nobody started by then is lost by the side that never played.",
        "**{name}** · turno {n}: giochi contro {opponent}{partner}; il tuo tavolo: {table}.\nIl turno finisce <t:{ts}:F> (<t:{ts}:R>): una partita non cominciata per allora è persa da chi non ha mai giocato.",
    ),
    "tour.you.partner": (", with {partner} as your partner", ", in coppia con {partner}"),
    "tour.you.computer": ("a computer player", "un giocatore del computer"),
    "tour.you.bye": (
        "**{name}** · round {n}: you have a bye (it counts as a win). The round ends <t:{ts}:F> (<t:{ts}:R>).",
        "**{name}** · turno {n}: hai il turno libero (vale una vittoria). Il turno finisce <t:{ts}:F> (<t:{ts}:R>).",
    ),
    "tour.you.rest": (
        "**{name}** · round {n}: you rest this round. It ends <t:{ts}:F> (<t:{ts}:R>).",
        "**{name}** · turno {n}: in questo turno riposi. Finisce <t:{ts}:F> (<t:{ts}:R>).",
    ),
    "tour.you.dm_closed": (
        "{mention} (your direct messages are closed, so here): {text}",
        "{mention} (non accetti messaggi diretti, quindi qui): {text}",
    ),
    # The pictures and their alt text
    "tour.pic.standings": (
        "{name} · standings ({page}/{pages})",
        "{name} · classifica ({page}/{pages})",
    ),
    "tour.pic.bracket": ("{name} · bracket", "{name} · tabellone"),
    "tour.pic.round": ("Round {n}", "Turno {n}"),
    "tour.pic.final": ("Final", "Finale"),
    "tour.pic.semi_final": ("Semi-finals", "Semifinali"),
    "tour.pic.bye": ("bye", "turno libero"),
    "tour.pic.rest": ("rests", "riposa"),
    "tour.pic.none": (
        "No match has been paired yet.",
        "Non è ancora stata sorteggiata nessuna partita.",
    ),
    "tour.col.entry": ("Entry", "Iscritto"),
    "tour.col.played": ("P", "G"),
    "tour.col.won": ("W", "V"),
    "tour.col.lost": ("L", "P"),
    "tour.col.points": ("Pts", "Punti"),
    "tour.col.tiebreak": ("TB", "Sp."),
    "tour.col.scored": ("For–ag.", "Fatti–sub."),
    "tour.alt.standings": (
        "{name}, standings (page {page} of {pages}):",
        "{name}, classifica (pagina {page} di {pages}):",
    ),
    "tour.alt.standing": (
        "{rank}. {who}, points {points} (played {played}, won {won}, lost {lost}; tie-break {tiebreak}; points scored {scored}, conceded {conceded})",
        "{rank}. {who}, punti {points} (giocate {played}, vinte {won}, perse {lost}; spareggio {tiebreak}; punti fatti {scored}, subiti {conceded})",
    ),
    "tour.alt.bracket": ("{name}, bracket.", "{name}, tabellone."),
    "tour.alt.playing": ("{a} v {b}, being played", "{a} contro {b}, in corso"),
    "tour.alt.both_lost": ("{a} v {b}, lost by both", "{a} contro {b}, persa da entrambi"),
    "tour.alt.walkover": ("{winner} beat {loser} by walkover", "{winner} batte {loser} a tavolino"),
    "tour.alt.resigned": (
        "{winner} beat {loser} by resignation",
        "{winner} batte {loser} per abbandono",
    ),
    "tour.alt.by_organiser": (
        "{winner} beat {loser}, decided by the organiser",
        "{winner} batte {loser}, decisa da chi organizza",
    ),
    "tour.alt.beat": ("{winner} beat {loser} {points}", "{winner} batte {loser} {points}"),
    # Refusals (after "Nothing changed" in spirit: every refusal changes nothing)
    "err.unknown_tournament": ("I do not know that tournament.", "Non conosco questo torneo."),
    "err.not_organiser": (
        "Only the organiser (or a server manager, or the organisers' role) can do that.",
        "Solo chi organizza (o chi gestisce il server, o il ruolo degli organizzatori) può farlo.",
    ),
    "err.not_registering": (
        "Registration is closed: the tournament is under way or over.",
        "Le iscrizioni sono chiuse: il torneo è in corso o finito.",
    ),
    "err.tournament_not_playing": ("The tournament is not under way.", "Il torneo non è in corso."),
    "err.already_entered": (
        "<@{user}> is already entered in this tournament.",
        "<@{user}> è già iscritto a questo torneo.",
    ),
    "err.not_entered": (
        "You are not entered in this tournament.",
        "Non sei iscritto a questo torneo.",
    ),
    "err.already_withdrawn": ("You have already withdrawn.", "Ti sei già ritirato."),
    "err.pairs_only_four": (
        "Pairs play at four-player tables: this tournament has two-player tables.",
        "Le coppie giocano ai tavoli da quattro: questo torneo ha tavoli da due.",
    ),
    "err.same_person": ("A pair is two different people.", "Una coppia è di due persone diverse."),
    "err.too_few_entries": (
        "{entries} entered: at least {needed} are needed to start.",
        "{entries} iscritti: ne servono almeno {needed} per cominciare.",
    ),
    "err.odd_solos": (
        "An odd number of people entered without a partner: one more is needed, or one fewer.",
        "Si è iscritto senza compagno un numero dispari di persone: ne serve una in più, o una in meno.",
    ),
    "err.bad_format": (
        "There is no such tournament format.",
        "Non esiste questa formula di torneo.",
    ),
    "err.bad_rounds": (
        "A Swiss tournament has 1 to {most} rounds.",
        "Un torneo a sistema Danese ha da 1 a {most} turni.",
    ),
    "err.bad_groups": (
        "Groups then knock-out: 1 to 16 groups, 1 to 8 going through from each.",
        "Gironi ed eliminazione: da 1 a 16 gironi, da 1 a 8 qualificati per girone.",
    ),
    "err.bad_round_length": (
        "A round lasts from {least} hour to {most} hours.",
        "Un turno dura da {least} ora a {most} ore.",
    ),
    "err.no_match_to_decide": (
        "<@{user}> has no match of this round still to decide.",
        "<@{user}> non ha partite di questo turno ancora da decidere.",
    ),
    "err.bad_seeding": (
        "Seeds come from the ratings or a draw.",
        "Le teste di serie vengono dalle classifiche o da un sorteggio.",
    ),
}
