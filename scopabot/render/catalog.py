"""Every sentence ScopaBot writes, in English and Italian: key -> (English, Italian).

A typed dict rather than .po files: the two languages sit side by side, a missing translation
is a visible gap in one line, and ``tests/render`` checks both have the same placeholders.
"""

# ruff: noqa: E501  (sentences of a catalog read best on one line)
from __future__ import annotations

from typing import Final

from .catalog_extra import EXTRA
from .catalog_tournament import TOURNAMENT

CATALOG: Final[dict[str, tuple[str, str]]] = {
    # Presets, levels, sides
    "preset.scopa": ("Scopa", "Scopa"),
    "preset.scopone_scientifico": ("Scopone scientifico", "Scopone scientifico"),
    "preset.scopone_classico": ("Scopone classico", "Scopone classico"),
    "level.random": ("random", "casuale"),
    "level.greedy": ("easy", "facile"),
    "level.normal": ("normal", "normale"),
    "level.hard": ("hard", "difficile"),
    "level.expert": ("expert", "esperto"),
    "computer": ("Computer ({level})", "Computer ({level})"),
    "side.name": ("side {side}", "coppia {side}"),
    # The table message
    "table.number": ("table {id}", "tavolo {id}"),
    "table.sides": ("Players:", "Giocatori:"),
    "table.cards": ("On the table:", "In tavola:"),
    "table.empty": ("nothing", "niente"),
    "table.deck": (
        "Cards in the deck: {deck} · dealer: {dealer} · deal {deal}",
        "Carte nel mazzo: {deck} · mazziere: {dealer} · smazzata {deal}",
    ),
    "table.last": ("Last plays:", "Ultime giocate:"),
    "turn.of": ("{name}'s turn", "Tocca a {name}"),
    "turn.yours": ("Your turn", "Tocca a te"),
    "turn.deadline": ("(time runs out {when})", "(il tempo scade {when})"),
    "turn.ping": ("{mention}, your turn: {table}.", "{mention}, tocca a te: {table}."),
    "remind.dm": (
        "Reminder: your turn ends {when} ({table}). {link}",
        "Promemoria: il tuo turno scade {when} ({table}). {link}",
    ),
    "play.lays": ("{name} lays {card}.", "{name} cala {card}."),
    "play.takes": (
        "{name} plays {card} and takes {taken}",
        "{name} gioca {card} e prende {taken}",
    ),
    "play.scopa": (": scopa!", ": scopa!"),
    "score.line": ("Points ({goal}): {points}", "Punti ({goal}): {points}"),
    "score.scope": (" · scope this deal: {scope}", " · scope in questa smazzata: {scope}"),
    "score.to": ("to {target}", "ai {target}"),
    "score.to.one": ("to {target}", "a {target}"),
    "score.to.vowel": ("to {target}", "agli {target}"),
    "score.deals": ("{deals} deals", "{deals} smazzate"),
    "score.deals.one": ("{deals} deal", "{deals} smazzata"),
    "bd.title": ("Deal {deal}", "Smazzata {deal}"),
    "bd.carte": ("Carte", "Carte"),
    "bd.denari": ("Denari", "Denari"),
    "bd.settebello": ("Settebello", "Settebello"),
    "bd.primiera": ("Primiera", "Primiera"),
    "bd.scope": ("Scope", "Scope"),
    "bd.re_bello": ("Re bello", "Re bello"),
    "bd.napola": ("Napola", "Napola"),
    "bd.total": ("Total", "Totale"),
    "over.won": ("{winner} wins {totals}{why}", "Vince {winner} {totals}{why}"),
    "over.undecided": (
        "The match ends undecided, {totals}",
        "La partita finisce senza vincitori, {totals}",
    ),
    "over.why.target": ("", ""),
    "over.why.deals": (" after the last deal", " dopo l'ultima smazzata"),
    "over.why.napola_reale": (" with all ten denari", " con tutti i dieci denari"),
    "over.why.spareggio": (" in the spareggio", " allo spareggio"),
    "over.why.last_capture_loses": (
        " (the other side made the last capture)",
        " (l'altra parte ha fatto l'ultima presa)",
    ),
    "over.why.undecided": ("", ""),
    "over.why.resign": (": the other side resigned", ": l'altra parte si è ritirata"),
    "over.why.forfeit": (": the other side ran out of time", ": l'altra parte ha perso per tempo"),
    "over.why.abandoned": (" (abandoned)", " (abbandonata)"),
    "rating.title": ("Ratings", "Punteggi in classifica"),
    "rating.change": ("{before} → **{after}** ({diff})", "{before} → **{after}** ({diff})"),
    "rating.change_first": (
        "{before} → **{after}** ({diff}, first rated match)",
        "{before} → **{after}** ({diff}, prima partita in classifica)",
    ),
    "note.dm_closed": (
        "{mention} does not accept direct messages from me: use the **My hand** button here.",
        "{mention} non accetta messaggi diretti da me: usa il pulsante **La mia mano** qui.",
    ),
    "note.timeout": (
        "{name} ran out of time: a computer played the turn.",
        "{name} ha finito il tempo: ha giocato il computer.",
    ),
    "note.handed": (
        "{name} missed three turns: a computer plays for them until they take their seat back.",
        "{name} ha saltato tre turni: gioca il computer finché non riprende il posto.",
    ),
    # Buttons
    "btn.my_hand": ("My hand", "La mia mano"),
    "btn.take_back": ("Take my seat back", "Riprendi il posto"),
    "btn.rematch": ("Rematch", "Rivincita"),
    "btn.back": ("Back", "Indietro"),
    "btn.join": ("Join", "Siediti"),
    "btn.join_side": ("Join side {side}", "Siediti nella coppia {side}"),
    "btn.leave": ("Leave", "Alzati"),
    "btn.add_computer": ("Add computer", "Aggiungi computer"),
    "btn.start": ("Start", "Inizia"),
    "btn.cancel": ("Cancel", "Annulla"),
    "btn.prev": ("Previous", "Precedente"),
    "btn.next": ("Next", "Successiva"),
    "btn.undo": ("Undo", "Annulla l'ultimo"),
    "btn.end": ("End", "Chiudi"),
    # Hands
    "hand.title": ("Your hand", "La tua mano"),
    "hand.link": ("[Go to the table]({url})", "[Vai al tavolo]({url})"),
    "hand.cards": ("Your cards:", "Le tue carte:"),
    "hand.empty": ("none until the next deal", "nessuna fino alla prossima smazzata"),
    "hand.empty_deck": (
        "none until the next cards are dealt",
        "nessuna fino alla prossima distribuzione",
    ),
    "hand.over": ("The match is over.", "La partita è finita."),
    "hand.away": (
        "A computer plays for you since you ran out of time: take your seat back at any time.",
        "Gioca il computer per te da quando hai finito il tempo: riprendi il posto quando vuoi.",
    ),
    "took_back": ("Your seat is yours again.", "Il posto è di nuovo tuo."),
    "capture.which": ("What does {card} take?", "Cosa prendi con {card}?"),
    "capture.placeholder": ("Choose the cards to take", "Scegli le carte da prendere"),
    "played": ("You played {card}.", "Hai giocato {card}."),
    # Invitation
    "invite.host": ("Host: {host}", "Organizza: {host}"),
    "invite.open_seat": ("open", "libero"),
    "invite.seat": ("Seat {seat}", "Posto {seat}"),
    "invite.level": (
        "**Add computer** seats a computer player, level {level}",
        "**Aggiungi computer** fa sedere un computer di livello {level}",
    ),
    "invite.started": ("The match has started: {where}", "La partita è iniziata: {where}"),
    "closed.cancelled": ("This table was cancelled.", "Questo tavolo è stato annullato."),
    "closed.abandoned": ("This match was abandoned.", "Questa partita è stata abbandonata."),
    "pace.live": ("Live: {time} a turn", "Dal vivo: {time} a turno"),
    "pace.correspondence": (
        "By correspondence: {time} a turn",
        "Per corrispondenza: {time} a turno",
    ),
    "pace.untimed": ("No time limit", "Senza limite di tempo"),
    # Rules in words
    "rules.players": ("{preset}, {players} players", "{preset}, {players} giocatori"),
    "rules.target": ("Match to {target} points", "Partita ai {target} punti"),
    "rules.target.one": ("Match to {target} point", "Partita a {target} punto"),
    "rules.target.vowel": ("Match to {target} points", "Partita agli {target} punti"),
    "rules.deals": ("Match of {deals} deals", "Partita di {deals} smazzate"),
    "rules.deals.one": ("Match of {deals} deal", "Partita di {deals} smazzata"),
    "rules.asso_piglia_tutto": (
        "Asso piglia tutto: an ace takes the whole table",
        "Asso piglia tutto: l'asso prende tutta la tavola",
    ),
    "rules.napola": (
        "Napola: a run of denari from the ace scores",
        "Napola: la scala di denari dall'asso fa punti",
    ),
    "rules.re_bello": (
        "Re bello: the king of coins is a point",
        "Re bello: il re di denari vale un punto",
    ),
    "rules.primiera_sevens": ("Primiera by the number of sevens", "Primiera contando i sette"),
    "rules.tie_target": ("A tie at the target", "Pari al traguardo"),
    "rules.tie_deals": ("A tie after the last deal", "Pari dopo l'ultima smazzata"),
    "rules.tiebreak_ko": (
        "{tie}: up to three spareggi (tie-break deals); the side that scores more in a spareggio wins, and if the third is tied too, the side that made its last capture loses",
        "{tie}: fino a tre spareggi; vince chi fa più punti in uno spareggio, e se anche il terzo finisce pari perde chi ha fatto l'ultima presa",
    ),
    "rules.tiebreak_extra": ("{tie}: another deal", "{tie}: si gioca un'altra smazzata"),
    # Refusals (service error codes)
    "err.unknown_game": (
        "I do not know that game (it may have been removed).",
        "Non conosco questa partita (forse è stata rimossa).",
    ),
    "err.unknown_table": ("I do not know that table.", "Non conosco questo tavolo."),
    "err.not_seated": ("You do not sit at this table.", "Non sei seduto a questo tavolo."),
    "err.not_your_turn": (
        "It is not your turn; nothing changed.",
        "Non è il tuo turno; non è cambiato niente.",
    ),
    "err.stale_version": (
        "That button is from an earlier moment of the game; nothing changed.",
        "Quel pulsante è di un momento precedente; non è cambiato niente.",
    ),
    "err.illegal_move": ("That move is not allowed: {message}", "Mossa non consentita: {message}"),
    "err.not_a_card": (
        "That is not a card: write it like 7d, 7 of coins or seven of coins.",
        "Questa non è una carta: scrivila come 7d, 7 di denari o sette di denari.",
    ),
    "err.choose_capture": ("Choose what to take.", "Scegli cosa prendere."),
    "err.table_full": ("The table is full.", "Il tavolo è pieno."),
    "err.seat_taken": ("That seat is taken.", "Quel posto è occupato."),
    "err.already_seated": ("You already sit at this table.", "Sei già seduto a questo tavolo."),
    "err.not_host": ("Only the host can do that.", "Solo chi organizza il tavolo può farlo."),
    "err.table_not_open": (
        "This table is no longer gathering players.",
        "Questo tavolo non accoglie più giocatori.",
    ),
    "err.seats_empty": ("Some seats are still empty.", "Ci sono ancora posti liberi."),
    "err.game_over": ("This match is over.", "Questa partita è finita."),
    "err.not_away": (
        "Your seat is yours: no computer plays for you.",
        "Il posto è tuo: nessun computer gioca per te.",
    ),
    "err.game_started": ("The match has already started.", "La partita è già iniziata."),
    "err.rematch_players_only": (
        "Only the players of this match can ask for a rematch.",
        "Solo chi ha giocato questa partita può chiedere la rivincita.",
    ),
    "rematch.already": (
        "The rematch is already open: {where}",
        "La rivincita è già aperta: {where}",
    ),
    "err.bad_option": (
        "That option is not possible: {message}",
        "Opzione non possibile: {message}",
    ),
    "err.bad_pace": (
        "That pace is not possible: live turns last 30 s to 15 min, correspondence 1 h to 7 days.",
        "Ritmo non possibile: dal vivo da 30 s a 15 min, per corrispondenza da 1 ora a 7 giorni.",
    ),
    "err.bad_level": ("I do not know that level.", "Non conosco quel livello."),
    "err.bad_seat": ("There is no such seat.", "Quel posto non esiste."),
    "err.bad_side": ("There is no such side.", "Quella coppia non esiste."),
    "err.side_full": ("That side is full.", "Quella coppia è al completo."),
    "err.host_cannot_leave": (
        "The host cannot leave; cancel the table instead.",
        "Chi organizza non può alzarsi; annulla il tavolo.",
    ),
    "err.unknown_form": (
        "That form is not one of mine, or no longer valid; nothing changed.",
        "Quel modulo non è mio o non vale più; non è cambiato niente.",
    ),
    "err.forged": (
        "That button is not one of mine, or no longer valid; nothing changed.",
        "Quel pulsante non è mio o non vale più; non è cambiato niente.",
    ),
    "err.unexpected": (
        "Sorry, something went wrong on my side; nothing changed. (game {game})",
        "Scusa, qualcosa è andato storto da parte mia; non è cambiato niente. (partita {game})",
    ),
    "err.no_game_here": (
        "You have no game running here; use /scopa games to find yours.",
        "Non hai partite in corso qui; usa /scopa partite per trovarle.",
    ),
    "err.table_elsewhere": (
        "That table is not yours to look at from here: it is shown to its players, and to"
        " those who can see its channel in its server.",
        "Quel tavolo non puoi guardarlo da qui: lo vedono i suoi giocatori e chi vede il suo"
        " canale nel suo server.",
    ),
    "err.not_a_game_number": (
        "“{text}” is not a game number nor the title of one of your games; your games: {games}."
        " Nothing changed.",
        "“{text}” non è un numero di partita né il titolo di una tua partita; le tue partite:"
        " {games}. Non è cambiato niente.",
    ),
    "err.not_a_game_number_none": (
        "“{text}” is not a game number: you have no game running. Nothing changed.",
        "“{text}” non è un numero di partita: non hai partite in corso. Non è cambiato niente.",
    ),
    "err.game_ambiguous": (
        "“{text}” fits several of your games: {games}. Type its table number. Nothing changed.",
        "“{text}” va bene per più tue partite: {games}. Scrivi il numero del tavolo. Non è"
        " cambiato niente.",
    ),
    "err.which_game": (
        "You sit at several tables: choose one with the game option.",
        "Sei seduto a più tavoli: scegline uno con l'opzione partita.",
    ),
    "err.perm": (
        "I cannot {what} in {where}: please give me the permission “{perm}”.",
        "Non posso {what} in {where}: dammi il permesso “{perm}”.",
    ),
    "perm.threads": ("create threads", "creare thread"),
    "perm.send": ("send messages", "inviare messaggi"),
    "perm.threads_name": ("Create Public Threads", "Crea thread pubblici"),
    "perm.send_name": ("Send Messages", "Invia messaggi"),
    "perm.send_threads_name": ("Send Messages in Threads", "Invia messaggi nei thread"),
    # Replies to commands
    "resigned": ("You resigned; the match is over.", "Ti sei ritirato; la partita è finita."),
    "resigned.at": (
        "You resigned; the match is over ({table}).",
        "Ti sei ritirato; la partita è finita ({table}).",
    ),
    "err.target_or_deals": (
        "Choose a target or a number of deals, not both: a match ends one way. No table was opened.",
        "Scegli un traguardo o un numero di smazzate, non entrambi: una partita finisce in un modo solo. Nessun tavolo è stato aperto.",
    ),
    "err.pace_unit": (
        "A live table counts minutes a turn, one by correspondence hours: give minutes with live, hours with correspondence. No table was opened.",
        "Un tavolo dal vivo conta i minuti a turno, uno per corrispondenza le ore: minuti con dal vivo, ore con corrispondenza. Nessun tavolo è stato aperto.",
    ),
    "games.open": ("open", "apri"),
    "games.gathering": ("gathering players", "in attesa di giocatori"),
    "games.none": (
        "You sit at no table. Open one with /scopa new.",
        "Non sei seduto a nessun tavolo. Aprine uno con /scopa nuova.",
    ),
    "notify.on": (
        "I will write to you when it is your turn in a game by correspondence, and before its time runs out.",
        "Ti scriverò quando tocca a te in una partita per corrispondenza, e prima che scada il tempo.",
    ),
    "notify.off": (
        "No more direct messages about your turns.",
        "Niente più messaggi privati sui tuoi turni.",
    ),
    "help.text": (
        "**ScopaBot** plays Scopa and Scopone with you and your friends.\n"
        "- `/scopa new` opens a table: others press **Join**, the host may press **Add computer**, then **Start**.\n"
        "- Your hand comes by direct message, one button per card; **My hand** on the table shows it here too.\n"
        "- A card that can take different cards asks you which; `/scopa play` works too.\n"
        "- `/scopa games` lists your tables, `/scopa rules` the options, `/scopa resign` ends your match.\n"
        "- `/scopa leaderboard` and `/scopa stats` for ratings; `/score` keeps the score of a game with real cards.",
        "**ScopaBot** gioca a Scopa e Scopone con te e i tuoi amici.\n"
        "- `/scopa nuova` apre un tavolo: gli altri premono **Siediti**, chi organizza può premere **Aggiungi computer**, poi **Inizia**.\n"
        "- La tua mano arriva in messaggio privato, un pulsante per carta; **La mia mano** sul tavolo la mostra anche qui.\n"
        "- Se una carta può prendere carte diverse ti chiedo quali; funziona anche `/scopa gioca`.\n"
        "- `/scopa partite` elenca i tuoi tavoli, `/scopa regole` le opzioni, `/scopa abbandona` chiude la tua partita.\n"
        "- `/scopa classifica` e `/scopa statistiche` per le classifiche; `/punti` segna i punti di una partita con le carte vere.",
    ),
    # Boards, stats, settings, score sheets
    "board.games": ("{games} matches", "{games} partite"),
    "board.games.one": ("{games} match", "{games} partita"),
    "board.empty": (
        "Nobody has played a rated match yet.",
        "Nessuno ha ancora giocato una partita in classifica.",
    ),
    "board.title": ("Leaderboard · {game} · {where}", "Classifica · {game} · {where}"),
    "board.server": ("this server", "questo server"),
    "board.global": ("everyone", "tutti"),
    "btn.first": ("First page", "Prima pagina"),
    "stats.title": ("Statistics of {name}", "Statistiche di {name}"),
    "stats.none": ("No matches yet.", "Ancora nessuna partita."),
    "stats.line": (
        "rating {rating} · {games}, {wins} · {scope} · {settebelli} · {ppd} points a deal",
        "punteggio {rating} · {games}, {wins} · {scope} · {settebelli} · {ppd} punti a smazzata",
    ),
    "settings.saved": ("Saved. ScopaBot on this server:", "Salvato. ScopaBot in questo server:"),
    "settings.title": ("ScopaBot on this server:", "ScopaBot in questo server:"),
    "settings.language": ("public messages in {language}", "messaggi pubblici in {language}"),
    "settings.channel": ("new tables open in {channel}", "i nuovi tavoli si aprono in {channel}"),
    "settings.anywhere": (
        "the channel of /scopa new",
        "il canale di /scopa nuova",
    ),
    "settings.defaults": ("default options: {options}", "opzioni predefinite: {options}"),
    "settings.none": ("none (the usual rules)", "nessuna (le regole di sempre)"),
    "language.it": ("Italian", "italiano"),
    "language.en": ("English", "inglese"),
    "err.not_manager": (
        "Only server managers (the “Manage Server” permission) can change ScopaBot's settings.",
        "Solo chi gestisce il server (il permesso “Gestisci server”) può cambiare le impostazioni di ScopaBot.",
    ),
    "invite.posted_in": (
        "Your table is open in {where}: {link}",
        "Il tuo tavolo è aperto in {where}: {link}",
    ),
    "invite.game_channel_closed": (
        "This server's game channel is {where}, but I cannot post there (I need “{perm}”), so the table is here.",
        "Il canale delle partite di questo server è {where}, ma non posso scriverci (mi serve “{perm}”), quindi il tavolo è qui.",
    ),
    "perm.send_here": (
        "I cannot send messages in {where}: please give me the permission “{perm}” there, or ask a server manager to choose a game channel with /scopa settings. No table was opened.",
        "Non posso scrivere in {where}: dammi lì il permesso “{perm}”, oppure chiedi a chi gestisce il server di scegliere un canale delle partite con /scopa impostazioni. Nessun tavolo è stato aperto.",
    ),
    "sheet.title": ("Score sheet", "Foglio dei punti"),
    "sheet.needs": ("(needs {needs})", "(mancano {needs})"),
    "sheet.needs.one": ("(needs {needs})", "(manca {needs})"),
    "sheet.winner": ("Winner: {name}!", "Vince {name}!"),
    "sheet.tied": (
        "Tied at the target: play another deal.",
        "Pari al traguardo: si gioca un'altra smazzata.",
    ),
    "sheet.last": ("Last: +{points} to {side}", "Ultimo: +{points} a {side}"),
    "sheet.last_note": (
        "Last: +{points} to {side} ({note})",
        "Ultimo: +{points} a {side} ({note})",
    ),
    "btn.custom_points": ("Other points…", "Altri punti…"),
    "sheet.form_title": ("Points for a side", "Punti a una squadra"),
    "sheet.form_side": ("Side", "Squadra"),
    "sheet.form_points": ("Points (1 to 101)", "Punti (da 1 a 101)"),
    "sheet.form_note": ("Note (optional)", "Nota (facoltativa)"),
    "sheet.form_note_hint": (
        "e.g. napola, or a deal played again",
        "es. napola, o smazzata ripetuta",
    ),
    "err.points_not_a_number": (
        "“{text}” is not a number of points: write a whole number from 1 to 101. Nothing was added.",
        "“{text}” non è un numero di punti: scrivi un numero intero da 1 a 101. Non ho aggiunto niente.",
    ),
    "err.points_out_of_range": (
        "{points} points cannot be written: one entry holds 1 to 101 points. Nothing was added.",
        "{points} punti non si possono segnare: una voce va da 1 a 101 punti. Non ho aggiunto niente.",
    ),
    "err.pick_a_side": (
        "Choose the side that made the points. Nothing was added.",
        "Scegli la squadra che ha fatto i punti. Non ho aggiunto niente.",
    ),
    "err.unknown_score_sheet": (
        "I do not know that score sheet.",
        "Non conosco quel foglio dei punti.",
    ),
    "err.sheet_closed": ("This score sheet is closed.", "Questo foglio dei punti è chiuso."),
    "err.not_sheet_owner": (
        "Only whoever started the sheet can do that.",
        "Solo chi ha iniziato il foglio può farlo.",
    ),
    "err.not_on_sheet": ("You are not on this score sheet.", "Non sei in questo foglio dei punti."),
    "err.nothing_to_undo": ("There is nothing to undo.", "Non c'è niente da annullare."),
    "err.not_your_entry": (
        "You can only undo your own entry.",
        "Puoi annullare solo i tuoi punti.",
    ),
    "err.bad_points": ("Points must be 1 to 101.", "I punti vanno da 1 a 101."),
    "err.bad_sheet": (
        "That score sheet is not possible: {message}",
        "Foglio non possibile: {message}",
    ),
    "sheet.bad.sides": ("a sheet has 2 to {max} sides.", "un foglio ha da 2 a {max} squadre."),
    "sheet.bad.name": (
        "each side needs a name of 1 to {max} characters.",
        "ogni squadra vuole un nome da 1 a {max} caratteri.",
    ),
    "sheet.bad.invisible_name": (
        "a side's name shows nothing (it is made of invisible characters).",
        "il nome di una squadra non si vede (è fatto di caratteri invisibili).",
    ),
    "sheet.bad.same_name": (
        "two sides have the same name, or names that look the same.",
        "due squadre hanno lo stesso nome, o nomi che sembrano uguali.",
    ),
    "sheet.bad.person_twice": (
        "a person is on two sides (or twice on one).",
        "una persona è in due squadre (o due volte nella stessa).",
    ),
    "sheet.bad.target": (
        "the target is from 1 to {max} points.",
        "l'obiettivo va da 1 a {max} punti.",
    ),
    "sheet.bad.title": (
        "the title is longer than {max} characters.",
        "il titolo è più lungo di {max} caratteri.",
    ),
    "sheet.bad.other": ("check the sides and the target.", "controlla le squadre e l'obiettivo."),
}
CATALOG.update(EXTRA)
CATALOG.update(TOURNAMENT)
