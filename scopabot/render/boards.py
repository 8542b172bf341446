"""Leaderboards, a player's statistics and score sheets, as screens.

They take plain values (rows of rank, name, score, games; totals per side), so render needs
nothing from the service.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .i18n import Lang, tr, trn
from .names import typed_text
from .screens import GOLD, GREEN, GREY, Action, Button, Screen, Style

RATING_BASE = 1000
RATING_SCALE = 30
"""A rating as people read it: ``1000 + 30 × ordinal``. The ordinal (openskill's
conservative ``mu - 3 sigma``) starts at 0 and moves by a few units a match; at settled
uncertainty one unit of ``mu`` is about 30 chess (Elo) points in openskill's Plackett-Luce
model, so ratings read like chess ratings: a newcomer starts at 1000, computers range from
about 700 (random) to 1300 (expert) and a match moves a rating by tens of points."""


def rating_points(score: float) -> int:
    """The displayed rating of a leaderboard score (never the raw ordinal, often negative)."""
    return round(RATING_BASE + RATING_SCALE * score)


NEWCOMER_SCORE = 0.0
"""A newcomer's score before their first rated match (the service's ``mu - 3 sigma`` of
openskill's default rating), shown as the start of their first change."""


def rating_change(before: float | None, after: float, lang: Lang) -> str:
    """ "1000 → **1103** (+103)", and for a first rated match the same, saying so."""
    start, end = rating_points(NEWCOMER_SCORE if before is None else before), rating_points(after)
    key = "rating.change_first" if before is None else "rating.change"
    return tr(key, lang, before=start, after=end, diff=f"{end - start:+d}")


@dataclass(frozen=True, slots=True)
class BoardLine:
    rank: int
    name: str
    score: float
    games: int


def leaderboard_screen(
    lines: Sequence[BoardLine],
    lang: Lang,
    *,
    title: str,
    next_cursor: str | None,
    first_page: bool,
) -> Screen:
    if lines:
        body = "\n".join(
            f"**{line.rank}.** {line.name} — {rating_points(line.score)} "
            f"({trn('board.games', line.games, lang, games=line.games)})"
            for line in lines
        )
    else:
        body = tr("board.empty", lang)
    buttons = []
    if not first_page:
        buttons.append(Button(tr("btn.first", lang), Action.PAGE, ""))
    if next_cursor is not None:
        buttons.append(Button(tr("btn.next", lang), Action.PAGE, next_cursor, Style.PRIMARY))
    return Screen((f"## {title}", body), (tuple(buttons),) if buttons else (), accent=GOLD)


@dataclass(frozen=True, slots=True)
class StatsLine:
    game: str
    score: float | None
    rank: int | None
    games: int
    wins: int
    scope: int
    settebelli: int
    points_per_deal: float | None


def stats_screen(name: str, lines: Sequence[StatsLine], lang: Lang, *, board: str) -> Screen:
    blocks = [f"## {tr('stats.title', lang, name=name)} · {board}"]
    if not lines:
        blocks.append(tr("stats.none", lang))
    for line in lines:
        rating = "—" if line.score is None else str(rating_points(line.score))
        rank = "" if line.rank is None else f" (#{line.rank})"
        ppd = "—" if line.points_per_deal is None else f"{line.points_per_deal:.2f}"
        if lang is Lang.IT:
            ppd = ppd.replace(".", ",")  # Italian writes a decimal comma
        blocks.append(
            f"**{line.game}**: "
            + tr(
                "stats.line",
                lang,
                rating=rating + rank,
                games=trn("stats.games", line.games, lang, n=line.games),
                wins=trn("stats.wins", line.wins, lang, n=line.wins),
                scope=trn("stats.scope", line.scope, lang, n=line.scope),
                settebelli=trn("stats.settebelli", line.settebelli, lang, n=line.settebelli),
                ppd=ppd,
            )
        )
    return Screen(tuple(blocks), accent=GREEN)


def sheet_screen(
    title: str,
    sides: Sequence[tuple[str, int, int | None]],
    lang: Lang,
    *,
    target: int | None,
    winner: int | None,
    tied: bool,
    closed: bool,
    last: str = "",
) -> Screen:
    """A score sheet: each side's name, points and what it still needs; quick buttons.

    The title and the names are what people typed: escaped in the text (no link, spoiler or
    mention of theirs renders), as they are on the buttons (whose labels show no markup)."""
    shown = [typed_text(name) for name, _, _ in sides]
    head = f"## {typed_text(title) if title else tr('sheet.title', lang)}"
    if target is not None:
        head += "\n" + trn("rules.target", target, lang, target=target)
    rows_text = []
    for name, (_, points, needs) in zip(shown, sides, strict=True):
        line = f"**{name}**: {points}"
        if needs is not None:
            line += " " + trn("sheet.needs", needs, lang, needs=needs)
        rows_text.append(line)
    blocks = [head, "\n".join(rows_text)]
    if last:
        blocks.append(last)
    if winner is not None:
        blocks.append("### " + tr("sheet.winner", lang, name=shown[winner]))
    elif tied:
        blocks.append(tr("sheet.tied", lang))
    if closed:
        return Screen(tuple(blocks), accent=GOLD if winner is not None else GREY)
    undo = Button(tr("btn.undo", lang), Action.UNDO)
    end = Button(tr("btn.end", lang), Action.END, style=Style.DANGER)
    if winner is not None:
        # No more points, but a wrong winning entry can still be taken back and the sheet
        # closed: until it is closed, the winner is only what the entries so far say.
        return Screen(tuple(blocks), ((undo, end),), accent=GOLD)
    rows: list[tuple[Button, ...]] = []
    for side, (name, _, _) in enumerate(sides):
        rows.append(
            tuple(
                Button(f"{name} +{p}", Action.SCORE, f"{side}.{p}", Style.PRIMARY)
                for p in (1, 2, 3)
            )
        )
    rows.append(
        (
            # A score with no side and points: any amount, asked in a form (a modal).
            Button(tr("btn.custom_points", lang), Action.SCORE, "", Style.SUCCESS),
            undo,
            end,
        )
    )
    return Screen(tuple(blocks), tuple(rows), accent=GREEN)
