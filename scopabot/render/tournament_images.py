"""A tournament's standings and bracket as pictures, each with its alt text.

The same plain values as the text (:mod:`scopabot.render.tournament`), with the entries
written as names a picture can show (never mentions). Drawn like the match's standings
(:mod:`scopabot.render.score_images`): 800 pixels wide on the felt, rows on alternate panels,
no text under 28 pixels (12 once shown 360 wide, :data:`~scopabot.render.canvas.MIN_TEXT`).

The bracket of a knock-out is a tree, a column a round, the final last: slots 2k and 2k+1 of
a round feed slot k of the next, so the matches still to come are drawn as empty boxes where
their winners will meet. At most eight matches stand in the first column shown: a bigger
bracket starts at the round of sixteen (the earlier rounds are in the text). A round robin's
or a Swiss's rounds are lists of results instead, the latest rounds kept when they are many.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .canvas import Canvas
from .i18n import Lang, tr
from .memo import PICTURES
from .screens import Picture
from .theme import Theme
from .tournament import MatchLine, StandingLine, group_name

WIDTH: Final = 800
PAD: Final = 20
TITLE: Final = 34
TEXT: Final = 28
ROW_H: Final = 46
HEAD_H: Final = 44
ALT_LIMIT: Final = 1024  # Discord's limit for an attachment's description
PAGE: Final = 15  # standings lines a picture (as a page of the text)
TREE_FIRST: Final = 8  # at most this many matches in the bracket's first column
LIST_LINES: Final = 24  # at most this many match lines in a league's rounds

# The standings' columns: (catalog key of the head, right edge from the picture's left).
_NUMBERS: Final = (
    ("tour.col.played", 380),
    ("tour.col.won", 428),
    ("tour.col.lost", 476),
    ("tour.col.points", 566),
    ("tour.col.tiebreak", 630),
)
NO_SCORE: Final = ("withdrawn", "not_played", "resign", "forfeit", "organiser")
"""The reasons a match is decided with no score to show (a walkover, a resignation...)."""
_NAME_X: Final = PAD + 64
_NAME_RIGHT: Final = 330
_SCORE_RIGHT: Final = WIDTH - PAD - 8


# ---------------------------------------------------------------------- standings


def standings_picture(
    name: str,
    lines: Sequence[StandingLine],
    lang: Lang,
    *,
    page: int = 1,
    theme: Theme = Theme.DARK,
) -> Picture:
    """One page of the standings (as :func:`~scopabot.render.tournament.standings_text`)
    drawn, ``lines[i].who`` a plain name."""
    pages = max(1, (len(lines) + PAGE - 1) // PAGE)
    page = min(max(1, page), pages)
    shown = tuple(lines[(page - 1) * PAGE : page * PAGE])
    key = ("tour-standings", name, shown, lang, page, pages, theme)
    data = PICTURES.get(key, lambda: _standings(name, shown, lang, page, pages, theme))
    return Picture("standings.png", data, standings_alt_text(name, shown, lang, page, pages))


def _by_group(lines: Sequence[StandingLine]) -> bool:
    groups = [line.group for line in lines]
    return all(g is not None for g in groups) and groups == sorted(groups)  # type: ignore[type-var]


def _standings(
    name: str,
    lines: Sequence[StandingLine],
    lang: Lang,
    page: int,
    pages: int,
    theme: Theme,
) -> bytes:
    grouped = _by_group(lines)
    heads = len({line.group for line in lines}) if grouped else 0
    rows = max(1, len(lines))
    height = PAD + 52 + HEAD_H + ROW_H * (rows + heads) + PAD
    cv = Canvas(WIDTH, height, theme)
    col = cv.colours
    title = tr("tour.pic.standings", lang, name=name, page=page, pages=pages)
    cv.text((PAD, PAD), cv.fit(title, TITLE, WIDTH - 2 * PAD, bold=True), TITLE, bold=True)
    y = PAD + 52
    mid = y + HEAD_H / 2
    cv.text((PAD + 8, mid), "#", TEXT, anchor="lm", fill=col.muted, bold=True)
    cv.text((_NAME_X, mid), tr("tour.col.entry", lang), TEXT, anchor="lm", fill=col.muted)
    for head, right in _NUMBERS:
        cv.text((right, mid), tr(head, lang), TEXT, anchor="rm", fill=col.muted, bold=True)
    cv.text((_SCORE_RIGHT, mid), tr("tour.col.scored", lang), TEXT, anchor="rm", fill=col.muted)
    y += HEAD_H
    cv.draw.line((PAD, y - 2, WIDTH - PAD, y - 2), fill=col.text, width=2)
    if not lines:
        cv.text((PAD + 8, y + ROW_H / 2), tr("tour.empty", lang), TEXT, anchor="lm")
        return cv.encode()
    names = cv.labels([line.who for line in lines], TEXT, _NAME_RIGHT - _NAME_X, bold=True)
    group: int | None = None
    for i, (line, who) in enumerate(zip(lines, names, strict=True)):
        if grouped and line.group != group:
            group = line.group
            label = tr("tour.group", lang, group=group_name(group or 0))
            cv.text((PAD + 8, y + ROW_H / 2), label, TEXT, anchor="lm", bold=True, fill=col.turn)
            y += ROW_H
        if i % 2 == 0:
            cv.draw.rectangle((PAD, y, WIDTH - PAD, y + ROW_H - 1), fill=col.panel)
        mid = y + ROW_H / 2
        first = line.rank == 1 and not line.withdrawn
        cv.text((PAD + 8, mid), str(line.rank), TEXT, anchor="lm", bold=True)
        fill = col.muted if line.withdrawn else (col.turn if first else col.text)
        x = _NAME_X + cv.text((_NAME_X, mid), who, TEXT, anchor="lm", bold=True, fill=fill)
        if line.withdrawn:
            mark = cv.fit(tr("tour.withdrawn", lang), TEXT, max(0, _NAME_RIGHT + 20 - x - 8))
            if mark.strip("…"):
                cv.text((x + 8, mid), mark, TEXT, anchor="lm", fill=col.muted)
        values = (line.played, line.won, line.lost, line.points, line.tiebreak)
        for (head, right), value in zip(_NUMBERS, values, strict=True):
            bold = head == "tour.col.points"
            cv.text((right, mid), str(value), TEXT, anchor="rm", bold=bold)
        score = f"{line.scored}–{line.conceded}"
        cv.text((_SCORE_RIGHT, mid), score, TEXT, anchor="rm", fill=col.muted)
        y += ROW_H
    return cv.encode()


def standings_alt_text(
    name: str, lines: Sequence[StandingLine], lang: Lang, page: int = 1, pages: int = 1
) -> str:
    """The standings read aloud: place, entry, points and how they came, line by line."""
    head = tr("tour.alt.standings", lang, name=name, page=page, pages=pages)
    if not lines:
        return _fit_alt(head, [tr("tour.empty", lang)])
    parts = []
    for line in lines:
        who = line.who + (" " + tr("tour.withdrawn", lang) if line.withdrawn else "")
        said = tr(
            "tour.alt.standing",
            lang,
            rank=line.rank,
            who=who,
            points=line.points,
            played=line.played,
            won=line.won,
            lost=line.lost,
            tiebreak=line.tiebreak,
            scored=line.scored,
            conceded=line.conceded,
        )
        parts.append(said)
    return _fit_alt(head, parts)


def _fit_alt(head: str, parts: Sequence[str]) -> str:
    """``head`` and as many ``parts`` as Discord's 1,024 characters take, "…" after."""
    out = head
    for i, part in enumerate(parts):
        joined = f"{out} {part}" if i == 0 else f"{out}; {part}"
        rest = len(parts) - i - 1
        if len(joined) + (3 if rest else 0) > ALT_LIMIT:
            return (out + " …")[:ALT_LIMIT]
        out = joined
    return out[:ALT_LIMIT]


# ---------------------------------------------------------------------- bracket


def bracket_picture(
    name: str,
    matches: Sequence[MatchLine],
    lang: Lang,
    *,
    first_round: int,
    knockout: bool,
    theme: Theme = Theme.DARK,
) -> Picture:
    """The pairings round by round: a knock-out's tree from ``first_round`` to the final, or
    a league's rounds as lists (``knockout`` False); ``matches[i].a``/``b`` plain names."""
    shown = tuple(m for m in matches if m.round >= first_round)
    key = ("tour-bracket", name, shown, lang, first_round, knockout, theme)
    if knockout:
        data = PICTURES.get(key, lambda: _tree(name, shown, lang, first_round, theme))
    else:
        data = PICTURES.get(key, lambda: _rounds(name, shown, lang, theme))
    return Picture("bracket.png", data, bracket_alt_text(name, shown, lang, knockout=knockout))


def round_titles(matches: Sequence[MatchLine], lang: Lang, *, knockout: bool) -> dict[int, str]:
    """Each round's name: in a knock-out the last two are the final and the semi-finals."""
    rounds = sorted({m.round for m in matches})
    out = {n: tr("tour.pic.round", lang, n=n) for n in rounds}
    if knockout and rounds:
        size = _slots(matches, rounds[0])
        for i, n in enumerate(rounds):
            out[n] = _round_title(n, max(1, size >> i), lang)
    return out


def _round_title(number: int, places: int, lang: Lang) -> str:
    if places == 1:
        return tr("tour.pic.final", lang)
    if places == 2:
        return tr("tour.pic.semi_final", lang)
    return tr("tour.pic.round", lang, n=number)


def _slots(matches: Sequence[MatchLine], number: int) -> int:
    """How many places the knock-out round ``number`` has: a power of two."""
    top = max((m.slot for m in matches if m.round == number), default=0) + 1
    size = 1
    while size < top:
        size *= 2
    return size


def _tree(
    name: str, matches: Sequence[MatchLine], lang: Lang, first_round: int, theme: Theme
) -> bytes:
    start = first_round
    size = _slots(matches, start) if matches else 1
    while size > TREE_FIRST:  # too many to read: begin further on
        size //= 2
        start += 1
    columns: list[tuple[int, int]] = []  # (round number, places)
    places = size
    while True:
        columns.append((start + len(columns), places))
        if places == 1:
            break
        places //= 2
    box_h = 2 * 38 + 8
    gap = 16
    body = size * (box_h + gap)
    height = PAD + 52 + HEAD_H + body + PAD
    cv = Canvas(WIDTH, height, theme)
    col = cv.colours
    title = tr("tour.pic.bracket", lang, name=name)
    cv.text((PAD, PAD), cv.fit(title, TITLE, WIDTH - 2 * PAD, bold=True), TITLE, bold=True)
    n = len(columns)
    link = 24  # room for the lines joining a match to the next
    col_w = (WIDTH - 2 * PAD - link * (n - 1)) / n
    top = PAD + 52 + HEAD_H
    by_place = {(m.round, m.slot): m for m in matches}
    centres: list[list[float]] = []
    for c, (number, places) in enumerate(columns):
        x0 = PAD + c * (col_w + link)
        head = _round_title(number, places, lang)
        cv.text(
            (x0 + col_w / 2, PAD + 52 + HEAD_H / 2),
            cv.fit(head, TEXT, col_w, bold=True),
            TEXT,
            anchor="mm",
            bold=True,
            fill=col.muted,
        )
        span = body / places
        mids = []
        for slot in range(places):
            cy = top + span * (slot + 0.5)
            mids.append(cy)
            _box(cv, by_place.get((number, slot)), x0, cy - box_h / 2, col_w, box_h, lang)
            if c > 0:  # the lines from the two matches that feed this one
                px = x0 - link
                for fed in (2 * slot, 2 * slot + 1):
                    fy = centres[c - 1][fed]
                    cv.draw.line((px, fy, px + link / 2, fy), fill=col.muted, width=2)
                    cv.draw.line((px + link / 2, fy, px + link / 2, cy), fill=col.muted, width=2)
                cv.draw.line((px + link / 2, cy, x0, cy), fill=col.muted, width=2)
        centres.append(mids)
    return cv.encode()


def _box(
    cv: Canvas,
    match: MatchLine | None,
    x: float,
    y: float,
    w: float,
    h: int,
    lang: Lang,
) -> None:
    """One knock-out match: its two sides, each with its points, the winner in gold."""
    col = cv.colours
    playing = match is not None and match.outcome is None and match.b is not None
    cv.panel((x, y, x + w, y + h), outline=col.last if playing else None, width=3, radius=10)
    if match is None:
        cv.text((x + 12, y + h / 2), "—", TEXT, anchor="lm", fill=col.muted)
        return
    b = match.b
    if b is None:
        key = "tour.pic.rest" if match.outcome == "rest" else "tour.pic.bye"
        b = tr(key, lang)
    sides = [(match.a, "a", match.points[0]), (b, "b", match.points[1])]
    decided = match.outcome in ("a", "b") and match.b is not None
    played = decided and match.reason not in NO_SCORE
    room = w - 24 - (cv.length("00", TEXT, bold=True) + 10 if played else 0)
    names = cv.labels([s[0] for s in sides], TEXT, room, bold=True)
    for i, ((_, side, points), shown) in enumerate(zip(sides, names, strict=True)):
        cy = y + 4 + 38 * i + 19
        won = match.outcome == side or (match.b is None and side == "a")
        lost = match.outcome in ("a", "b", "both_lost") and not won
        fill = col.turn if won else (col.muted if lost or match.b is None else col.text)
        cv.text((x + 12, cy), shown, TEXT, anchor="lm", bold=won, fill=fill)
        if played:
            cv.text((x + w - 12, cy), str(points), TEXT, anchor="rm", bold=won, fill=fill)


def _rounds(name: str, matches: Sequence[MatchLine], lang: Lang, theme: Theme) -> bytes:
    """A league's rounds as lists: each match on its line, the result between the sides."""
    titles = round_titles(matches, lang, knockout=False)
    rounds = sorted(titles)
    kept: list[int] = []
    count = 0
    for number in reversed(rounds):  # the latest rounds, as many as fit
        n = sum(m.round == number for m in matches)
        if kept and count + n > LIST_LINES:
            break
        kept.insert(0, number)
        count += n
    skipped = len(rounds) > len(kept)
    height = PAD + 52 + (ROW_H if skipped else 0) + (HEAD_H + 8) * len(kept) + ROW_H * count + PAD
    cv = Canvas(WIDTH, max(height, PAD + 52 + ROW_H + PAD), theme)
    col = cv.colours
    title = tr("tour.pic.bracket", lang, name=name)
    cv.text((PAD, PAD), cv.fit(title, TITLE, WIDTH - 2 * PAD, bold=True), TITLE, bold=True)
    y = PAD + 52
    if not matches:
        cv.text((PAD + 8, y + ROW_H / 2), tr("tour.pic.none", lang), TEXT, anchor="lm")
        return cv.encode()
    if skipped:
        cv.text((PAD + 8, y + ROW_H / 2), "…", TEXT, anchor="lm", fill=col.muted)
        y += ROW_H
    half = (WIDTH - 2 * PAD - 160) / 2
    centre = WIDTH / 2
    for number in kept:
        cv.text((PAD + 8, y + HEAD_H / 2), titles[number], TEXT, anchor="lm", bold=True)
        y += HEAD_H + 8
        for i, m in enumerate(m for m in matches if m.round == number):
            if i % 2 == 0:
                cv.draw.rectangle((PAD, y, WIDTH - PAD, y + ROW_H - 1), fill=col.panel)
            mid = y + ROW_H / 2
            b = m.b if m.b is not None else tr(f"tour.pic.{m.outcome or 'bye'}", lang)
            a_shown, b_shown = cv.labels([m.a, b], TEXT, half - 16, bold=True)
            won_a = m.outcome in ("a", "bye", "rest")
            won_b = m.outcome == "b"
            cv.text(
                (centre - 80, mid),
                a_shown,
                TEXT,
                anchor="rm",
                bold=won_a,
                fill=col.turn if won_a and m.outcome != "rest" else col.text,
            )
            cv.text(
                (centre + 80, mid),
                b_shown,
                TEXT,
                anchor="lm",
                bold=won_b,
                fill=col.turn if won_b else (col.muted if m.b is None else col.text),
            )
            cv.text((centre, mid), _result(m, lang), TEXT, anchor="mm", fill=col.muted)
            y += ROW_H
    return cv.encode()


def _result(m: MatchLine, lang: Lang) -> str:
    """What stands between the sides of a line: the points, or a word when there are none."""
    if m.b is None:
        return ""
    if m.outcome is None:
        return "…"
    if m.outcome == "both_lost" or m.reason in NO_SCORE:
        return "—"
    return f"{m.points[0]}–{m.points[1]}"


def bracket_alt_text(name: str, matches: Sequence[MatchLine], lang: Lang, *, knockout: bool) -> str:
    """The rounds read aloud, the latest kept when they do not all fit: who met whom and how
    it went."""
    titles = round_titles(matches, lang, knockout=knockout)
    head = tr("tour.alt.bracket", lang, name=name)
    if not matches:
        return f"{head} {tr('tour.pic.none', lang)}"
    blocks = []
    for number in sorted(titles):
        said = [_said(m, lang) for m in matches if m.round == number]
        blocks.append(f"{titles[number]}: " + "; ".join(said) + ".")
    kept: list[str] = []
    for block in reversed(blocks):
        if len(" ".join([head, "…", block, *kept])) > ALT_LIMIT:
            break
        kept.insert(0, block)
    if not kept:  # one round alone too long: cut it
        return f"{head} {blocks[-1]}"[: ALT_LIMIT - 1] + "…"
    if len(kept) < len(blocks):
        kept.insert(0, "…")
    return " ".join([head, *kept])


def _said(m: MatchLine, lang: Lang) -> str:
    if m.b is None:
        return tr("tour.rest" if m.outcome == "rest" else "tour.bye", lang, a=m.a)
    if m.outcome is None:
        return tr("tour.alt.playing", lang, a=m.a, b=m.b)
    if m.outcome == "both_lost":
        return tr("tour.alt.both_lost", lang, a=m.a, b=m.b)
    winner, loser = (m.a, m.b) if m.outcome == "a" else (m.b, m.a)
    points = m.points if m.outcome == "a" else (m.points[1], m.points[0])
    if m.reason in ("withdrawn", "not_played"):
        return tr("tour.alt.walkover", lang, winner=winner, loser=loser)
    if m.reason in ("resign", "forfeit"):
        return tr("tour.alt.resigned", lang, winner=winner, loser=loser)
    if m.reason == "organiser":
        return tr("tour.alt.by_organiser", lang, winner=winner, loser=loser)
    return tr("tour.alt.beat", lang, winner=winner, loser=loser, points=f"{points[0]}–{points[1]}")


__all__ = [
    "bracket_alt_text",
    "bracket_picture",
    "round_titles",
    "standings_alt_text",
    "standings_picture",
]
