"""A finished deal's end as the front end showed it, rebuilt from the game's stored moves.

The table and each deal's own message show a deal's last plays, who took the cards left on
the table and each side's pile (the primiera's cards). The events announced them once; after
a restart only the store remains, so the deal is played again from the game's record (a cold
path: a restart, or a table asked for before any move of this process). Nothing else is kept
for it: the moves are the memory.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from scopabot.engine import Card, Game, GameRecord, Play

DealPlay = tuple[int, Play, tuple[Card, ...], int | None]
"""A play as announced: the seat, the play, the cards left at the deal's end and who took them."""


@dataclass(frozen=True, slots=True)
class DealEnd:
    """The last finished deal: its number and every play of it, in order."""

    deal: int
    plays: tuple[DealPlay, ...]


def last_deal_end(record: GameRecord) -> DealEnd | None:
    """The last deal of ``record`` that ended (None before the first deal's end)."""
    game = Game.replay(replace(record, moves=()))
    found: DealEnd | None = None
    plays: list[DealPlay] = []
    for move in record.moves:
        result = game.play(move)
        play = Play(result.seat, result.move.card, result.move.sorted_capture(), result.scopa)
        plays.append((result.seat, play, result.leftovers, result.leftovers_to))
        if result.deal_score is not None:
            found = DealEnd(result.deal_score.deal, tuple(plays))
            plays = []
    return found
