"""Which game a command means, and what ``/scopa`` suggests while a person types.

Discord asks for suggestions on every keystroke, so each answer costs one service call for
the games (``my_games`` already carries each table's rules and number) and one more for a
hand. Suggestions match what was typed, word by word, against every way a person names the
thing: a card in English and in Italian and in the notation (docs/rulebook.md: Italian names are
accepted from everyone), a game by its title and table number.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord
from discord.app_commands import Choice

from scopabot.render.cards import capture_name, card_name, card_words, matches
from scopabot.render.i18n import Lang, tr
from scopabot.render.rules import preset_name
from scopabot.service import Card, CardParseError, MyGame, SeatView, ServiceError, TableStatus

if TYPE_CHECKING:
    from .client import ScopaBot

MAX_CHOICES = 25  # Discord shows at most 25 suggestions


MAX_ID = 2**63 - 1  # the database's largest integer; no game has a larger number
_GAME_NUMBER = re.compile(r"[0-9]{1,19}")


class GameNotFound(Exception):
    """The game meant cannot be found; ``key`` and ``params`` make the sentence saying why."""

    def __init__(self, key: str, **params: str) -> None:
        self.key = key
        self.params = params


def _words(text: str) -> list[str]:
    """The words of a title or of what was typed, without the marks the suggestions add."""
    return [w for w in text.casefold().split() if w not in ("▶", "·")]


def _names(typed: list[str], title_words: list[str]) -> bool:
    """Whether every typed word is a word of the title (a word of letters may be cut short,
    "scop"); numbers must be whole, so "tavolo 2" never finds table 21."""
    return bool(typed) and all(
        any(w == t or (w.isalpha() and t.startswith(w)) for t in title_words) for w in typed
    )


def _table_list(games: list[MyGame], lang: Lang) -> str:
    return ", ".join(game_title(g, lang) for g in games)


async def game_of(
    interaction: discord.Interaction[ScopaBot],
    game: str | None,
    *,
    guess: bool = True,
    seated: bool = True,
) -> int:
    """The game meant: the ``game`` option, the one here, or the only one waiting.

    A ``game`` typed by hand is read as the person reads their tables: a bare number is the
    table's number (the one ``/scopa games`` and every title show), other text must name one
    of their titles ("tavolo 2", "scopone", the suggestion's whole text). Text that names no
    game of theirs is refused with the list of their tables: a typo must never fall back on
    the table of the channel (a person once resigned the wrong match that way). Without
    ``seated`` (looking at a table or its rules) a number may name any table; whether the
    person may see it is checked after. Without ``guess`` (resigning, which cannot be undone)
    "the only one waiting for you" is not enough: the game must be the only one here or the
    only one at all."""
    service = interaction.client.service
    mine = [
        g
        for g in await service.people.my_games(user=interaction.user.id)
        if g.game_id is not None and g.status is TableStatus.PLAYING
    ]
    if game is not None and game.strip():
        return await _named(interaction, game, mine, seated=seated)
    here = [g for g in mine if interaction.channel_id in (g.thread_id, g.channel_id)]
    waiting = [g for g in mine if g.waiting_for_you] if guess else []
    for group in (here, mine, waiting):
        if len(group) == 1 and group[0].game_id is not None:
            return group[0].game_id
    raise GameNotFound("err.which_game" if mine else "err.no_game_here")


async def _named(
    interaction: discord.Interaction[ScopaBot], text: str, mine: list[MyGame], *, seated: bool
) -> int:
    typed = text.strip()
    found: list[MyGame] = []
    if _GAME_NUMBER.fullmatch(typed) is not None and 1 <= int(typed) <= MAX_ID:
        number = int(typed)
        found = [g for g in mine if g.table_id == number]
        if not found and not seated:
            service = interaction.client.service
            try:
                table = await service.tables.get(number)
            except ServiceError:
                table = None
            if table is not None and table.game_id is not None:
                return int(table.game_id)
    else:
        words = _words(typed)
        found = [
            g
            for g in mine
            if any(_names(words, _words(game_title(g, lang))) for lang in (Lang.EN, Lang.IT))
        ]
    if len(found) == 1 and found[0].game_id is not None:
        return found[0].game_id
    lang = await _lang(interaction)
    if not mine:
        raise GameNotFound("err.not_a_game_number_none", text=_shown(typed))
    key = "err.game_ambiguous" if found else "err.not_a_game_number"
    raise GameNotFound(key, text=_shown(typed), games=_table_list(found or mine, lang))


def _shown(text: str) -> str:
    """What was typed, short and on one line, to quote it back."""
    one_line = " ".join(text.split())
    return one_line if len(one_line) <= 24 else one_line[:23] + "…"


def game_title(game: MyGame, lang: Lang) -> str:
    """A game's title as ``context.table_title`` writes it, from the listing alone."""
    return f"{preset_name(game.rules, lang)} · {tr('table.number', lang, id=game.table_id)}"


async def _lang(interaction: discord.Interaction[ScopaBot]) -> Lang:
    langs = interaction.client.langs
    lang: Lang = await langs.of_interaction(interaction)
    return lang


async def game_choices(
    interaction: discord.Interaction[ScopaBot], current: str
) -> list[Choice[str]]:
    lang = await _lang(interaction)
    service = interaction.client.service
    found = []
    for g in await service.people.my_games(user=interaction.user.id):
        if g.game_id is None:
            continue
        title = game_title(g, lang)
        if not matches(current, f"{title} {g.table_id} {g.game_id}".lower()):
            continue
        mark = "▶ " if g.waiting_for_you else ""
        # The value is the table's number, as a number typed by hand is read.
        found.append(Choice(name=(mark + title)[:100], value=str(g.table_id)))
    return found[:MAX_CHOICES]


async def _seat_view(interaction: discord.Interaction[ScopaBot]) -> SeatView | None:
    game = getattr(interaction.namespace, "game", None)
    service = interaction.client.service
    try:
        game_id = await game_of(interaction, game)
        return await service.games.seat_view(game_id, user=interaction.user.id)
    except (GameNotFound, ServiceError):
        return None


async def card_choices(
    interaction: discord.Interaction[ScopaBot], current: str
) -> list[Choice[str]]:
    """The cards of the person's hand that match what they typed, in either language."""
    lang = await _lang(interaction)
    seat_view = await _seat_view(interaction)
    if seat_view is None:
        return []
    return [
        Choice(name=card_name(c, lang), value=str(c))
        for c in seat_view.hand
        if matches(current, card_words(c))
    ][:MAX_CHOICES]


async def capture_choices(
    interaction: discord.Interaction[ScopaBot], current: str
) -> list[Choice[str]]:
    """The captures the chosen card can make (none when it only lays the card)."""
    lang = await _lang(interaction)
    seat_view = await _seat_view(interaction)
    card_text = getattr(interaction.namespace, "card", None)
    if seat_view is None or not card_text:
        return []
    try:
        card = Card.parse(str(card_text))
    except CardParseError:
        return []
    moves = [m for m in seat_view.choices.get(card, ()) if m.is_capture]
    # The value is the whole move: the engine reads a capture given as its move too.
    return [Choice(name=capture_name(m, lang)[:100], value=str(m)) for m in moves][:MAX_CHOICES]
