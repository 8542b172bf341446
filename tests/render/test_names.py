"""Any text a display name may hold is drawn and written on one line, harmlessly."""

from __future__ import annotations

import random
import unicodedata
from datetime import datetime
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from scopabot.engine import Game, GameView, Rules
from scopabot.render.i18n import Lang
from scopabot.render.names import MAX_NAME, plain_name
from scopabot.render.table import breakdown, table_pictures

HOSTILE = [
    "Marco\nIl Capo",
    "```\nrotto",
    "\u202eoiggam",
    "z" + "\u0301" * 80,
    "\r\n\t",
    "\u200b\u200b",
    "x" * 200,
    "# titolo\n> citazione",
]


@given(st.text())
def test_any_text_becomes_one_visible_line_or_nothing(text: str) -> None:
    name = plain_name(text)
    if name is None:
        return
    assert name == name.strip() and name and len(name) <= MAX_NAME
    assert "`" not in name and "  " not in name
    for at, char in enumerate(name):
        category = unicodedata.category(char)
        assert category not in ("Cc", "Zl", "Zp", "Cs", "Co", "Cn"), repr(name)
        # the only format characters kept: the joiners (emoji, Persian), a flag's tags (England)
        tag = "\U000e0020" <= char <= "\U000e007f" and at > 0
        tag = tag and (name[at - 1] == "\U0001f3f4" or "\U000e0020" <= name[at - 1] <= "\U000e007f")
        assert category != "Cf" or char in "\u200c\u200d" or tag, repr(name)


def test_names_keep_what_people_read() -> None:
    assert plain_name("Marco\nIl Capo") == "Marco Il Capo"
    assert plain_name("Giulia 🂡") == "Giulia 🂡"
    assert plain_name("Nicolò") == "Nicolò"
    assert plain_name("\u200b") is None
    england = "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
    assert plain_name(f"{england} Sam") == f"{england} Sam"
    assert plain_name("Sam\U000e0067") == "Sam"  # a tag spelling no flag is not kept


class _Public:
    """A position's public fields, as the service's public view gives them."""

    def __init__(self, view: GameView) -> None:
        self._view = view

    def __getattr__(self, name: str) -> Any:
        return getattr(self._view, name)

    felt = property(lambda self: self._view.felt)
    deadline: datetime | None = None
    finished = property(lambda self: self._view.outcome is not None)
    winner_side = property(lambda self: None)
    result_reason = property(lambda self: None)


def test_hostile_names_are_drawn_in_play_and_at_the_end() -> None:
    rules = Rules(players=3, deals=1)
    game = Game.new(rules, seed=3)
    rng = random.Random(3)
    names = HOSTILE[:3]
    pictures = table_pictures(_Public(game.view_for(0)), names, Lang.IT, game_id=1, version=1)
    assert pictures and all("\n" not in p.description for p in pictures)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    view = game.view_for(0)
    pictures = table_pictures(_Public(view), HOSTILE[3:6], Lang.EN, game_id=1, version=2)
    assert pictures
    text = breakdown(view.deal_scores[0], ["<@1>", "<@2>", "<@3>"], rules, Lang.IT, plain=names)
    assert text.count("```") == 2
