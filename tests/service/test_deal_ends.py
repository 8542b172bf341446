"""A finished deal's end is rebuilt from the stored moves exactly as its events announced it."""

from __future__ import annotations

from scopabot.engine import Game, Play, Rules
from scopabot.service.deal_ends import DealPlay, last_deal_end


def test_the_last_deal_end_is_the_plays_announced_for_it() -> None:
    game = Game.new(Rules(players=3, deals=2), seed=11)
    assert last_deal_end(game.record()) is None
    announced: list[list[DealPlay]] = [[]]
    while not game.is_over:
        result = game.play(game.legal_moves()[0])
        play = Play(result.seat, result.move.card, result.move.sorted_capture(), result.scopa)
        announced[-1].append((result.seat, play, result.leftovers, result.leftovers_to))
        if result.deal_score is not None:
            end = last_deal_end(game.record())
            assert end is not None and end.deal == result.deal_score.deal
            assert list(end.plays) == announced[-1]
            announced.append([])
        elif announced[0] and len(announced) > 1:
            end = last_deal_end(game.record())  # mid-deal: still the last finished one
            assert end is not None and list(end.plays) == announced[-2]
    assert len(announced) >= 3  # two deals at least (a tie plays on), then the end
