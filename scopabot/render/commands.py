"""Slash-command names, descriptions and choices in Italian, keyed by their English text.

The bot declares commands in English; Discord shows each person the names and descriptions
of their client's language, which the bot's ``app_commands.Translator`` reads from here.
Names follow Discord's rule (lowercase, no spaces, at most 32 characters); descriptions stay
under 100 characters.
"""

# ruff: noqa: E501  (sentences of a catalog read best on one line)
from __future__ import annotations

from typing import Final

ITALIAN: Final[dict[str, str]] = {
    # /scopa and its subcommands
    "scopa": "scopa",
    "Play Scopa and Scopone": "Gioca a Scopa e Scopone",
    "new": "nuova",
    "Open a table: choose the game, options, pace and computer players": (
        "Apri un tavolo: gioco, opzioni, ritmo e giocatori computer"
    ),
    "play": "gioca",
    "Play a card from your hand": "Gioca una carta della tua mano",
    "hand": "mano",
    "Show your hand (only you see it)": "Mostra la tua mano (solo tu la vedi)",
    "table": "tavolo",
    "Show the table of your game here": "Mostra il tavolo della tua partita qui",
    "games": "partite",
    "Your tables everywhere, those waiting for you first": (
        "I tuoi tavoli ovunque, prima quelli che aspettano te"
    ),
    "back": "rientra",
    "Take your seat back from the computer playing for you": (
        "Riprendi il posto dal computer che gioca per te"
    ),
    "resign": "abbandona",
    "Resign the match: your side loses": "Abbandona la partita: la tua parte perde",
    "leaderboard": "classifica",
    "The best players of this server or of everyone": "I migliori giocatori del server o di tutti",
    "stats": "statistiche",
    "Matches, wins and rating of a player": "Partite, vittorie e punteggio di un giocatore",
    "rules": "regole",
    "The options of your table in plain words": "Le opzioni del tuo tavolo in parole semplici",
    "settings": "impostazioni",
    "Server settings (managers): language, default options, game channel": (
        "Impostazioni del server (gestori): lingua, opzioni, canale delle partite"
    ),
    "notify": "avvisi",
    "Correspondence games: a direct message on your turn": (
        "Partite per corrispondenza: un messaggio privato quando tocca a te"
    ),
    "help": "aiuto",
    "How to play with ScopaBot": "Come si gioca con ScopaBot",
    # Options
    "preset": "gioco",
    "Which game": "Quale gioco",
    "players": "giocatori",
    "How many players (Scopa: 2, 3 or 4)": "Quanti giocatori (Scopa: 2, 3 o 4)",
    "target": "traguardo",
    "Points to win (default 11)": "Punti per vincere (di solito 11)",
    "deals": "smazzate",
    "Play a fixed number of deals instead of to a target": "Un numero fisso di smazzate",
    "asso_piglia_tutto": "asso_piglia_tutto",
    "An ace takes the whole table": "L'asso prende tutta la tavola",
    "napola": "napola",
    "A run of denari from the ace scores": "La scala di denari dall'asso fa punti",
    "re_bello": "re_bello",
    "The king of coins is a point": "Il re di denari vale un punto",
    "primiera": "primiera",
    "How the primiera is counted": "Come si conta la primiera",
    "tiebreak": "spareggio",
    "A tie at the target": "Pari al traguardo",
    "pace": "ritmo",
    "Live (minutes a turn) or by correspondence (hours a turn)": (
        "Dal vivo (minuti) o per corrispondenza (ore a turno)"
    ),
    "minutes": "minuti",
    "Live: minutes a turn (default 2)": "Dal vivo: minuti a turno (di solito 2)",
    "hours": "ore",
    "Correspondence: hours a turn (default 24)": "Corrispondenza: ore a turno (di solito 24)",
    "computers": "computer",
    "How many seats computer players take": "Quanti posti prendono i computer",
    "level": "livello",
    "How well computer players play": "Quanto giocano bene i computer",
    "card": "carta",
    "A card of your hand": "Una carta della tua mano",
    "capture": "presa",
    "The cards to take, when there is a choice": "Le carte da prendere, se c'è scelta",
    "game": "partita",
    "Which of your games (when you play several)": "Quale partita (se ne giochi più di una)",
    "board": "ambito",
    "This server or everyone": "Questo server o tutti",
    "user": "utente",
    "Whose statistics": "Di chi",
    "on": "attivi",
    "On or off": "Attivi o no",
    "language": "lingua",
    "The language of public messages": "La lingua dei messaggi pubblici",
    "channel": "canale",
    "Where new tables are opened": "Dove si aprono i nuovi tavoli",
    "game_channel": "canale_partite",
    "reset": "azzera",
    "Forget the default options and the game channel first": (
        "Dimentica prima le opzioni predefinite e il canale delle partite"
    ),
    # Choices
    "Scopa": "Scopa",
    "Scopone scientifico": "Scopone scientifico",
    "Scopone classico": "Scopone classico",
    "Live": "Dal vivo",
    "Correspondence": "Per corrispondenza",
    "Classic": "Classica",
    "By the number of sevens": "Contando i sette",
    "Another deal": "Un'altra smazzata",
    "Knock-out (spareggi)": "Spareggi a eliminazione",
    "easy": "facile",
    "normal": "normale",
    "hard": "difficile",
    "expert": "esperto",
    "This server": "Questo server",
    "Everyone": "Tutti",
    "English": "Inglese",
    "Italian": "Italiano",
    # /score
    "score": "punti",
    "Keep the score of a game played with real cards": "Segna i punti di una partita con le carte vere",
    "start": "inizia",
    "Start a score sheet": "Inizia un foglio dei punti",
    "sides": "squadre",
    "Side names, separated by commas (default: Noi, Voi)": "Nomi separati da virgole (Noi, Voi)",
    "show": "mostra",
    "Show the score sheet of this channel": "Mostra il foglio dei punti di questo canale",
    # /scopa tournament
    "tournament": "torneo",
    "Tournaments: round robin, Swiss, knock-out, groups": "Tornei: girone, sistema Danese, eliminazione diretta, gironi",
    "Which tournament (default: this server's newest)": "Quale torneo (se no il più recente del server)",
    "create": "crea",
    "Create a tournament (organisers)": "Crea un torneo (chi organizza)",
    "name": "nome",
    "format": "formula",
    "round_hours": "ore_turno",
    "turn_hours": "ore_mossa",
    "rounds": "turni",
    "groups": "gironi",
    "qualifiers": "qualificati",
    "seeding": "teste_di_serie",
    "The tournament's name": "Il nome del torneo",
    "How entries meet": "Come si incontrano gli iscritti",
    "Hours a round lasts (default 72)": "Ore di un turno del torneo (72 se non dici)",
    "Hours a turn lasts (default 24)": "Ore per ogni mossa (24 se non dici)",
    "Swiss: how many rounds": "Sistema Danese: quanti turni",
    "Groups then knock-out: how many groups": "Gironi ed eliminazione: quanti gironi",
    "Groups then knock-out: how many go through from each": "Gironi ed eliminazione: quanti passano da ogni girone",
    "Seeds drawn or by rating": "Teste di serie sorteggiate o per classifica",
    "Points to win a match (default 11)": "Punti per vincere una partita (11 se non dici)",
    "join": "iscriviti",
    "Enter a tournament, alone or with a partner": "Iscriviti a un torneo, da solo o in coppia",
    "partner": "compagno",
    "Your partner (scopone: pairs)": "Chi gioca in coppia con te (scopone)",
    "leave": "lascia",
    "Leave a tournament before it starts": "Lascia un torneo prima che cominci",
    "Close registration and pair round 1 (organisers)": "Chiudi le iscrizioni e forma il primo turno (chi organizza)",
    "standings": "classifica",
    "The standings of a tournament": "La classifica di un torneo",
    "page": "pagina",
    "Which page (15 lines a page)": "Quale pagina (15 righe a pagina)",
    "bracket": "tabellone",
    "The pairings and results, round by round": "Accoppiamenti e risultati, turno per turno",
    "withdraw": "ritirati",
    "Withdraw from a tournament under way": "Ritirati da un torneo in corso",
    "cancel": "annulla",
    "abandon": "abbandona",
    "Decide a match of this round: the player named loses it (organisers)": (
        "Decidi una partita del turno: la perde chi nomini (chi organizza)"
    ),
    "player": "giocatore",
    "both": "entrambi",
    "The player whose side loses (e.g. who vanished)": "Chi perde la partita (per esempio chi è sparito)",
    "Both sides lose the match": "La partita la perdono entrambi",
    "organisers": "organizzatori",
    "Name the role that organises tournaments (managers)": "Scegli il ruolo che organizza i tornei (chi gestisce il server)",
    "role": "ruolo",
    "The role (none: managers only)": "Il ruolo (nessuno: solo chi gestisce il server)",
    "Call a tournament off (organisers)": "Annulla un torneo (chi organizza)",
    "Knock-out": "Eliminazione diretta",
    "Round robin": "Girone all'italiana",
    "Swiss system": "Sistema Danese",
    "Groups then knock-out": "Gironi ed eliminazione diretta",
    "Drawn": "Sorteggiate",
    "By rating": "Per classifica",
    "Computer players fill a Swiss bye and a withdrawn player's place": (
        "Il computer gioca il turno libero (Danese) e al posto di chi si ritira"
    ),
}
