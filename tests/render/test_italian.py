"""The words people read, as a native speaker would write them (docs/words.md): card names
mid-sentence with their article, a score said winner first, "ad" before an a, whose scope."""

from __future__ import annotations

import re
from types import SimpleNamespace

from scopabot.engine import Card, Game, Play, Rules
from scopabot.render.boards import sheet_screen
from scopabot.render.cards import card_the, cards_the
from scopabot.render.catalog import CATALOG
from scopabot.render.commands import ITALIAN
from scopabot.render.hand import capture_screen, hand_screen
from scopabot.render.i18n import Lang, tr
from scopabot.render.invite import invite_screen
from scopabot.render.refusals import refusal_text
from scopabot.render.table import outcome_line, play_line, score_line
from scopabot.render.words import word


def c(text: str) -> Card:
    return Card.parse(text)


def test_a_card_mid_sentence_takes_its_article_and_no_capital() -> None:
    assert [card_the(c(t), Lang.IT) for t in ("8d", "1c", "7s", "10b")] == [
        "il fante di denari",
        "l'asso di coppe",
        "il 7 di spade",
        "il re di bastoni",
    ]
    assert card_the(c("9c"), Lang.EN) == "the knight of cups"
    assert cards_the([c("5c"), c("1s"), c("3b")], Lang.IT) == (
        "l'asso di spade, il 3 di bastoni e il 5 di coppe"
    )
    assert cards_the([c("4b"), c("5c")], Lang.EN) == "the 4 of clubs and the 5 of cups"


def test_a_play_reads_as_a_player_says_it() -> None:
    took = Play(seat=0, card=c("8d"), capture=(c("10c"),), scopa=False)
    laid = Play(seat=1, card=c("1s"), capture=(), scopa=False)
    assert (
        play_line(took, "alice", Lang.IT)
        == "alice gioca il fante di denari e prende il re di coppe."
    )
    assert play_line(laid, "bob", Lang.IT) == "bob cala l'asso di spade."
    assert (
        play_line(took, "alice", Lang.EN)
        == "alice plays the jack of coins and takes the king of cups."
    )
    assert play_line(laid, "bob", Lang.EN) == "bob lays the ace of swords."
    assert (
        tr("played", Lang.IT, card=card_the(c("9c"), Lang.IT)) == "Hai giocato il cavallo di coppe."
    )
    game = Game.from_position(Rules(), hands=[["7d", "2b"], ["3c"]], felt=["3s", "4c", "7c"])
    choices = tuple(m for m in game.legal_moves() if m.card == c("7d"))
    question = capture_screen(c("7d"), choices, Lang.IT, title="t").text()
    assert "Cosa prendi con il 7 di denari?" in question


def test_a_refusal_names_its_cards_with_their_articles() -> None:
    move = {"reason": "must_capture", "card": "6b", "options": [["1d", "5s"]]}
    assert refusal_text("illegal_move", move, Lang.IT) == (
        "Mossa non consentita: il 6 di bastoni deve prendere l'asso di denari e il 5 di spade."
    )
    assert refusal_text("illegal_move", move, Lang.EN) == (
        "That move is not allowed: the 6 of clubs must take the ace of coins and the 5 of swords."
    )


def test_the_end_of_a_match_says_the_score_winner_first() -> None:
    won = SimpleNamespace(winner_side=1, result_reason="target", totals=(2, 3))
    sides = ["@alice", "Computer (normale)"]
    assert outcome_line(won, sides, Lang.IT) == "Vince Computer (normale) 3 a 2"  # type: ignore[arg-type]
    assert outcome_line(won, ["@alice", "Computer (normal)"], Lang.EN) == (  # type: ignore[arg-type]
        "Computer (normal) wins 3 to 2"
    )
    deals = SimpleNamespace(winner_side=0, result_reason="deals", totals=(7, 4, 9))
    three = ["a", "b", "c"]
    assert outcome_line(deals, three, Lang.IT) == "Vince a 7 a 4 e 9 dopo l'ultima smazzata"  # type: ignore[arg-type]
    tied = SimpleNamespace(winner_side=None, result_reason="undecided", totals=(5, 5))
    assert outcome_line(tied, sides, Lang.IT) == "La partita finisce senza vincitori, 5 a 5"  # type: ignore[arg-type]


def test_an_empty_hand_mid_deal_waits_for_the_next_distribution() -> None:
    mid = hand_screen((), (), Lang.IT, title="t", your_turn=False, turn_name="x", deck=30)
    assert "nessuna fino alla prossima distribuzione" in mid.text()
    end = hand_screen((), (), Lang.IT, title="t", your_turn=False, turn_name="x", deck=0)
    assert "nessuna fino alla prossima smazzata" in end.text()


def test_a_before_a_name_starting_with_a_is_ad() -> None:
    assert tr("turn.of", Lang.IT, name="alice") == "Tocca ad alice"
    assert tr("turn.of", Lang.IT, name="Anna") == "Tocca ad Anna"
    assert tr("turn.of", Lang.IT, name="bob") == "Tocca a bob"
    assert tr("turn.of", Lang.IT, name="<@1>") == "Tocca a <@1>"  # a mention: the name is unknown
    assert tr("deal.leftovers", Lang.IT, name="alice", cards="x") == (
        "Le carte rimaste in tavola vanno ad alice: x."
    )
    assert tr("turn.of", Lang.EN, name="alice") == "alice's turn"
    # The pictures' alt text too, where people are named by their display names.
    assert word("it", "turn", name="alice") == "tocca ad alice"
    assert word("it", "turn", name="Marco") == "tocca a Marco"


def test_the_points_line_says_the_goal_once_and_whose_scope() -> None:
    game = Game.from_position(
        Rules(target=11), hands=[["7d"], ["3c"]], felt=["4s"], scope=[1, 0], totals=[0, 4]
    ).view_for(0)
    line = score_line(game, ["@alice", "Computer (normale)"], Lang.IT)  # type: ignore[arg-type]
    assert line == (
        "Punti (agli 11): @alice **0** · Computer (normale) **4**"
        " · scope in questa smazzata: @alice 1"
    )
    none = Game.from_position(Rules(deals=3), hands=[["7d"], ["3c"]], felt=["4s"]).view_for(0)
    assert score_line(none, ["a", "b"], Lang.EN) == "Points (3 deals): a **0** · b **0**"  # type: ignore[arg-type]


def test_the_invitation_names_a_seated_computer_once() -> None:
    rules = Rules()
    args = {"table_id": 1, "host": "@alice", "pace": "Senza limite di tempo", "level": "normal"}
    full = invite_screen(rules, {0: "@alice", 1: "Computer (normale)"}, Lang.IT, **args).text()
    assert full.count("Computer") == 1, full
    waiting = invite_screen(rules, {0: "@alice"}, Lang.IT, **args).text()
    assert "**Aggiungi computer** fa sedere un computer di livello normale" in waiting


def test_italian_messages_name_the_commands_as_an_italian_client_shows_them() -> None:
    italian_names = set(ITALIAN.values())
    for key, (_english, italian) in CATALOG.items():
        for name in re.findall(r"/scopa (\w+)", italian):
            assert name in italian_names and name not in {"new", "games", "play"}, (key, name)


def test_one_point_missing_is_singular() -> None:
    sheet = sheet_screen(
        "t",
        [("Noi", 10, 1), ("Voi", 5, 6)],
        Lang.IT,
        target=11,
        winner=None,
        tied=False,
        closed=False,
    )
    assert "(manca 1)" in sheet.text() and "(mancano 6)" in sheet.text()
