"""The gallery in ``docs/gallery``: every card, and sample pictures of a table (two and four
players, names in several scripts, flags and Indic names), names drawn shaped and letter by
letter, a hand, a deal's breakdown (three players, a primiera
tie), the standings, and the figures as colour-blind players see them, in both themes and
both languages.

    python -m scopabot.render.gallery [docs/gallery]

The positions come from seeded random matches, so the gallery is the same on every run (on
one machine: another version of Pillow or of the font may move a pixel).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Final

from PIL import Image, ImageDraw

from scopabot.engine import CARDS, Card, DealScore, Game, GameView, Preset, Rules, Suit

from .canvas import FORMAT, Canvas, encode
from .cards_art import card_height, card_image
from .fonts import SHAPING, draw_piece, drawable, piece_length, pieces
from .i18n import Lang
from .image import deal_image, deal_piles, hand_image, standings_image, table_image
from .theme import PALETTES, Theme
from .tournament import MatchLine, StandingLine
from .tournament_images import bracket_picture, standings_picture

NAMES: Final = ("Marco", "Giulia", "Luca", "Sara")
SHEET_CARD: Final = 110


def cards_sheet(theme: Theme = Theme.DARK) -> bytes:
    """All forty cards in four rows (denari, coppe, spade, bastoni), then the back."""
    gap = 10
    h = card_height(SHEET_CARD)
    cv = Canvas(10 * (SHEET_CARD + gap) + gap, 5 * (h + gap) + gap, theme)
    for i, card in enumerate(CARDS):
        cv.card(card, gap + (i % 10) * (SHEET_CARD + gap), gap + (i // 10) * (h + gap), SHEET_CARD)
    cv.card(None, gap, gap + 4 * (h + gap), SHEET_CARD)
    return cv.encode()


def sample_position(rules: Rules, *, scopa: bool = True) -> GameView:
    """A view, for the seat to play, just after a capture (a scopa when ``scopa``) of some
    seeded random match, with cards on the table when possible."""
    fallback = None
    for seed in range(500):
        game = Game.new(rules, seed=seed)
        rng = random.Random(seed)
        for _ in range(40):
            if game.is_over:
                break
            game.play(rng.choice(game.legal_moves()))
            plays = game.plays()
            if plays and len(plays[-1].capture) >= 2 and plays[-1].scopa == scopa:
                view = game.view_for(game.turn)
                if scopa or len(view.felt) >= 4:
                    return view
                fallback = fallback or view
    if fallback is None:  # pragma: no cover - 500 seeded matches always have one
        raise RuntimeError("no sample position found")
    return fallback


def early_position(rules: Rules, *, plays: int) -> GameView:
    """The view of the seat to play after ``plays`` random plays of a seeded match."""
    game = Game.new(rules, seed=3)
    rng = random.Random(3)
    for _ in range(plays):
        game.play(rng.choice(game.legal_moves()))
    return game.view_for(game.turn)


def sample_match(rules: Rules) -> tuple[GameView, DealScore, tuple[tuple[Card, ...], ...]]:
    """A whole seeded random match: the final view, its first deal's breakdown and piles."""
    game = Game.new(rules, seed=11)
    rng = random.Random(11)
    first = None
    while not game.is_over:
        before = game.view_for(0)
        result = game.play(rng.choice(game.legal_moves()))
        if result.deal_score is not None and first is None:
            first = (result.deal_score, deal_piles(before, result))
    assert first is not None
    return game.view_for(0), first[0], first[1]


PROTANOPIA: Final = (
    (0.152286, 1.052583, -0.204868),
    (0.114503, 0.786281, 0.099216),
    (-0.003882, -0.048116, 1.051998),
)
DEUTERANOPIA: Final = (
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.011820, 0.042940, 0.968881),
)
"""How the colours look without red cones (protanopia) or green ones (deuteranopia): the
matrices of Machado, Oliveira and Fernandes (2009) at full severity, applied to sRGB."""


def simulate(img: Image.Image, matrix: tuple[tuple[float, float, float], ...]) -> Image.Image:
    """``img`` as a colour-blind reader sees it (RGBA is laid on white first)."""
    flat = Image.new("RGB", img.size, (255, 255, 255))
    flat.paste(img, (0, 0), img if img.mode == "RGBA" else None)
    return flat.convert("RGB", tuple(v for row in matrix for v in (*row, 0.0)))


def colour_blind_sheet() -> bytes:
    """The figures of every suit as everyone sees them, then under protanopia and under
    deuteranopia: the suits stay apart by shape (the sign held, the weave of the clothes)."""
    width, gap = 88, 8
    cards = [Card(v, s) for s in Suit for v in (8, 10)]
    h = card_height(width)
    sheet = Image.new("RGBA", (len(cards) * (width + gap) + gap, 3 * (h + gap) + gap), (0,) * 4)
    for i, card in enumerate(cards):
        sheet.alpha_composite(card_image(card, width), (gap + i * (width + gap), gap))
    row = sheet.crop((0, 0, sheet.width, h + 2 * gap))
    out = Image.new("RGB", sheet.size, PALETTES[Theme.DARK].felt)
    out.paste(row, (0, 0), row)
    for k, matrix in enumerate((PROTANOPIA, DEUTERANOPIA), 1):
        seen = simulate(row, matrix)
        mask = row.getchannel("A")
        out.paste(seen, (0, k * (h + gap)), mask)
    return encode(out)


SHEET_NAMES: Final = (
    "🇮🇹 Giulia",
    "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f Sam",
    "👨\u200d👩\u200d👧 1\u20e3",
    "हिन्दी नमस्ते",
    "বাংলা",
    "தமிழ்",
    "สวัสดี",
    "محمد علي 🇪🇬",
)


def names_sheet(size: int = 32) -> bytes:
    """Names as the pictures draw them: on the left shaped by their fonts (Pillow's raqm), on
    the right letter by letter, as a machine without FriBiDi draws them (a flag framed, a
    family by its people); both keep every name apart. Only the right column without raqm."""
    columns = (True, False) if SHAPING else (False,)
    line, gap = round(size * 1.6), size
    laid = [[pieces(drawable(n), shaped) for n in SHEET_NAMES] for shaped in columns]
    widths = [max(sum(piece_length(p, size) for p in ps) for ps in col) for col in laid]
    sheet = Image.new(
        "L", (round(sum(widths)) + gap * (len(columns) + 1), line * len(SHEET_NAMES) + gap)
    )
    pen = ImageDraw.Draw(sheet)
    x = float(gap)
    for col, width in zip(laid, widths, strict=True):
        for row, ps in enumerate(col):
            at = x
            for p in ps:
                draw_piece(pen, (at, gap / 2 + row * line + size), p, size)
                at += piece_length(p, size)
        x += width + gap
    colours = PALETTES[Theme.DARK]
    out = Image.new("RGB", sheet.size, colours.felt)
    out.paste(Image.new("RGB", sheet.size, colours.text), (0, 0), sheet)
    return encode(out)


def three_player_deal() -> tuple[DealScore, tuple[tuple[Card, ...], ...]]:
    """The first deal of a seeded three-player match, whose primiera is a tie (78 each)."""
    rules = Rules(players=3)
    game = Game.new(rules, seed=4)
    rng = random.Random(4)
    while True:
        before = game.view_for(0)
        result = game.play(rng.choice(game.legal_moves()))
        if result.deal_score is not None:
            return result.deal_score, deal_piles(before, result)


def tournament_samples() -> dict[str, bytes]:
    """A tournament's standings (groups) and a knock-out's bracket half played."""
    lines = [
        StandingLine(1, "Giulia", 3, 3, 0, 6, 4, 33, 12, False, 0),
        StandingLine(2, "Marco & Luca", 3, 2, 1, 4, 2, 30, 20, False, 0),
        StandingLine(3, "王小明", 3, 1, 2, 2, 0, 20, 28, True, 0),
        StandingLine(1, "Alessandro Maria Bianchi", 3, 2, 1, 4, 2, 29, 22, False, 1),
        StandingLine(2, "Zoë", 3, 2, 1, 4, 0, 27, 25, False, 1),
        StandingLine(3, "😎🔥", 3, 0, 3, 0, 0, 12, 33, False, 1),
    ]
    matches = [
        MatchLine(1, "Giulia", "Marco", "a", (11, 5), slot=0),
        MatchLine(1, "Zoë", "Ελένη", "b", (3, 11), slot=1),
        MatchLine(1, "Dmitri", "さくら", "a", (0, 0), reason="resign", slot=2),
        MatchLine(1, "Ann", None, "bye", (0, 0), slot=3),
        MatchLine(2, "Giulia", "Ελένη", None, (0, 0), slot=0),
        MatchLine(2, "Dmitri", "Ann", "b", (7, 11), slot=1),
    ]
    return {
        "tournament-standings-it": standings_picture("Coppa dell'Osteria", lines, Lang.IT).data,
        "tournament-bracket": bracket_picture(
            "Summer Cup", matches, Lang.EN, first_round=1, knockout=True
        ).data,
    }


def write_gallery(folder: str | Path) -> list[Path]:
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    scopa = Rules(preset=Preset.SCOPA, players=2)
    scopone = Rules(preset=Preset.SCOPONE_SCIENTIFICO)
    two = sample_position(scopa, scopa=False)
    four = sample_position(Rules(preset=Preset.SCOPA, players=4))
    deep = early_position(scopone, plays=3)
    final, breakdown, piles = sample_match(scopone)
    deal3, piles3 = three_player_deal()
    pictures = {
        "cards": cards_sheet(),
        "table-scopa-dark": table_image(two, names=NAMES[:2]),
        "table-scopa-light": table_image(two, names=NAMES[:2], theme=Theme.LIGHT),
        "table-4-players-scopa-it": table_image(four, names=NAMES, lang="it"),
        "table-names-emoji-cjk": table_image(
            sample_position(scopone, scopa=False),
            names=("王小明", "김민준 🌸", "محمد علي", "😎🔥"),
            lang="it",
        ),
        "table-names-flags-indic": table_image(
            sample_position(Rules(preset=Preset.SCOPA, players=3), scopa=False),
            names=("🇮🇹 Giulia", "राहुल 🇮🇳", "สมชาย 👨\u200d👩\u200d👧"),
        ),
        "names-shaped": names_sheet(),
        "deal-3-players-it": deal_image(
            deal3,
            rules=Rules(players=3),
            names=("Marco", "Giulia", "Computer (difficile)"),
            piles=piles3,
            lang="it",
        ),
        "colour-blind": colour_blind_sheet(),
        "hand-scopa": hand_image(two),
        "hand-scopone-light-it": hand_image(deep, theme=Theme.LIGHT, lang="it"),
        "deal-scopone": deal_image(breakdown, rules=scopone, names=NAMES, piles=piles),
        "standings-scopone": standings_image(
            final.totals,
            rules=scopone,
            names=NAMES,
            deal_scores=final.deal_scores,
            outcome=final.outcome,
        ),
    }
    pictures.update(tournament_samples())
    written = []
    for stem, data in pictures.items():
        path = out / f"{stem}.{FORMAT}"
        path.write_bytes(data)
        written.append(path)
    return written


if __name__ == "__main__":
    for written_path in write_gallery(sys.argv[1] if len(sys.argv) > 1 else "docs/gallery"):
        print(written_path)
