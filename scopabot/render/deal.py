"""The end of a deal, as players count it ("la conta"): the last plays, who takes the cards
left on the table, and the breakdown with the primiera's cards.

The bot posts it as a message of its own in the table's thread when a deal ends, so the count
stays readable while the next deal is played above it; the table message shows the same last
plays through the next deal's first round (:func:`deal_end_block`).

Each text that names a finished deal's cards starts with its title ("End of deal 3") or
"Primiera": those cards are public history, though the next deal has dealt them again.
"""

from __future__ import annotations

from collections.abc import Sequence

from scopabot.engine import Card, DealScore, Play, Rules

from .alt_text import primiera_cards
from .cards import cards_names
from .i18n import Lang, tr, trn
from .image import FORMAT, Theme, deal_alt_text, deal_image
from .screens import GOLD, Picture, Screen
from .table import LAST_PLAYS, Piles, breakdown, play_line
from .words import side_names

Record = tuple[int, Play, tuple[Card, ...], int | None]
"""A card played: its seat, the play, and on a deal's last play the cards left on the table
with the side that takes them (``CardPlayed.leftovers`` and ``leftovers_to``)."""


def deal_end_lines(
    records: Sequence[Record], names: Sequence[str], rules: Rules, lang: Lang
) -> list[str]:
    """The deal's last plays, then who takes the cards left on the table."""
    lines = [play_line(play, names[seat], lang) for seat, play, _, _ in records[-LAST_PLAYS:]]
    if records:
        _seat, _play, leftovers, side = records[-1]
        if side is not None and leftovers:
            taker = side_names(rules, names)[side]
            cards = cards_names(leftovers, lang)
            lines.append(tr("deal.leftovers", lang, cards=cards, name=taker))
    return lines


def deal_end_block(deal: int, lines: Sequence[str], lang: Lang) -> str:
    return f"**{tr('deal.end', lang, deal=deal)}**\n" + "\n".join(f"- {line}" for line in lines)


def primiera_line(piles: Piles, sides: Sequence[str], lang: Lang) -> str:
    """Each side's four primiera cards (or fewer, when a suit is missing)."""
    parts = [
        f"{side}: {cards_names(primiera_cards(pile), lang)}" if pile else f"{side}: —"
        for side, pile in zip(sides, piles, strict=True)
    ]
    return f"**{tr('bd.primiera', lang)}** · " + " · ".join(parts)


def totals_line(totals: Sequence[int], sides: Sequence[str], rules: Rules, lang: Lang) -> str:
    points = " · ".join(f"{n} **{t}**" for n, t in zip(sides, totals, strict=True))
    goal = (
        trn("score.to", rules.target, lang, target=rules.target)
        if rules.target is not None
        else trn("score.deals", rules.deals or 0, lang, deals=rules.deals)
    )
    return tr("deal.totals", lang, points=points, goal=goal)


def deal_screen(
    score: DealScore,
    totals: Sequence[int],
    rules: Rules,
    names: Sequence[str],
    lang: Lang,
    *,
    title: str,
    records: Sequence[Record] = (),
    piles: Piles | None = None,
    plain_names: Sequence[str] | None = None,
) -> Screen:
    """The deal's own message. ``names`` are mentions, ``plain_names`` display names (for
    the breakdown's columns); ``records`` its plays as announced (none after a restart),
    ``piles`` each side's cards (for the primiera's cards; None when not known)."""
    sides = side_names(rules, names)
    plain = None if plain_names is None else side_names(rules, plain_names)
    head = f"**{tr('deal.end', lang, deal=score.deal)}** · {title}"
    lines = deal_end_lines(records, names, rules, lang)
    blocks = [head + "".join(f"\n- {line}" for line in lines)]
    blocks.append(breakdown(score, sides, rules, lang, plain=plain))
    if piles is not None:
        blocks.append(primiera_line(piles, sides, lang))
    blocks.append(totals_line(totals, sides, rules, lang))
    return Screen(tuple(blocks), accent=GOLD)


def deal_picture(
    score: DealScore,
    rules: Rules,
    names: Sequence[str],
    lang: Lang,
    *,
    game_id: int,
    piles: Piles | None = None,
    theme: Theme = Theme.DARK,
) -> Picture:
    """The breakdown's picture (about 10 ms: draw it off the event loop)."""
    return Picture(
        f"deal-{game_id}-{score.deal}.{FORMAT}",
        deal_image(score, rules=rules, names=names, piles=piles, theme=theme, lang=lang),
        deal_alt_text(score, rules=rules, names=names, piles=piles, lang=lang),
    )
