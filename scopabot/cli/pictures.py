"""``scopabot play --images DIR``: the pictures of a terminal match, written as it goes.

So the look of the table, a hand, a deal's breakdown and the final standings can be checked
without Discord, each file numbered in the order it was seen and with its alt text beside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from scopabot.render.image import (
    deal_alt_text,
    deal_image,
    standings_alt_text,
    standings_image,
    write_game_images,
    write_picture,
)
from scopabot.service import DealScore, GameView, PublicView, Rules


class PictureWriter:
    """Numbers the pictures of one match (001-table.png, 001-hand.png, 002-deal-1.png...)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.count = 0

    def _prefix(self) -> str:
        self.count += 1
        return f"{self.count:03d}-"

    def turn(self, view: GameView, names: Sequence[str]) -> None:
        """The table and the person's hand, as they are when it is their turn; the hand's
        cards under the numbers the prompt takes for them."""
        write_game_images(view, self.folder, names=names, prefix=self._prefix(), numbered=True)

    def deal(self, score: DealScore, *, rules: Rules, names: Sequence[str]) -> None:
        write_picture(
            self.folder,
            f"{self._prefix()}deal-{score.deal}",
            deal_image(score, rules=rules, names=names),
            deal_alt_text(score, rules=rules, names=names),
        )

    def end(self, public: PublicView, names: Sequence[str]) -> None:
        totals, rules = public.totals, public.rules
        write_picture(
            self.folder,
            f"{self._prefix()}standings",
            standings_image(
                totals,
                rules=rules,
                names=names,
                deal_scores=public.deal_scores,
                outcome=public.outcome,
            ),
            standings_alt_text(totals, rules=rules, names=names, outcome=public.outcome),
        )
