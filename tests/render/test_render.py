"""The catalog, command translations and screens: complete, within Discord's limits."""

from __future__ import annotations

import re
import string

from scopabot.engine import CARDS, Card, Game, Move, Rules
from scopabot.render.cards import card_name
from scopabot.render.catalog import CATALOG
from scopabot.render.commands import ITALIAN
from scopabot.render.hand import capture_screen, hand_screen
from scopabot.render.i18n import Lang, tr
from scopabot.render.screens import Action

NAME = re.compile(r"^[-_\w]{1,32}$")


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_sentence_has_the_same_placeholders_in_both_languages() -> None:
    for key, (english, italian) in CATALOG.items():
        assert fields(english) == fields(italian), key
        assert bool(english) == bool(italian), key


def test_command_names_and_descriptions_fit_discord() -> None:
    short_names = [v for k, v in ITALIAN.items() if NAME.match(k) and k == k.lower()]
    assert "nuova" in short_names and "gioca" in short_names
    for english, italian in ITALIAN.items():
        assert len(english) <= 100 and len(italian) <= 100, english
        if NAME.match(english) and english == english.lower():
            assert NAME.match(italian) and italian == italian.lower(), italian


def test_cards_are_named_in_words_and_all_differ() -> None:
    for lang in Lang:
        names = [card_name(c, lang) for c in CARDS]
        assert len(set(names)) == 40
    assert card_name(Card.parse("7d"), Lang.IT) == "7 di denari"
    assert card_name(Card.parse("1b"), Lang.EN) == "Ace of clubs"


def test_a_missing_key_shows_itself_rather_than_crashing() -> None:
    assert tr("no.such.key", Lang.IT) == "no.such.key"


def test_scopone_hand_fits_in_rows_of_five_and_only_the_turn_enables_them() -> None:
    game = Game.new(Rules(preset="scopone_scientifico"), seed=3)
    view = game.view_for(game.turn)
    screen = hand_screen(view.hand, view.felt, Lang.EN, title="t", your_turn=True, turn_name="me")
    assert [len(r) for r in screen.rows] == [5, 5]
    assert all(b.action is Action.PLAY and not b.disabled for r in screen.rows for b in r)
    waiting = hand_screen(view.hand, view.felt, Lang.EN, title="t", your_turn=False, turn_name="x")
    assert all(b.disabled for r in waiting.rows for b in r)


def test_many_captures_become_a_select() -> None:
    moves = [Move(Card.parse("10d"), frozenset({Card.parse(f"1{s}")})) for s in "dcsb"]
    few = capture_screen(Card.parse("10d"), moves, Lang.IT, title="t")
    assert not few.choices and sum(len(r) for r in few.rows) == 5  # 4 captures + back
    many = capture_screen(Card.parse("10d"), moves * 6, Lang.IT, title="t")
    assert len(many.choices) == 24 and len(many.rows) == 1
