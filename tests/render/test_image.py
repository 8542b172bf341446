"""The pictures: each drawn from what its seat may see, deterministic, small, described."""

from __future__ import annotations

import inspect
import io
import random
from pathlib import Path

import pytest
from PIL import Image

from scopabot.engine import CARDS, Card, Game, GameView, Preset, Rules, Suit
from scopabot.render import image
from scopabot.render.cards_art import back_image, card_height, card_image
from scopabot.render.image import (
    MAX_BYTES,
    deal_image,
    deal_piles,
    hand_alt_text,
    hand_image,
    primiera_cards,
    standings_image,
    table_image,
    write_game_images,
)
from scopabot.render.theme import Theme

LIMIT = 150 * 1024
NAMES2 = ["Marco", "Giulia"]
NAMES4 = ["Marco", "Giulia", "Luca", "Sara"]


def decode(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    img.load()
    return img


def laid_position() -> Game:
    game = Game.from_position(
        Rules(),
        hands=[["8c", "7d", "1b"], ["2s", "4c", "5b"]],
        felt=["7c", "3c"],
        deck=["1d", "2d", "3d", "4d", "5d", "6d"],
        turn=1,
        dealer=0,
    )
    game.play("5b")
    return game


def random_views(rules: Rules, count: int, seed: int) -> list[GameView]:
    rng = random.Random(seed)
    views = []
    while len(views) < count:
        game = Game.new(rules, seed=rng.randrange(10**6))
        for _ in range(rng.randrange(0, 25)):
            game.play(rng.choice(game.legal_moves()))
        views.append(game.view_for(game.turn))
    return views


# ---------------------------------------------------------------------------- the cards


def test_every_card_draws_and_no_two_look_alike() -> None:
    faces = [card_image(c, 100) for c in CARDS]
    assert all(f.size == (100, card_height(100)) for f in faces)
    assert len({f.tobytes() for f in faces}) == 40
    assert back_image(100).tobytes() not in {f.tobytes() for f in faces}


def test_each_card_is_drawn_once_per_size_and_theme() -> None:
    card = Card.parse("7d")
    assert card_image(card, 100) is card_image(card, 100)
    assert card_image(card, 100) is not card_image(card, 101)
    assert card_image(card, 100, Theme.LIGHT) is not card_image(card, 100, Theme.DARK)


def _shape(card: Card) -> set[tuple[int, int]]:
    """The dark outline pixels of a face: what is left with the colours taken away (the
    threshold is below every suit's ink, so only the black outlines count)."""
    grey = card_image(card, 120).convert("L")
    return {
        (x, y) for y in range(grey.height) for x in range(grey.width) if grey.getpixel((x, y)) < 60
    }


@pytest.mark.parametrize("value", [1, 4, 7])
def test_suits_differ_by_shape_not_only_colour(value: int) -> None:
    shapes = {s: _shape(Card(value, s)) for s in Suit}
    for a in Suit:
        for b in Suit:
            if a < b:
                differ = len(shapes[a] ^ shapes[b]) / len(shapes[a] | shapes[b])
                assert differ > 0.3, (a, b, differ)


def test_figures_differ_by_shape_within_a_suit() -> None:
    for suit in Suit:
        shapes = [_shape(Card(v, suit)) for v in (8, 9, 10)]
        for i in range(3):
            for j in range(i + 1, 3):
                assert len(shapes[i] ^ shapes[j]) / len(shapes[i] | shapes[j]) > 0.3


def test_figures_differ_by_shape_across_suits() -> None:
    """A sword or a club is held raised and larger, a coin or a cup held out: the same figure
    of two suits differs in outline, not only in its colours (0.16 to 0.18 between coppe and
    bastoni when all four held their sign alike)."""
    for value in (8, 9, 10):
        shapes = {s: _shape(Card(value, s)) for s in Suit}
        for a in Suit:
            for b in Suit:
                if a < b:
                    differ = len(shapes[a] ^ shapes[b]) / len(shapes[a] | shapes[b])
                    assert differ > 0.185, (value, a, b, differ)


def test_the_asso_di_denari_carries_an_eagle() -> None:
    """The coin's centre is mostly the black eagle (a plain coin's centre, as on the 3 di
    denari, is a red dot in a ring: about a tenth dark)."""

    def dark_centre(card: str) -> float:
        grey = card_image(Card.parse(card), 120).convert("L")
        box = [(x, y) for y in range(77, 106) for x in range(48, 77)]
        return sum(grey.getpixel(xy) < 60 for xy in box) / len(box)  # type: ignore[operator]

    assert dark_centre("1d") > 0.45
    assert dark_centre("3d") < 0.2


def test_clubs_are_wooden_cudgels() -> None:
    """The bastoni signs are wood brown with a dark outline, not green sticks (the green
    stays in the corner value)."""

    def near(colour: tuple[int, ...], target: tuple[int, int, int]) -> bool:
        return sum((a - b) ** 2 for a, b in zip(colour, target, strict=False)) < 30**2

    for value in (1, 5, 7):
        face = card_image(Card(value, Suit.BASTONI), 120).convert("RGB")
        pixels = [face.getpixel((x, y)) for y in range(face.height) for x in range(face.width)]
        wood = sum(near(px, (176, 120, 62)) for px in pixels)  # type: ignore[arg-type]
        green = sum(near(px, (74, 140, 58)) for px in pixels)  # type: ignore[arg-type]
        assert wood > 400 and wood > 10 * green, (value, wood, green)


# ---------------------------------------------------------------------------- determinism


def test_the_same_position_gives_the_same_bytes() -> None:
    first = laid_position().view_for(0)
    again = laid_position().view_for(0)
    assert first is not again
    assert table_image(first, names=NAMES2) == table_image(again, names=NAMES2)
    assert hand_image(first) == hand_image(again)
    card_image.cache_clear()
    back_image.cache_clear()
    assert table_image(first, names=NAMES2) == table_image(again, names=NAMES2)


def test_a_different_position_gives_different_bytes() -> None:
    game = laid_position()
    before = table_image(game.view_for(0), names=NAMES2)
    game.play("8c:3c+5b")
    assert table_image(game.view_for(0), names=NAMES2) != before
    assert table_image(game.view_for(0), names=NAMES2, theme=Theme.LIGHT) != table_image(
        game.view_for(0), names=NAMES2
    )


# ---------------------------------------------------------------------------- privacy


def test_a_hand_picture_is_drawn_from_its_own_seat_view_only() -> None:
    params = inspect.signature(hand_image).parameters
    assert next(iter(params)) == "view"
    assert all(p.kind is p.KEYWORD_ONLY for name, p in params.items() if name != "view")
    game = laid_position()
    seat0, seat1 = game.view_for(0), game.view_for(1)
    assert hand_image(seat1) != hand_image(seat0)
    # Seat 1's picture depends on seat 1's hand alone: the same hand beside any other hand
    # for seat 0 gives the same bytes.
    other = Game.from_position(
        Rules(),
        hands=[["9s", "10b", "6c"], ["2s", "4c"]],
        felt=["7c", "3c", "5b"],
        deck=["1d", "2d", "3d", "4d", "5d", "6d"],
        turn=0,
        dealer=0,
    )
    assert other.view_for(1).hand == seat1.hand
    assert hand_image(other.view_for(1)) == hand_image(seat1)


def test_a_hand_alt_text_names_only_its_seat_cards() -> None:
    game = laid_position()
    seat1 = hand_alt_text(game.view_for(1))
    assert seat1 == "Your hand: 1: 2 of swords; 2: 4 of cups"
    for card in game.view_for(0).hand:
        assert image.card_name(card) not in seat1
        assert str(card) not in seat1
    assert hand_alt_text(game.view_for(0)) == (
        "Your hand: 1: jack of cups; 2: 7 of coins (settebello); 3: ace of clubs (your turn)"
    )
    assert hand_alt_text(game.view_for(0), lang="it") == (
        "La tua mano: 1: fante di coppe; 2: 7 di denari (settebello); 3: asso di bastoni "
        "(tocca a te)"
    )


# ---------------------------------------------------------------------------- alt text


def test_table_alt_text_says_what_the_table_shows() -> None:
    view = laid_position().view_for(0)
    assert image.table_alt_text(view, NAMES2) == (
        "Table: 3 of cups, 5 of clubs, 7 of cups; 6 cards in the deck; Marco deals; "
        "Marco's turn; last play: Giulia played the 5 of clubs; Marco 0, Giulia 0"
    )
    assert image.table_alt_text(view, NAMES2, lang="it") == (
        "Tavolo: 3 di coppe, 5 di bastoni, 7 di coppe; 6 carte nel mazzo; Marco dà le carte; "
        "tocca a Marco; ultima giocata: Giulia ha giocato il 5 di bastoni; Marco 0, Giulia 0"
    )


def test_table_alt_text_tells_a_capture_and_a_scopa() -> None:
    game = laid_position()
    game.play("1b")  # laid: nothing to take... an asso takes nothing without the option
    game.play("2s")
    game.play("8c:5b+3c")
    text = image.table_alt_text(game.view_for(1), NAMES2)
    assert (
        "last play: Marco played the jack of cups and took the 3 of cups and the 5 of clubs" in text
    )
    scopa = Game.from_position(Rules(), hands=[["10d", "2c"], ["4s"]], felt=["4b", "6c"], turn=0)
    scopa.play("10d:4b+6c")
    said = image.table_alt_text(scopa.view_for(1), NAMES2)
    assert said.startswith("Table: empty;")
    assert "took the 4 of clubs and the 6 of cups, scopa" in said
    assert "the deck is empty" in said


def test_deal_and_standings_alt_text() -> None:
    rules = Rules(preset=Preset.SCOPONE_SCIENTIFICO)
    game = Game.new(rules, seed=4)
    rng = random.Random(4)
    while True:
        before = game.view_for(0)
        result = game.play(rng.choice(game.legal_moves()))
        if result.deal_score is not None:
            break
    piles = deal_piles(before, result)
    score = result.deal_score
    assert [len(p) for p in piles] == [s.cards for s in score.sides]
    assert [sum(c.suit is Suit.DENARI for c in p) for p in piles] == [
        s.denari_count for s in score.sides
    ]
    text = image.deal_alt_text(score, rules=rules, names=NAMES4, piles=piles)
    assert text.startswith("Deal 1; Marco & Luca ")
    assert "Giulia & Sara" in text
    for side in score.sides:
        for card in primiera_cards(piles[side.side]):
            assert image.card_name(card) in text
    standings = image.standings_alt_text((12, 7), rules=rules, names=NAMES4)
    assert standings == "Standings, to 11 points: Marco & Luca 12, Giulia & Sara 7"


def test_primiera_cards_are_the_best_of_each_suit() -> None:
    pile = [Card.parse(c) for c in ("7d", "6d", "1c", "10c", "5s", "8s")]
    assert [str(c) for c in primiera_cards(pile)] == ["7d", "1c", "5s"]


def test_alt_text_stays_within_discord_limit() -> None:
    game = laid_position()
    long = ["x" * 400] * 2
    assert len(image.table_alt_text(game.view_for(0), long)) <= 1024


# ---------------------------------------------------------------------------- sizes


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(players=3), Rules(players=4), Rules(preset=Preset.SCOPONE_SCIENTIFICO)],
    ids=["scopa2", "scopa3", "scopa4", "scopone"],
)
def test_pictures_stay_small(rules: Rules) -> None:
    names = NAMES4[: rules.players]
    for view in random_views(rules, 6, seed=rules.players):
        table = table_image(view, names=names)
        hand = hand_image(view, theme=Theme.LIGHT, lang="it")
        assert len(table) < LIMIT and len(hand) < LIMIT
        assert decode(table).width == 800
        assert decode(hand).width <= 900


def test_a_crowded_table_and_long_names_stay_within_limits() -> None:
    rules = Rules(preset=Preset.SCOPONE_SCIENTIFICO)
    game = Game.from_position(
        rules,
        hands=[["10d", "9d"], ["10c", "9c"], ["10s", "9s"], ["10b", "9b"]],
        felt=[c for c in CARDS if c.value <= 4],
        turn=0,
    )
    names = ["Alessandro Maria Bianchi di Montevecchio", "Zoë", "Łukasz", "Ñandú 🃏"]
    data = table_image(game.view_for(0), names=names)
    assert len(data) < LIMIT <= MAX_BYTES
    picture = decode(data)
    assert picture.width == 800 and picture.height < 1400
    assert len(hand_image(game.view_for(0))) < LIMIT


def test_breakdown_and_standings_pictures() -> None:
    rules = Rules(players=3)
    game = Game.new(rules, seed=9)
    rng = random.Random(9)
    shown = 0
    while not game.is_over:
        before = game.view_for(0)
        result = game.play(rng.choice(game.legal_moves()))
        if result.deal_score is not None and shown < 2:
            shown += 1
            piles = deal_piles(before, result)
            data = deal_image(result.deal_score, rules=rules, names=NAMES4[:3], piles=piles)
            assert len(data) < LIMIT and decode(data).width == 800
            assert data != deal_image(result.deal_score, rules=rules, names=NAMES4[:3])
    view = game.view_for(0)
    data = standings_image(
        view.totals,
        rules=rules,
        names=NAMES4[:3],
        deal_scores=view.deal_scores,
        outcome=view.outcome,
        lang="it",
    )
    assert len(data) < LIMIT and decode(data).width == 800
    final = table_image(view, names=NAMES4[:3])
    assert len(final) < LIMIT


def test_write_game_images(tmp_path: Path) -> None:
    view = laid_position().view_for(0)
    written = write_game_images(view, tmp_path / "pics", names=NAMES2, prefix="d1-p1-")
    assert [p.name for p in written] == ["d1-p1-table.png", "d1-p1-hand.png"]
    assert written[0].read_bytes() == table_image(view, names=NAMES2)
    assert written[1].read_bytes() == hand_image(view)
    assert written[1].with_suffix(".txt").read_text() == hand_alt_text(view) + "\n"


def test_names_are_drawn_without_missing_letter_boxes() -> None:
    from scopabot.render.theme import HAS_FONT, printable

    # Issue 21: emoji and every script are drawn (a font chain), never "?"; only characters
    # no font has, and invisible marks, are left out.
    assert printable("Marco") == "Marco"
    assert printable("Ñandú 🃏") == ("Ñandú 🃏" if HAS_FONT else "Nandu")
    assert printable("🃏🃏") == ("🃏🃏" if HAS_FONT else "")
    assert printable("\ue000Zoë\u200d") == ("Zoë" if HAS_FONT else "Zoe")


def test_the_gallery_is_written(tmp_path: Path) -> None:
    from scopabot.render.gallery import write_gallery

    written = write_gallery(tmp_path)
    assert {p.name for p in written} >= {"cards.png", "table-scopa-dark.png", "hand-scopa.png"}
    for path in written:
        assert 0 < path.stat().st_size < LIMIT
        decode(path.read_bytes())
