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
from .theme import Theme
from .words import side_names, word

WIDTH: Final = 800
PAD: Final = 20
LABEL_W: Final = 190
ROW_H: Final = 40

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


def _columns(cv: Canvas, sides: Sequence[str], y: int, size: int = 22) -> list[float]:
    """Draw the side names as column heads; return each column's centre."""
    n = len(sides)
    col_w = (WIDTH - 2 * PAD - LABEL_W) / n
    centres = [PAD + LABEL_W + col_w * (i + 0.5) for i in range(n)]
    for cx, name in zip(centres, sides, strict=True):
        cv.text((cx, y), cv.fit(name, size, col_w - 12, bold=True), size, anchor="ma", bold=True)
    return centres


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
    captured pile (:func:`scopabot.render.image.deal_piles`), the cards of its primiera."""
    sides = side_names(rules, names)
    rows = [r for r in DEAL_ROWS if r[1] not in ("re_bello", "napola") or getattr(rules, r[1])]
    col_w = (WIDTH - 2 * PAD - LABEL_W) / len(sides)
    small = int(min(56, (col_w - 24) / 4))
    cards_h = card_height(small) + 24 if piles is not None else 0
    height = PAD + 44 + 40 + ROW_H * (len(rows) + 1) + 16 + cards_h + PAD
    cv = Canvas(WIDTH, height, theme)
    col = cv.colours
    cv.text((PAD, PAD), word(lang, "deal", n=score.deal), 30, bold=True)
    y = PAD + 48
    centres = _columns(cv, sides, y)
    y += 40
    for i, (key, attr, count) in enumerate(rows):
        if i % 2 == 0:
            cv.draw.rectangle((PAD, y, WIDTH - PAD, y + ROW_H - 1), fill=col.panel)
        cv.text((PAD + 12, y + ROW_H / 2), word(lang, key), 22, anchor="lm")
        for cx, side in zip(centres, score.sides, strict=True):
            points = getattr(side, attr)
            shown = str(points) if points or count is None else "0"
            fill = col.turn if points else col.muted
            cv.text((cx + 14, y + ROW_H / 2), shown, 24, anchor="rm", fill=fill, bold=bool(points))
            if count is not None:
                raw = getattr(side, count)
                cv.text(
                    (cx + 24, y + ROW_H / 2),
                    f"({'-' if raw is None else raw})",
                    18,
                    anchor="lm",
                    fill=col.muted,
                )
        y += ROW_H
    cv.draw.line((PAD, y + 2, WIDTH - PAD, y + 2), fill=col.text, width=2)
    cv.text((PAD + 12, y + ROW_H / 2 + 4), word(lang, "total"), 24, anchor="lm", bold=True)
    for cx, side in zip(centres, score.sides, strict=True):
        cv.text((cx + 14, y + ROW_H / 2 + 4), str(side.total), 28, anchor="rm", bold=True)
    y += ROW_H + 16
    if piles is not None:
        cv.text(
            (PAD + 12, y + cards_h / 2 - 12),
            word(lang, "primiera"),
            20,
            anchor="lm",
            fill=col.muted,
        )
        for cx, side in zip(centres, score.sides, strict=True):
            best = primiera_cards(piles[side.side])
            x = int(cx - (len(best) * (small + 6) - 6) / 2)
            cv.cards_row(best, x, y, small, 6)
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
    sides = side_names(rules, names)
    shown = list(deal_scores)[-last_deals:]
    skipped = len(deal_scores) - len(shown)
    height = PAD + 44 + 40 + ROW_H * (len(shown) + (1 if skipped else 0) + 1) + 16
    height += 56 if outcome is not None else 0
    height += PAD
    cv = Canvas(WIDTH, height, theme)
    col = cv.colours
    title = word(lang, "final" if outcome is not None else "standings")
    x = PAD + cv.text((PAD, PAD), title, 30, bold=True)
    goal = (
        word(lang, "to_target", n=rules.target)
        if rules.target is not None
        else word(lang, "fixed_deals", n=rules.deals)
    )
    cv.text((x + 16, PAD + 8), "· " + goal, 22, fill=col.muted)
    y = PAD + 48
    centres = _columns(cv, sides, y)
    y += 40
    if skipped:
        cv.text((PAD + 12, y + ROW_H / 2), "…", 22, anchor="lm", fill=col.muted)
        y += ROW_H
    for i, score in enumerate(shown):
        if i % 2 == 0:
            cv.draw.rectangle((PAD, y, WIDTH - PAD, y + ROW_H - 1), fill=col.panel)
        cv.text((PAD + 12, y + ROW_H / 2), word(lang, "deal", n=score.deal), 22, anchor="lm")
        for cx, points in zip(centres, score.totals, strict=True):
            cv.text((cx, y + ROW_H / 2), str(points), 24, anchor="mm")
        y += ROW_H
    cv.draw.line((PAD, y + 2, WIDTH - PAD, y + 2), fill=col.text, width=2)
    winner = outcome.winner if outcome is not None else None
    cv.text((PAD + 12, y + ROW_H / 2 + 4), word(lang, "total"), 24, anchor="lm", bold=True)
    for side, (cx, total) in enumerate(zip(centres, totals, strict=True)):
        if side == winner:
            cv.draw.rounded_rectangle(
                (cx - 40, y + 6, cx + 40, y + ROW_H + 2), radius=10, fill=col.turn
            )
        fill = col.panel if side == winner else col.text
        cv.text((cx, y + ROW_H / 2 + 4), str(total), 30, anchor="mm", bold=True, fill=fill)
    y += ROW_H + 16
    if outcome is not None:
        said = outcome_phrase(outcome, sides, lang=lang)
        cv.text(
            (WIDTH / 2, y + 20),
            said[:1].upper() + said[1:],
            28,
            anchor="mm",
            bold=True,
            fill=col.turn,
        )
    return cv.encode()
