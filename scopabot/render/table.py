"""The table message everyone sees, edited in place through a match.

It shows the cards on the table, whose turn it is and until when, points and scope, the deck,
the dealer and the last plays; after a deal its breakdown side by side, and at the end the
winner and the rating changes. Built from the public view only (a type with no hand), and
from plain names the bot passes in.

Its pictures (:func:`table_pictures`) are drawn from the same public fields: the table as it
is, a finished deal's breakdown until the next deal's first play, the standings at the end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import NamedTuple, Protocol

from scopabot.engine import Card, DealScore, GameView, Outcome, Play, Rules

from .boards import rating_change
from .cards import card_the, cards_names, cards_the
from .i18n import Lang, tr, trn
from .image import (
    FORMAT,
    Theme,
    deal_alt_text,
    deal_image,
    standings_alt_text,
    standings_image,
    table_alt_text,
    table_image,
)
from .names import plain_name
from .rules import preset_name
from .screens import BLUE, GOLD, GREEN, Action, Button, Picture, Screen, Style
from .words import side_names

LAST_PLAYS = 4


class PublicGame(Protocol):
    """The public fields of a game (``service.PublicView`` has them all)."""

    @property
    def rules(self) -> Rules: ...
    @property
    def turn(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def deal_number(self) -> int: ...
    @property
    def felt(self) -> tuple[Card, ...]: ...
    @property
    def deck_size(self) -> int: ...
    @property
    def scope(self) -> tuple[int, ...]: ...
    @property
    def plays(self) -> tuple[Play, ...]: ...
    @property
    def totals(self) -> tuple[int, ...]: ...
    @property
    def deal_scores(self) -> tuple[DealScore, ...]: ...
    @property
    def deadline(self) -> datetime | None: ...
    @property
    def finished(self) -> bool: ...
    @property
    def winner_side(self) -> int | None: ...
    @property
    def result_reason(self) -> str | None: ...


class PublicPosition(PublicGame, Protocol):
    """What the table picture needs beyond the text (``service.PublicView`` has it too)."""

    @property
    def hand_sizes(self) -> tuple[int, ...]: ...
    @property
    def captured_counts(self) -> tuple[int, ...]: ...
    @property
    def outcome(self) -> Outcome | None: ...
    @property
    def spareggio(self) -> int: ...
    @property
    def dealer_draw(self) -> tuple[tuple[tuple[int, Card], ...], ...]: ...


def stamp(when: datetime) -> str:
    """A Discord timestamp, shown to each reader in their own time zone ("in 2 minutes")."""
    return f"<t:{int(when.timestamp())}:R>"


def play_line(play: Play, name: str, lang: Lang) -> str:
    """ "alice gioca il fante di denari e prende il re di coppe", "bob cala l'asso di spade"."""
    card = card_the(play.card, lang)
    if not play.capture:
        return tr("play.lays", lang, name=name, card=card)
    taken = cards_the(play.capture, lang)
    line = tr("play.takes", lang, name=name, card=card, taken=taken)
    return line + tr("play.scopa", lang) if play.scopa else line + "."


def score_line(game: PublicGame, sides: Sequence[str], lang: Lang) -> str:
    rules = game.rules
    parts = [f"{n} **{t}**" for n, t in zip(sides, game.totals, strict=True)]
    goal = (
        trn("score.to", rules.target, lang, target=rules.target)
        if rules.target is not None
        else trn("score.deals", rules.deals or 0, lang, deals=rules.deals)
    )
    line = tr("score.line", lang, points=" · ".join(parts), goal=goal)
    if any(game.scope):  # whose scope, by name: "scope in questa smazzata: alice 1"
        made = ", ".join(f"{n} {k}" for n, k in zip(sides, game.scope, strict=True) if k)
        line += tr("score.scope", lang, scope=made)
    return line


ROW_WIDTH = 40
"""A breakdown row's most characters: a code block does not wrap, and a phone shows ~40."""


def breakdown(
    score: DealScore,
    sides: Sequence[str],
    rules: Rules,
    lang: Lang,
    *,
    plain: Sequence[str] | None = None,
) -> str:
    """The deal's points side by side, in a code block so the columns line up.

    Discord shows no mention inside a code block (the reader would see ``<@1577…>``), so the
    columns are headed by the sides' ``plain`` names (display names) when they fit a phone's
    row, else by letters A, B, C with a legend under the block naming ``sides`` (mentions,
    which Discord shows there as each reader knows the name)."""
    rows: list[tuple[str, list[str]]] = [
        (tr("bd.carte", lang), [f"{s.carte} ({s.cards})" for s in score.sides]),
        (tr("bd.denari", lang), [f"{s.denari} ({s.denari_count})" for s in score.sides]),
        (tr("bd.settebello", lang), [str(s.settebello) for s in score.sides]),
        (
            tr("bd.primiera", lang),
            [
                f"{s.primiera} ({'-' if s.primiera_total is None else s.primiera_total})"
                for s in score.sides
            ],
        ),
        (tr("bd.scope", lang), [str(s.scope) for s in score.sides]),
    ]
    if rules.re_bello:
        rows.append((tr("bd.re_bello", lang), [str(s.re_bello) for s in score.sides]))
    if rules.napola:
        rows.append((tr("bd.napola", lang), [str(s.napola) for s in score.sides]))
    rows.append((tr("bd.total", lang), [str(s.total) for s in score.sides]))
    label = max(len(name) for name, _ in rows) + 1
    cell = max(len(c) for _, cells in rows for c in cells) + 1
    room = (ROW_WIDTH - label) // len(sides)
    heads = [plain_name(h) or "" for h in plain] if plain is not None else []
    fits = len(heads) == len(sides) and all(0 < len(h) < room for h in heads)
    if not fits:
        heads = [chr(ord("A") + side) for side in range(len(sides))]
    width = max(cell, *(len(h) + 1 for h in heads))
    lines = [" " * label + "".join(h.rjust(width) for h in heads)]
    lines += [name.ljust(label) + "".join(c.rjust(width) for c in cells) for name, cells in rows]
    title = tr("bd.title", lang, deal=score.deal)
    text = f"**{title}**\n```\n" + "\n".join(lines) + "\n```"
    if not fits:
        text += "\n" + " · ".join(f"**{h}**: {n}" for h, n in zip(heads, sides, strict=True))
    return text


def outcome_line(
    game: PublicGame, sides: Sequence[str], lang: Lang, outcome: Outcome | None = None
) -> str:
    """ "Vince alice 11 a 7", "Vince Computer (normale) 3 a 2 dopo l'ultima smazzata": the
    winner's points first, as a score is said; the way it ended only when it is not the
    usual one (reaching the target)."""
    if game.winner_side is None:
        return tr("over.undecided", lang, totals=score_said(game.totals, None, lang))
    reason = game.result_reason or ""
    why = tr(f"over.why.{reason}", lang) if reason else ""
    totals = score_said(game.totals, game.winner_side, lang)
    return tr("over.won", lang, winner=sides[game.winner_side], totals=totals, why=why)


def score_said(totals: Sequence[int], first: int | None, lang: Lang) -> str:
    """A score as people say it, ``first``'s points first: "3 a 2", "11 a 7 e 4"; "3 to 2"."""
    order = (
        list(totals) if first is None else [totals[first], *totals[:first], *totals[first + 1 :]]
    )
    if first is None:
        order.sort(reverse=True)
    to, last = ("a", "e") if lang is Lang.IT else ("to", "and")
    said = f"{order[0]} {to} {order[1]}"
    return said + "".join(f" {last} {n}" for n in order[2:])


def rating_lines(
    changes: Mapping[int, tuple[float | None, float]], names: Mapping[int, str], lang: Lang
) -> str:
    """Each person's rating before and after the match, on the scale the leaderboard shows
    (:func:`~scopabot.render.boards.rating_points`), with the change even for a first match."""
    return "\n".join(
        f"{names[who]}: {rating_change(before, after, lang)}"
        for who, (before, after) in sorted(changes.items(), key=lambda kv: -kv[1][1])
        if who in names
    )


def table_screen(
    game: PublicGame,
    names: Sequence[str],
    lang: Lang,
    *,
    table_id: int,
    rating_changes: Mapping[int, tuple[float | None, float]] | None = None,
    rated_names: Mapping[int, str] | None = None,
    note: str = "",
    plain_names: Sequence[str] | None = None,
    earlier: str = "",
    last_deal: bool = False,
) -> Screen:
    """The whole table message; ``note`` is a line for the moment (closed DMs, timeouts);
    ``plain_names`` are the seat holders' display names, for the breakdown's columns;
    ``earlier`` the last deal's end (its last plays and leftovers, ``render.deal``), shown
    with its breakdown through the next deal's first round, or all through the next deal with
    ``last_deal`` (``/scopa table``: the last count, asked for, whenever it is asked)."""
    rules = game.rules
    sides = side_names(rules, names)
    plain = None if plain_names is None else side_names(rules, plain_names)
    title = f"## {preset_name(rules, lang)} · {tr('table.number', lang, id=table_id)}"
    blocks = [title + "\n" + tr("table.sides", lang) + " " + "  vs  ".join(sides)]
    if game.finished:
        blocks.append("### " + outcome_line(game, sides, lang))
        if game.deal_scores:
            blocks.append(breakdown(game.deal_scores[-1], sides, rules, lang, plain=plain))
        if rating_changes and rated_names:
            blocks.append(
                f"**{tr('rating.title', lang)}**\n"
                + rating_lines(rating_changes, rated_names, lang)
            )
        if note:
            blocks.append(note)
        rows = ((Button(tr("btn.rematch", lang), Action.REMATCH, style=Style.SUCCESS),),)
        return Screen(tuple(blocks), rows, accent=GOLD)
    on_table = cards_names(game.felt, lang) if game.felt else tr("table.empty", lang)
    blocks.append(f"**{tr('table.cards', lang)}** {on_table}")
    turn = tr("turn.of", lang, name=names[game.turn])
    if game.deadline is not None:
        turn += " " + tr("turn.deadline", lang, when=stamp(game.deadline))
    blocks.append(f"**{turn}**")
    blocks.append(
        score_line(game, sides, lang)
        + "\n"
        + tr(
            "table.deck",
            lang,
            deck=game.deck_size,
            dealer=names[game.dealer],
            deal=game.deal_number,
        )
    )
    if game.deal_scores and (last_deal or len(game.plays) < rules.players):
        if earlier:
            blocks.append(earlier)
        blocks.append(breakdown(game.deal_scores[-1], sides, rules, lang, plain=plain))
    if game.plays:
        recent = [play_line(p, names[p.seat], lang) for p in game.plays[-LAST_PLAYS:]]
        blocks.append(f"**{tr('table.last', lang)}**\n" + "\n".join(f"- {r}" for r in recent))
    if note:
        blocks.append(note)
    rows = ((Button(tr("btn.my_hand", lang), Action.HAND, style=Style.PRIMARY),),)
    return Screen(tuple(blocks), rows, accent=GREEN if game.deal_number % 2 else BLUE)


Piles = tuple[tuple[Card, ...], ...]


class TableSketch(NamedTuple):
    """What the table message's pictures show, and nothing more: the table's public fields,
    its last play only, the breakdown's deal while it is shown, every deal's score once the
    match is over. Made from the public view where the view is (cheaply), it is the key of
    pictures drawn already and all that is sent to a drawing process (a public view, with
    every play of the deal and the table's settings, would cost more to send than to draw).
    The file names, which carry the game and its version, are given after
    (:func:`table_files`)."""

    rules: Rules
    deal_number: int
    felt: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    deck_size: int
    captured_counts: tuple[int, ...]
    scope: tuple[int, ...]
    last_play: Play | None
    totals: tuple[int, ...]
    outcome: Outcome | None
    turn: int
    dealer: int
    finished: bool
    breakdown: DealScore | None
    """The last deal's score while its breakdown is shown (the next deal's first round, the
    end of the match)."""
    deal_scores: tuple[DealScore, ...]
    """Every deal's score, for the standings (the match over), else empty."""
    piles: Piles | None
    names: tuple[str, ...]
    lang: str
    theme: Theme


def table_sketch(
    game: PublicPosition,
    names: Sequence[str],
    lang: Lang,
    *,
    piles: Piles | None = None,
    theme: Theme = Theme.DARK,
) -> TableSketch:
    """The sketch of :func:`table_pictures`, made without drawing anything."""
    rules = game.rules
    shown = game.deal_scores and (game.finished or len(game.plays) < rules.players)
    return TableSketch(
        rules=rules,
        deal_number=game.deal_number,
        felt=game.felt,
        hand_sizes=game.hand_sizes,
        deck_size=game.deck_size,
        captured_counts=game.captured_counts,
        scope=game.scope,
        last_play=game.plays[-1] if game.plays else None,
        totals=game.totals,
        outcome=game.outcome,
        turn=game.turn,
        dealer=game.dealer,
        finished=game.finished,
        breakdown=game.deal_scores[-1] if shown else None,
        deal_scores=game.deal_scores if game.finished else (),
        piles=piles if shown else None,
        names=tuple(plain_name(n) or "?" for n in names),  # one line each, whatever they held
        lang=str(lang),
        theme=theme,
    )


def table_pictures(
    game: PublicPosition,
    names: Sequence[str],
    lang: Lang,
    *,
    game_id: int,
    version: int,
    piles: Piles | None = None,
    theme: Theme = Theme.DARK,
) -> tuple[Picture, ...]:
    """The table message's pictures: the table while the match is on, with the last deal's
    breakdown beside it through the next deal's first round (so everyone sees it at their
    turn, even when a computer opens the deal at once); at the end the standings and the
    last deal's breakdown.

    ``names`` are plain names (a picture cannot show a mention); ``piles`` are each side's
    cards of the last deal (:func:`scopabot.render.image.deal_piles`), for its primiera
    cards, when known. This draws (a few milliseconds a picture): call it off the event loop."""
    sketch = table_sketch(game, names, lang, piles=piles, theme=theme)
    return table_files(sketched_table(sketch), game_id=game_id, version=version)


def sketched_table(sketch: TableSketch) -> tuple[Picture, ...]:
    """The pictures of a table sketch (in a drawing process), under file names without the
    game (:func:`table_files` gives them)."""
    rules, names, lang, theme = sketch.rules, list(sketch.names), sketch.lang, sketch.theme
    out: list[Picture] = []
    if sketch.finished:
        outcome = sketch.outcome
        out.append(
            Picture(
                f"standings.{FORMAT}",
                standings_image(
                    sketch.totals,
                    rules=rules,
                    names=names,
                    deal_scores=sketch.deal_scores,
                    outcome=outcome,
                    theme=theme,
                    lang=lang,
                ),
                standings_alt_text(
                    sketch.totals, rules=rules, names=names, outcome=outcome, lang=lang
                ),
            )
        )
    else:
        view = _sketched_view(sketch)
        out.append(
            Picture(
                f"table.{FORMAT}",
                table_image(view, names=names, theme=theme, lang=lang),
                table_alt_text(view, names, lang=lang),
            )
        )
    score, piles = sketch.breakdown, sketch.piles
    if score is not None:
        out.append(
            Picture(
                f"deal-{score.deal}.{FORMAT}",
                deal_image(score, rules=rules, names=names, piles=piles, theme=theme, lang=lang),
                deal_alt_text(score, rules=rules, names=names, piles=piles, lang=lang),
            )
        )
    return tuple(out)


def table_files(pictures: Sequence[Picture], *, game_id: int, version: int) -> tuple[Picture, ...]:
    """The pictures of :func:`sketched_table` under the names the table message gives them:
    the table's changes with every version (so no client shows an old one from its cache),
    a deal's breakdown is named by its deal, the standings by the game."""

    def named(filename: str) -> str:
        stem = filename.removesuffix(f".{FORMAT}")
        if stem == "table":
            return f"table-{game_id}-{version}.{FORMAT}"
        if stem == "standings":
            return f"standings-{game_id}.{FORMAT}"
        return f"deal-{game_id}-{stem.removeprefix('deal-')}.{FORMAT}"

    return tuple(replace(p, filename=named(p.filename)) for p in pictures)


def _sketched_view(sketch: TableSketch) -> GameView:
    """The sketch as a :class:`GameView` holding no hand, for the table picture (whose seat
    is set to the seat in turn only because a view needs one: it is nobody's)."""
    return GameView(
        rules=sketch.rules,
        seat=sketch.turn,
        turn=sketch.turn,
        dealer=sketch.dealer,
        deal_number=sketch.deal_number,
        hand=(),
        felt=sketch.felt,
        hand_sizes=sketch.hand_sizes,
        deck_size=sketch.deck_size,
        captured_counts=sketch.captured_counts,
        scope=sketch.scope,
        plays=() if sketch.last_play is None else (sketch.last_play,),
        totals=sketch.totals,
        deal_scores=(),
        last_capturer=None,
        outcome=sketch.outcome,
        spareggio=0,
    )
