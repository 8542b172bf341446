"""Pictures of the score: one deal's breakdown (with the primiera cards) and the standings.

Both are drawn from public results only (a :class:`~scopabot.engine.DealScore`, the totals,
the captured piles everyone saw taken face up), so the same picture goes to the whole table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from scopabot.engine import Card, DealScore, Outcome, Rules

from .alt_text import outcome_phrase, primiera_cards
from .canvas import Canvas
from .cards_art import card_height
from .memo import PICTURES
from .theme import Theme
from .words import side_names, word

WIDTH: Final = 800
PAD: Final = 20
LABEL_W: Final = 200
ROW_H: Final = 48
TITLE: Final = 34
TEXT: Final = 28
PRIMIERA_CARD: Final = 64

DEAL_ROWS: Final = (
    ("cards", "carte", "cards"),
    ("denari", "denari", "denari_count"),
    ("settebello", "settebello", None),
    ("primiera", "primiera", "primiera_total"),
    ("scope", "scope", None),
    ("re_bello", "re_bello", None),
    ("napola", "napola", None),
)
"""(word, points field, count field) of each row of the breakdown, in the rule book's order."""


def _side_labels(cv: Canvas, rules: Rules, names: Sequence[str], col_w: float) -> list[str]:
    """Each side's name as its column head shows it, its players' names told apart
    (:func:`scopabot.render.names.labels`) and short enough to fit the column."""
    per_side = rules.players // rules.sides
    amp = cv.length(" & ", TEXT, bold=True) * (per_side - 1)
    seats = cv.labels(names, TEXT, (col_w - 12 - amp) / per_side, bold=True)
    return list(side_names(rules, seats))


def _columns(cv: Canvas, sides: Sequence[str], y: int) -> list[float]:
    """Draw the side names as column heads; return each column's centre."""
    n = len(sides)
    col_w = (WIDTH - 2 * PAD - LABEL_W) / n
    centres = [PAD + LABEL_W + col_w * (i + 0.5) for i in range(n)]
    for cx, name in zip(centres, sides, strict=True):
        cv.text((cx, y), cv.fit(name, TEXT, col_w - 8, bold=True), TEXT, anchor="ma", bold=True)
    return centres


def tied(score: DealScore, attr: str, count: str | None) -> set[int]:
    """The sides level on a count whose point nobody won (78-78 at primiera, 20-20 cards):
    the breakdown writes "pari" for them rather than a bare 0."""
    if count is None or any(getattr(s, attr) for s in score.sides):
        return set()
    counts = [getattr(s, count) for s in score.sides]
    best = max((c for c in counts if c is not None), default=None)
    level = {
        s.side for s, c in zip(score.sides, counts, strict=True) if c is not None and c == best
    }
    return level if best is not None and len(level) > 1 else set()


def deal_image(
    score: DealScore,
    *,
    rules: Rules,
    names: Sequence[str],
    piles: Sequence[Sequence[Card]] | None = None,
    theme: Theme = Theme.DARK,
    lang: str = "en",
) -> bytes:
    """The points of one deal side by side, the counts they come from, and, given each side's
    captured pile (:func:`scopabot.render.image.deal_piles`), the cards of its primiera: under
    each column when four cards fit it, else one line per side (three players). Drawn once:
    the table shows it again through the next deal's first round."""
    shown = None if piles is None else tuple(tuple(p) for p in piles)
    key = ("deal", score, rules, tuple(names), shown, theme, lang)
    return PICTURES.get(key, lambda: _deal_image(score, rules, names, piles, theme, lang))


def _deal_image(
    score: DealScore,
    rules: Rules,
    names: Sequence[str],
    piles: Sequence[Sequence[Card]] | None,
    theme: Theme,
    lang: str,
) -> bytes:
    rows = [r for r in DEAL_ROWS if r[1] not in ("re_bello", "napola") or getattr(rules, r[1])]
    col_w = (WIDTH - 2 * PAD - LABEL_W) / rules.sides
    small = PRIMIERA_CARD
    in_columns = 4 * small + 3 * 6 <= col_w - 8
    card_h = card_height(small)
    if piles is None:
        cards_h = 0
    elif in_columns:
        cards_h = card_h + 24
    else:
        cards_h = rules.sides * (card_h + 12) + 12
    height = PAD + 48 + 44 + ROW_H * (len(rows) + 1) + 16 + cards_h + PAD
    cv = Canvas(WIDTH, height, theme)
    col = cv.colours
    sides = _side_labels(cv, rules, names, col_w)
    cv.text((PAD, PAD), word(lang, "deal", n=score.deal), TITLE, bold=True)
    y = PAD + 52
    centres = _columns(cv, sides, y)
    y += 44
    for i, (key, attr, count) in enumerate(rows):
        if i % 2 == 0:
            cv.draw.rectangle((PAD, y, WIDTH - PAD, y + ROW_H - 1), fill=col.panel)
        cv.text((PAD + 12, y + ROW_H / 2), word(lang, key), TEXT, anchor="lm")
        level = tied(score, attr, count)
        for cx, side in zip(centres, score.sides, strict=True):
            points = getattr(side, attr)
            shown = word(lang, "tie") if side.side in level else str(points)
            fill = col.turn if points else (col.text if side.side in level else col.muted)
            bold = bool(points) or side.side in level
            cv.text((cx + 10, y + ROW_H / 2), shown, 30, anchor="rm", fill=fill, bold=bold)
            if count is not None:
                raw = getattr(side, count)
                cv.text(
                    (cx + 20, y + ROW_H / 2),
                    f"({'-' if raw is None else raw})",
                    TEXT,
                    anchor="lm",
                    fill=col.muted,
                )
        y += ROW_H
    cv.draw.line((PAD, y + 2, WIDTH - PAD, y + 2), fill=col.text, width=2)
    cv.text((PAD + 12, y + ROW_H / 2 + 4), word(lang, "total"), TEXT, anchor="lm", bold=True)
    for cx, side in zip(centres, score.sides, strict=True):
        cv.text((cx + 10, y + ROW_H / 2 + 4), str(side.total), 34, anchor="rm", bold=True)
    y += ROW_H + 16
    if piles is None:
        return cv.encode()
    if in_columns:
        cv.text(
            (PAD + 12, y + card_h / 2), word(lang, "primiera"), TEXT, anchor="lm", fill=col.muted
        )
        for cx, side in zip(centres, score.sides, strict=True):
            best = primiera_cards(piles[side.side])
            x = int(cx - (len(best) * (small + 6) - 6) / 2)
            cv.cards_row(best, x, y, small, 6)
        return cv.encode()
    cv.text((PAD + 12, y), word(lang, "primiera"), TEXT, fill=col.muted)
    for side in score.sides:
        top = y + 40 + side.side * (card_h + 12)
        name = cv.fit(sides[side.side], TEXT, LABEL_W - 24, bold=True)
        cv.text((PAD + 12, top + card_h / 2), name, TEXT, anchor="lm", bold=True)
        x = PAD + LABEL_W
        x = cv.cards_row(primiera_cards(piles[side.side]), x, top, small, 8)
        if side.primiera_total is not None:
            cv.text((x + 12, top + card_h / 2), str(side.primiera_total), 30, anchor="lm")
    return cv.encode()


def standings_image(
    totals: Sequence[int],
    *,
    rules: Rules,
    names: Sequence[str],
    deal_scores: Sequence[DealScore] = (),
    outcome: Outcome | None = None,
    theme: Theme = Theme.DARK,
    lang: str = "en",
    last_deals: int = 8,
) -> bytes:
    """The match score: the last deals' points, the totals, the goal, and the winner once the
    match is over (a view gives ``totals``, ``deal_scores`` and ``outcome``)."""
    key = (
        "standings",
        tuple(totals),
        rules,
        tuple(names),
        tuple(deal_scores),
        outcome,
        theme,
        lang,
        last_deals,
    )
    return PICTURES.get(
        key,
        lambda: _standings_image(
            totals, rules, names, deal_scores, outcome, theme, lang, last_deals
        ),
    )


def _standings_image(
    totals: Sequence[int],
    rules: Rules,
    names: Sequence[str],
    deal_scores: Sequence[DealScore],
    outcome: Outcome | None,
    theme: Theme,
    lang: str,
    last_deals: int,
) -> bytes:
    shown = list(deal_scores)[-last_deals:]
    skipped = len(deal_scores) - len(shown)
    height = PAD + 52 + 44 + ROW_H * (len(shown) + (1 if skipped else 0) + 1) + 16
    height += 56 if outcome is not None else 0
    height += PAD
    cv = Canvas(WIDTH, height, theme)
    col = cv.colours
    sides = _side_labels(cv, rules, names, (WIDTH - 2 * PAD - LABEL_W) / rules.sides)
    title = word(lang, "final" if outcome is not None else "standings")
    x = PAD + cv.text((PAD, PAD), title, TITLE, bold=True)
    goal = (
        word(lang, "to_target", n=rules.target)
        if rules.target is not None
        else word(lang, "fixed_deals", n=rules.deals)
    )
    cv.text((x + 16, PAD + 5), "· " + goal, TEXT, fill=col.muted)
    y = PAD + 52
    centres = _columns(cv, sides, y)
    y += 44
    if skipped:
        cv.text((PAD + 12, y + ROW_H / 2), "…", TEXT, anchor="lm", fill=col.muted)
        y += ROW_H
    for i, score in enumerate(shown):
        if i % 2 == 0:
            cv.draw.rectangle((PAD, y, WIDTH - PAD, y + ROW_H - 1), fill=col.panel)
        cv.text((PAD + 12, y + ROW_H / 2), word(lang, "deal", n=score.deal), TEXT, anchor="lm")
        for cx, points in zip(centres, score.totals, strict=True):
            cv.text((cx, y + ROW_H / 2), str(points), 30, anchor="mm")
        y += ROW_H
    cv.draw.line((PAD, y + 2, WIDTH - PAD, y + 2), fill=col.text, width=2)
    winner = outcome.winner if outcome is not None else None
    cv.text((PAD + 12, y + ROW_H / 2 + 4), word(lang, "total"), TEXT, anchor="lm", bold=True)
    for side, (cx, total) in enumerate(zip(centres, totals, strict=True)):
        if side == winner:
            cv.draw.rounded_rectangle(
                (cx - 40, y + 6, cx + 40, y + ROW_H + 2), radius=10, fill=col.turn
            )
        fill = col.panel if side == winner else col.text
        ground = col.turn if side == winner else None
        cv.text(
            (cx, y + ROW_H / 2 + 4),
            str(total),
            34,
            anchor="mm",
            bold=True,
            fill=fill,
            ground=ground,
        )
    y += ROW_H + 16
    if outcome is not None:
        said = outcome_phrase(outcome, sides, lang=lang)
        cv.text(
            (WIDTH / 2, y + 20),
            cv.fit(said[:1].upper() + said[1:], 30, WIDTH - 2 * PAD, bold=True),
            30,
            anchor="mm",
            bold=True,
            fill=col.turn,
        )
    return cv.encode()
