"""A tournament in words: its standings (paged), its bracket, a round's pairings, its end.

Plain values in (names already written, as mentions or words), text out, each message within
Discord's 2,000 characters. The standings read as the tie-breaks rank them; the bracket is
the knock-out's rounds, the final last.

>>> line = StandingLine(1, "Giulia", 2, 2, 0, 4, 2, 22, 9, False)
>>> print(standings_text("Coppa", [line], Lang.IT)[0])
## Coppa · classifica (1/1)
Posto · iscritto · giocate, vinte, perse · punti · spareggio · punti fatti–subiti
1. Giulia · 2, 2, 0 · **4** · 2 · 22–9
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from .i18n import Lang, tr

PAGE = 15  # standings lines a page
LIMIT = 1900  # characters of a message, leaving room under Discord's 2,000


@dataclass(frozen=True, slots=True)
class StandingLine:
    rank: int
    who: str
    played: int
    won: int
    lost: int
    points: int
    tiebreak: int
    scored: int
    conceded: int
    withdrawn: bool
    group: int | None = None


@dataclass(frozen=True, slots=True)
class MatchLine:
    """One pairing: ``outcome`` a, b, both_lost, bye, rest or None (being played)."""

    round: int
    a: str
    b: str | None
    outcome: str | None
    points: tuple[int, int]
    table: str | None = None  # where it is played (a link), while it is
    reason: str | None = None
    group: int | None = None
    slot: int = 0  # its place in the round (a knock-out's slots 2k and 2k+1 feed slot k)


def format_name(fmt: str, lang: Lang) -> str:
    return tr(f"tour.format.{fmt}", lang)


def status_text(status: str, round_number: int, lang: Lang) -> str:
    return tr(f"tour.status.{status}", lang, round=round_number)


def group_name(group: int) -> str:
    return chr(ord("A") + group) if 0 <= group < 26 else str(group + 1)


def standings_text(
    name: str, lines: Sequence[StandingLine], lang: Lang, *, page: int = 1
) -> tuple[str, int]:
    """One page of the standings (pages from 1) and how many pages there are."""
    pages = max(1, (len(lines) + PAGE - 1) // PAGE)
    page = min(max(1, page), pages)
    out = [tr("tour.standings", lang, name=name, page=page, pages=pages)]
    if not lines:
        return "\n".join([*out, tr("tour.empty", lang)]), pages
    out.append(tr("tour.standings_head", lang))
    group: int | None = None
    for line in lines[(page - 1) * PAGE : page * PAGE]:
        if line.group is not None and line.group != group and _by_group(lines):
            group = line.group
            out.append(tr("tour.group", lang, group=group_name(group)))
        who = line.who + (" " + tr("tour.withdrawn", lang) if line.withdrawn else "")
        out.append(
            tr(
                "tour.standings_line",
                lang,
                rank=line.rank,
                who=who,
                played=line.played,
                won=line.won,
                lost=line.lost,
                points=line.points,
                tiebreak=line.tiebreak,
                scored=line.scored,
                conceded=line.conceded,
            )
        )
    return "\n".join(out)[:LIMIT], pages


def _by_group(lines: Sequence[StandingLine]) -> bool:
    """Whether the lines come group by group (the group stage), not as one ranking."""
    groups = [line.group for line in lines]
    return all(g is not None for g in groups) and groups == sorted(groups)  # type: ignore[type-var]


def result_text(match: MatchLine, lang: Lang) -> str:
    """How a decided match went, or that it is being played."""
    if match.outcome is None:
        return match.table or tr("tour.playing", lang)
    if match.outcome == "both_lost":
        return tr("tour.both_lost", lang)
    if match.reason in ("withdrawn", "not_played"):
        return tr("tour.walkover", lang)
    if match.reason in ("resign", "forfeit"):
        return tr("tour.resigned", lang)
    if match.reason == "organiser":
        return tr("tour.by_organiser", lang)
    return f"{match.points[0]}–{match.points[1]}"


def match_text(match: MatchLine, lang: Lang) -> str:
    if match.b is None:
        key = "tour.rest" if match.outcome == "rest" else "tour.bye"
        return tr(key, lang, a=match.a)
    if match.outcome is None:
        table = match.table or tr("tour.table_soon", lang)
        return tr("tour.match", lang, a=match.a, b=match.b, table=table)
    a, b = match.a, match.b
    if match.outcome == "a":
        a = f"**{a}**"
    elif match.outcome == "b":
        b = f"**{b}**"
    return tr("tour.decided", lang, a=a, b=b, result=result_text(match, lang))


def round_text(
    name: str, number: int, deadline: datetime, matches: Sequence[MatchLine], lang: Lang
) -> str:
    """A round's announcement: its deadline, then who meets whom and where."""
    out = [tr("tour.round", lang, name=name, n=number, ts=int(deadline.timestamp()))]
    out += ["- " + match_text(m, lang) for m in matches]
    return _fit(out)


def your_round_text(
    name: str,
    number: int,
    deadline: datetime,
    lang: Lang,
    *,
    opponent: str | None,
    partner: str | None = None,
    table: str | None = None,
    outcome: str | None = None,
) -> str:
    """What one player is told when a round starts: whom they meet (``opponent`` None: a
    computer player), with whom, at which table, and the round's deadline; or that they have
    a bye or rest this round."""
    ts = int(deadline.timestamp())
    if outcome in ("bye", "rest"):
        return tr(f"tour.you.{outcome}", lang, name=name, n=number, ts=ts)
    return tr(
        "tour.you.match",
        lang,
        name=name,
        n=number,
        ts=ts,
        opponent=opponent or tr("tour.you.computer", lang),
        partner=tr("tour.you.partner", lang, partner=partner) if partner else "",
        table=table or tr("tour.table_soon", lang),
    )


def bracket_text(name: str, matches: Sequence[MatchLine], lang: Lang, *, first_round: int) -> str:
    """The knock-out's rounds from ``first_round`` on, each match with its result; when it
    does not fit in one message, the latest rounds are kept."""
    rounds = sorted({m.round for m in matches if m.round >= first_round})
    blocks: list[list[str]] = []
    for i, number in enumerate(rounds):
        left = len(rounds) - i
        if left == 1 and sum(m.round == number for m in matches) == 1 and len(rounds) > 1:
            title = tr("tour.final", lang)
        elif left == 2 and sum(m.round == number for m in matches) == 2:
            title = tr("tour.semi_final", lang)
        else:
            title = tr("tour.round_label", lang, n=number)
        block = [title] + ["- " + match_text(m, lang) for m in matches if m.round == number]
        blocks.append(block)
    head = tr("tour.bracket", lang, name=name)
    kept: list[str] = []
    for block in reversed(blocks):
        if len("\n".join([head, *block, *kept])) > LIMIT:
            break
        kept = block + kept
    return "\n".join([head, *kept])


def winner_text(name: str, winner: str | None, lang: Lang, *, cancelled: bool = False) -> str:
    if cancelled:
        return tr("tour.cancelled", lang, name=name)
    if winner is None:
        return tr("tour.no_winner", lang, name=name)
    return tr("tour.winner", lang, name=name, winner=winner)


def _fit(lines: list[str]) -> str:
    out: list[str] = []
    for line in lines:
        if len("\n".join([*out, line])) > LIMIT:
            out.append("…")
            break
        out.append(line)
    return "\n".join(out)


__all__ = [
    "MatchLine",
    "StandingLine",
    "bracket_text",
    "format_name",
    "group_name",
    "match_text",
    "result_text",
    "round_text",
    "standings_text",
    "status_text",
    "winner_text",
    "your_round_text",
]
