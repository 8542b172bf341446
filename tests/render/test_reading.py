"""The pictures as people read them (issue 21): names in every script and never two alike,
text readable at 360 pixels wide, suits told apart by colour-blind players, four-player sides,
the breakdown of three players and a primiera tie, the hand in the buttons' order."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

from scopabot.engine import CARDS, Card, DealScore, Game, GameView, Preset, Rules, Suit
from scopabot.render.canvas import MIN_TEXT, Canvas
from scopabot.render.cards_art import card_image
from scopabot.render.fonts import drawable, fonts_used, visual
from scopabot.render.gallery import DEUTERANOPIA, PROTANOPIA, simulate
from scopabot.render.hand import hand_picture, hand_screen
from scopabot.render.image import deal_image, deal_piles, hand_image, standings_image, table_image
from scopabot.render.memo import PICTURES
from scopabot.render.names import labels
from scopabot.render.score_images import tied
from scopabot.render.theme import Theme

from .conftest import Record

NAMES = [
    "Marco",
    "ǅemal",
    "Zoë",
    "Łukasz",
    "Ελένη",
    "Дмитрий",
    "王小明",
    "さくら",
    "김민준",
    "محمد",
    "שרה",
    "राहुल",
    "สมชาย",
    "🃏",
    "🃏🃏",
    "😎🔥",
    "Ñandú 🃏",
]


def drawing(name: str) -> bytes:
    cv = Canvas(400, 50, Theme.DARK)
    cv.text((10, 8), name, 28)
    return cv.img.tobytes()


# ---------------------------------------------------------------------------- names


def test_every_script_is_drawn_and_no_two_names_draw_alike() -> None:
    blank = drawing("")
    question = drawing("?")
    drawn = [drawing(n) for n in NAMES]
    assert blank not in drawn and question not in drawn
    assert len(set(drawn)) == len(NAMES)
    assert all(drawable(n) == n for n in NAMES)
    # Source Sans Pro draws the Latin names; emoji, CJK, Arabic... need the Noto fonts.
    assert fonts_used(["Marco", "Zoë"]) == {0}
    assert len(fonts_used(NAMES)) >= 6


def test_a_letter_the_first_font_lacks_is_drawn_not_dropped() -> None:
    assert drawable("ǅemal") == "ǅemal"
    assert drawing("ǅemal") != drawing("emal")


def test_right_to_left_names_read_right_to_left() -> None:
    assert visual("שרה") == "הרש"
    arabic = visual("محمد")
    assert all("\ufe70" <= c <= "\ufeff" for c in arabic)  # joined (contextual) forms
    assert visual(drawable("Marco")) == "Marco"
    assert drawing("שרה") != drawing("הרש")


def test_invisible_marks_and_line_breaks_are_not_drawn() -> None:
    assert drawable("Mar\u200bco\n\nRossi") == "Marco Rossi"
    assert drawable("👍🏽") == "👍"
    assert drawable("\ue000") == ""


def test_seat_labels_never_read_alike() -> None:
    def fits(width: int) -> object:
        return lambda s: len(s) <= width

    assert labels(["Marco", "Marco", "Sara"], fits(20)) == ["Marco #1", "Marco #2", "Sara"]
    assert labels(["\ue000", "\u200b", "Luca"], fits(20)) == ["#1", "#2", "Luca"]
    computers = ["Computer (facile)", "Computer (difficile)", "Computer (medio)"]
    computers.append("Computer (medio)")
    for width in (8, 12, 16, 40):
        shown = labels(computers, fits(width))
        assert len(set(shown)) == 4, shown
        assert all(len(s) <= max(width, 9) for s in shown), shown
    assert labels(["Alessandro Bianchi", "Alessandro Rossi"], fits(14)) == [
        "Alessandro Bi…",
        "Alessandro Ro…",
    ]


def test_a_table_of_look_alike_names_draws_four_different_names(canvases: Record) -> None:
    rules = Rules(players=4)
    view = Game.new(rules, seed=1).view_for(0)
    table_image(view, names=["🃏", "\ue000", "🃏", "Computer (medio)"])
    texts = [t for t, _ in canvases[-1].texts]
    assert "🃏 #1" in texts and "🃏 #3" in texts and "#2" in texts
    assert "Computer (medio)" in texts


# ---------------------------------------------------------------------------- phone size


def _views(rules: Rules, count: int, seed: int) -> list[GameView]:
    rng = random.Random(seed)
    views = []
    while len(views) < count:
        game = Game.new(rules, seed=rng.randrange(10**6))
        for _ in range(rng.randrange(1, 30)):
            if game.is_over:
                break
            game.play(rng.choice(game.legal_moves()))
        views.append(game.view_for(game.turn))
    return views


def _match(rules: Rules, seed: int) -> tuple[GameView, list[tuple[DealScore, tuple]]]:
    game = Game.new(rules, seed=seed)
    rng = random.Random(seed)
    deals = []
    while not game.is_over:
        before = game.view_for(0)
        result = game.play(rng.choice(game.legal_moves()))
        if result.deal_score is not None:
            deals.append((result.deal_score, deal_piles(before, result)))
    return game.view_for(0), deals


RULES = [
    Rules(),
    Rules(players=3),
    Rules(players=4),
    Rules(preset=Preset.SCOPONE_SCIENTIFICO),
]


@pytest.mark.parametrize("rules", RULES, ids=["scopa2", "scopa3", "scopa4", "scopone"])
def test_every_text_is_readable_at_360_pixels(canvases: Record, rules: Rules) -> None:
    names = ["Alessandro Maria Bianchi", "王小明", "Computer (difficile)", "😎"][: rules.players]
    for view in _views(rules, 8, seed=rules.players):
        for lang in ("en", "it"):
            table_image(view, names=names, lang=lang)
            hand_image(view, lang=lang)
    final, deals = _match(rules, seed=5)
    for score, piles in deals[:3]:
        deal_image(score, rules=rules, names=names, piles=piles, lang="it")
        deal_image(score, rules=rules, names=names)
    standings_image(
        final.totals, rules=rules, names=names, deal_scores=final.deal_scores, outcome=final.outcome
    )
    table_image(final, names=names)
    assert len(canvases) > 30
    for cv in canvases:
        assert cv.smallest_text() >= MIN_TEXT, (cv.width, min(cv.texts, key=lambda t: t[1]))


# ---------------------------------------------------------------------------- colour blindness


def _seen(card: Card, matrix: tuple[tuple[float, float, float], ...]) -> Image.Image:
    return simulate(card_image(card, 100), matrix)


def _apart(a: Image.Image, b: Image.Image) -> float:
    """The share of pixels that still differ clearly between two simulated faces."""
    hist = ImageChops.difference(a, b).convert("L").histogram()
    return sum(hist[40:]) / (a.width * a.height)


def test_the_simulations_do_merge_red_and_green() -> None:
    """Under either simulation the cups' red and the clubs' green come much closer, so the
    test below checks what is left to tell them apart (the shapes)."""
    from scopabot.render.theme import SUIT_FILL

    def gap(matrix: tuple[tuple[float, float, float], ...] | None) -> float:
        pair = []
        for suit in (Suit.COPPE, Suit.BASTONI):
            swatch = Image.new("RGBA", (1, 1), (*SUIT_FILL[suit], 255))
            seen = simulate(swatch, matrix) if matrix else swatch.convert("RGB")
            pair.append(seen.getpixel((0, 0)))
        return sum((a - b) ** 2 for a, b in zip(*pair, strict=True)) ** 0.5

    assert gap(DEUTERANOPIA) < gap(None) * 0.3  # 45 against 157
    assert gap(PROTANOPIA) < gap(None) * 0.65  # 96: a protan sees the red darker


@pytest.mark.parametrize("matrix", [PROTANOPIA, DEUTERANOPIA], ids=["protanopia", "deuteranopia"])
def test_every_card_tells_its_suit_under_colour_blindness(
    matrix: tuple[tuple[float, float, float], ...],
) -> None:
    for value in range(1, 11):
        seen = {suit: _seen(Card(value, suit), matrix) for suit in Suit}
        for a in Suit:
            for b in Suit:
                if a < b:
                    # figures: a big sign and the suit's weave on the clothes (before this
                    # change, 1.5% for coppe and bastoni under deuteranopia)
                    assert _apart(seen[a], seen[b]) > 0.035, (value, a, b)


# ---------------------------------------------------------------------------- the table


def test_four_players_show_their_side_once_and_hand_sizes_as_numbers(canvases: Record) -> None:
    rules = Rules(preset=Preset.SCOPONE_SCIENTIFICO)
    game = Game.from_position(
        rules,
        hands=[["10d", "9d"], ["10c", "9c", "1c"], ["10s", "9s", "1s"], ["10b", "9b"]],
        felt=["3d", "4d"],
        turn=1,
        captured=[["1d", "2d", "5s"], ["7d", "7c", "6s", "2s", "3s"]],
        scope=[1, 0],
    )
    table_image(game.view_for(0), names=["Marco", "Giulia", "Luca", "Sara"], lang="it")
    texts = [t for t, _ in canvases[-1].texts]
    assert texts.count("3 carte") == 1 and texts.count("5 carte") == 1
    assert texts.count("1 scopa") == 1
    assert texts.count("2") == 2 and texts.count("3") == 2  # the hands' sizes
    assert not any("prese" in t or "Scope" in t for t in texts)


def test_two_players_words(canvases: Record) -> None:
    game = Game.from_position(
        Rules(),
        hands=[["10d"], ["10c"]],
        felt=["3d"],
        turn=0,
        captured=[["1d"], []],
        scope=[2, 0],
    )
    table_image(game.view_for(0), names=["Marco", "Giulia"])
    texts = [t for t, _ in canvases[-1].texts]
    assert "1 card" in texts and "0 cards" in texts and "2 scope" in texts


# ---------------------------------------------------------------------------- breakdown


def test_three_players_primiera_cards_each_on_their_own_line(canvases: Record) -> None:
    rules = Rules(players=3)
    _, deals = _match(rules, seed=4)
    score, piles = deals[0]
    deal_image(score, rules=rules, names=["Marco", "Giulia", "Luca"], piles=piles)
    faces = canvases[-1].faces
    lines: dict[float, list[float]] = {}
    for _, x, y, _ in faces:
        lines.setdefault(y, []).append(x)
    assert len(lines) == 3
    for xs in lines.values():
        assert len(xs) <= 4 and xs == sorted(xs)


def test_a_primiera_tie_says_pari(canvases: Record) -> None:
    rules = Rules(players=3)
    _, deals = _match(rules, seed=4)
    score, piles = deals[0]
    assert [s.primiera_total for s in score.sides][:2] == [78, 78]
    assert tied(score, "primiera", "primiera_total") == {0, 1}
    deal_image(score, rules=rules, names=["Marco", "Giulia", "Luca"], piles=piles, lang="it")
    texts = [t for t, _ in canvases[-1].texts]
    assert texts.count("pari") == 2
    deal_image(score, rules=rules, names=["Marco", "Giulia", "Luca"])
    assert [t for t, _ in canvases[-1].texts].count("tie") == 2


# ---------------------------------------------------------------------------- the hand


def test_the_hand_picture_shows_the_cards_in_the_buttons_order(canvases: Record) -> None:
    game = Game.new(Rules(preset=Preset.SCOPONE_SCIENTIFICO), seed=2)
    view = game.view_for(0)
    hand_picture(view, "it")
    cv = canvases[-1]
    drawn = [c for c, *_ in sorted(cv.faces, key=lambda f: (f[2], f[1]))]
    screen = hand_screen(view.hand, view.felt, "it", title="t", your_turn=True, turn_name="Marco")
    buttons = [b.arg for row in screen.rows for b in row]
    assert [str(c) for c in drawn] == buttons
    assert not any(t.isdigit() for t, _ in cv.texts)  # no numbers the buttons do not show


def test_the_cards_still_all_differ() -> None:
    assert len({card_image(c, 60).tobytes() for c in CARDS}) == 40


# ---------------------------------------------------------------------------- drawing fast


def test_a_picture_is_drawn_again_only_when_what_it_shows_changed() -> None:
    PICTURES.clear()
    game = Game.new(Rules(players=4), seed=7)
    names = ["Marco", "Giulia", "Luca", "Sara"]
    seat0, seat2 = game.view_for(0), game.view_for(2)
    first = table_image(seat0, names=names)
    drawn = PICTURES.drawn
    assert table_image(seat2, names=names) is first  # another seat's view, the same table
    assert hand_image(seat0) is hand_image(seat0)
    assert PICTURES.drawn == drawn + 1
    game.play(game.legal_moves()[0])
    assert table_image(game.view_for(0), names=names) != first
    assert table_image(seat0, names=names, lang="it") != first
    assert table_image(seat0, names=["Marco", "Giulia", "Luca", "Sara Rossi"]) != first


def test_pictures_drawn_from_nothing_kept_are_the_same_bytes() -> None:
    from scopabot.render import canvas
    from scopabot.render.cards_art import back_image

    view = Game.new(Rules(preset=Preset.SCOPONE_SCIENTIFICO), seed=3).view_for(1)
    names = ["王小明", "محمد", "Zoë", "😎"]
    before = table_image(view, names=names), hand_image(view, theme=Theme.LIGHT)
    PICTURES.clear()
    for cache in (canvas.text_mask, canvas.text_metrics, canvas.text_tile, canvas.card_tile):
        cache.cache_clear()
    canvas.palette.cache_clear()
    canvas.inks.cache_clear()
    card_image.cache_clear()
    back_image.cache_clear()
    assert (table_image(view, names=names), hand_image(view, theme=Theme.LIGHT)) == before


def test_pictures_are_written_in_the_theme_palette() -> None:
    from scopabot.render.canvas import palette
    from scopabot.render.theme import PALETTES

    for theme in Theme:
        colours = palette(theme).getpalette() or []
        entries = {tuple(colours[i : i + 3]) for i in range(0, 768, 3)}
        col = PALETTES[theme]
        for exact in (col.felt, col.panel, col.text, col.muted, col.turn, col.last, col.scopa):
            assert exact in entries
        view = Game.new(Rules(), seed=1).view_for(0)
        img = Image.open(io.BytesIO(table_image(view, names=["a", "b"], theme=theme)))
        assert img.mode == "P" and img.getpalette() == colours[: len(img.getpalette() or [])]


def test_the_terminal_hand_shows_the_numbers_its_prompt_takes(canvases: Record) -> None:
    view = Game.new(Rules(), seed=2).view_for(0)
    hand_image(view, numbered=True)
    numbers = [t for t, _ in canvases[-1].texts if t.isdigit()]
    assert numbers == [str(i) for i in range(1, len(view.hand) + 1)]
    assert canvases[-1].smallest_text() >= MIN_TEXT
    assert hand_image(view, numbered=True) != hand_image(view)


def test_names_alike_in_words_get_their_seat_and_the_pictures_keep_them() -> None:
    from scopabot.render.names import labels, seat_marked

    names = ["<@1>", "Computer (medio)", "—", "Computer (medio)"]
    marked = seat_marked(names, empty="—")
    assert marked == ["<@1>", "Computer (medio) #2", "—", "Computer (medio) #4"]
    assert seat_marked(["—", "—"], empty="—") == ["—", "—"]  # open seats are no names
    # The pictures' rule finds them distinct already: drawn as the text writes them.
    assert labels(marked[1::2], lambda s: True) == ["Computer (medio) #2", "Computer (medio) #4"]
