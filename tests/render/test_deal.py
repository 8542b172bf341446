"""The end of a deal in words: its last plays, the leftovers' taker, the primiera's cards."""

from __future__ import annotations

from scopabot.engine import CARDS, Card, Play, Rules
from scopabot.engine.scoring import score_deal
from scopabot.render.deal import deal_end_lines, deal_screen
from scopabot.render.i18n import Lang


def c(text: str) -> Card:
    return Card.parse(text)


def test_the_last_play_says_who_takes_the_cards_left_on_the_table() -> None:
    rules = Rules()
    records = [
        (0, Play(seat=0, card=c("3d"), capture=(), scopa=False), (), None),
        (1, Play(seat=1, card=c("5c"), capture=(c("5s"),), scopa=False), (c("1b"), c("9d")), 1),
    ]
    lines = deal_end_lines(records, ["<@1>", "<@2>"], rules, Lang.IT)
    # Card names mid-sentence take their article, and a card laid is "calata" (issue #20).
    assert lines[0] == "<@1> cala il 3 di denari."
    assert lines[1].startswith("<@2> gioca il 5 di coppe e prende il 5 di spade")
    assert (
        lines[2] == "Le carte rimaste in tavola vanno a <@2>: Asso di bastoni · Cavallo di denari."
    )
    # No leftovers (the last play cleared the table): no such line.
    cleared = [(0, Play(seat=0, card=c("2d"), capture=(c("2c"),), scopa=False), (), None)]
    assert len(deal_end_lines(cleared, ["a", "b"], rules, Lang.EN)) == 1


def test_the_deal_message_names_the_primiera_cards_of_each_side() -> None:
    rules = Rules()
    piles = (tuple(CARDS[:20]), tuple(CARDS[20:]))  # denari and coppe / spade and bastoni
    score = score_deal(rules, [[x.index for x in p] for p in piles], [1, 0], deal=2)
    screen = deal_screen(
        score, (5, 3), rules, ["<@1>", "<@2>"], Lang.EN, title="Scopa · table 4", piles=piles
    )
    text = screen.text()
    assert text.startswith("**End of deal 2** · Scopa · table 4")
    primiera = next(b for b in screen.blocks if b.startswith("**Primiera**"))
    assert "<@1>: 7 of coins · 7 of cups" in primiera
    assert "<@2>: 7 of swords · 7 of clubs" in primiera
    assert "Score (to 11): <@1> **5** · <@2> **3**" in text  # the goal by "Score" (issue #20)
    # Without the piles (a deal begun before a restart) no primiera line is made up.
    bare = deal_screen(score, (5, 3), rules, ["a", "b"], Lang.EN, title="t")
    assert not any(b.startswith("**Primiera**") for b in bare.blocks)
