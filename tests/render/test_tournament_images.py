"""A tournament's standings and bracket as pictures: drawn, readable at 360 pixels wide, with
alt text that says the standings and the bracket."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from scopabot.render.canvas import MIN_TEXT
from scopabot.render.i18n import Lang
from scopabot.render.tournament import MatchLine, StandingLine
from scopabot.render.tournament_images import (
    ALT_LIMIT,
    bracket_alt_text,
    bracket_picture,
    standings_picture,
)

from .conftest import Record

NAMES = ["Giulia", "Marco & Luca", "王小明", "Alessandro Maria Bianchi della Rovere", "😎", "Zoë"]


def standings(n: int, *, groups: bool = False) -> list[StandingLine]:
    return [
        StandingLine(
            rank=(i % 3) + 1 if groups else i + 1,
            who=f"{NAMES[i % len(NAMES)]} {i}",
            played=5,
            won=5 - i % 6,
            lost=i % 6,
            points=2 * (5 - i % 6),
            tiebreak=i,
            scored=100 - i,
            conceded=20 + i,
            withdrawn=i == 2,
            group=i // 3 if groups else None,
        )
        for i in range(n)
    ]


def knockout(entries: int) -> list[MatchLine]:
    """A knock-out bracket of ``entries`` (a power of two), its first round decided, the next
    being played."""
    out = []
    for slot in range(entries // 2):
        a, b = NAMES[(2 * slot) % 6] + str(slot), NAMES[(2 * slot + 1) % 6] + str(slot)
        won = "a" if slot % 2 else "b"
        out.append(MatchLine(1, a, b, won, (11, 7) if won == "a" else (7, 11), slot=slot))
    for slot in range(entries // 4):
        top, bottom = out[2 * slot].b or "", out[2 * slot + 1].a
        out.append(MatchLine(2, top, bottom, None, (0, 0), slot=slot))
    return out


def shown(picture_bytes: bytes) -> Image.Image:
    return Image.open(io.BytesIO(picture_bytes))


def test_the_standings_picture_shows_the_page_and_its_alt_text_says_it(canvases: Record) -> None:
    lines = standings(4)
    picture = standings_picture("Coppa dell'Osteria", lines, Lang.IT)
    assert picture.filename == "standings.png"
    assert shown(picture.data).width == 800
    [cv] = canvases
    texts = [t for t, _ in cv.texts]
    assert "Coppa dell'Osteria · classifica (1/1)" in texts
    assert "Giulia 0" in texts and "(ritirato)" in texts
    alt = picture.description
    assert alt.startswith("Coppa dell'Osteria, classifica (pagina 1 di 1):")
    assert "1. Giulia 0, punti 10" in alt and "3. 王小明 2 (ritirato)" in alt
    english = standings_picture("Cup", lines, Lang.EN).description
    assert "2. Marco & Luca 1, points 8 (played 5, won 4, lost 1" in english


def test_a_long_standings_is_paged_and_its_alt_text_fits_discord(canvases: Record) -> None:
    lines = standings(40)
    first = standings_picture("Coppa", lines, Lang.EN, page=1)
    third = standings_picture("Coppa", lines, Lang.EN, page=3)
    assert "page 1 of 3" in first.description and "page 3 of 3" in third.description
    assert "31. " in third.description and "30. " not in third.description
    assert len(first.description) <= ALT_LIMIT and first.description.endswith("…")
    # Fifteen lines a page: the first page's picture stops at the fifteenth.
    texts = [t for t, _ in canvases[0].texts]
    assert "15" in texts and "16" not in texts


def test_the_standings_of_groups_show_each_group(canvases: Record) -> None:
    standings_picture("Coppa", standings(6, groups=True), Lang.IT)
    texts = [t for t, _ in canvases[0].texts]
    assert "Girone A" in texts and "Girone B" in texts


def test_a_knockout_bracket_is_a_tree_to_the_final(canvases: Record) -> None:
    matches = knockout(8)
    picture = bracket_picture("Coppa", matches, Lang.IT, first_round=1, knockout=True)
    assert picture.filename == "bracket.png"
    [cv] = canvases
    texts = [t for t, _ in cv.texts]
    assert "Turno 1" in texts and "Semifinali" in texts and "Finale" in texts
    assert texts.count("—") == 1  # the final, still to be paired, an empty box
    alt = picture.description
    assert alt.startswith("Coppa, tabellone. Turno 1: Marco & Luca0 batte Giulia0 11–7")
    assert "Semifinali: Marco & Luca0 contro 王小明1, in corso" in alt


def test_a_big_bracket_starts_where_eight_matches_fit(canvases: Record) -> None:
    matches = knockout(32)
    bracket_picture("Coppa", matches, Lang.EN, first_round=1, knockout=True)
    texts = [t for t, _ in canvases[0].texts]
    assert "Round 2" in texts and "Round 1" not in texts and "Final" in texts


def test_a_league_s_rounds_are_lists_and_byes_are_said(canvases: Record) -> None:
    matches = [
        MatchLine(1, "Giulia", "Marco", "a", (11, 4), slot=0),
        MatchLine(1, "Zoë", None, "bye", (0, 0), slot=1),
        MatchLine(2, "Marco", "Zoë", None, (0, 0), slot=0),
        MatchLine(2, "Giulia", None, "rest", (0, 0), slot=1),
    ]
    picture = bracket_picture("Lega", matches, Lang.EN, first_round=1, knockout=False)
    texts = [t for t, _ in canvases[0].texts]
    assert "Round 1" in texts and "Round 2" in texts and "11–4" in texts and "bye" in texts
    assert picture.description == (
        "Lega, bracket. Round 1: Giulia beat Marco 11–4; Zoë: a bye (it counts as a win)."
        " Round 2: Marco v Zoë, being played; Giulia rests this round."
    )


def test_a_long_league_keeps_its_latest_rounds_in_the_alt_text() -> None:
    matches = [
        MatchLine(r, f"Player number {2 * s}", f"Player number {2 * s + 1}", "a", (11, 3), slot=s)
        for r in range(1, 20)
        for s in range(10)
    ]
    alt = bracket_alt_text("Lega", matches, Lang.EN, knockout=False)
    assert len(alt) <= ALT_LIMIT
    assert alt.startswith("Lega, bracket. … Round") and "Round 19:" in alt


@pytest.mark.parametrize("lang", [Lang.EN, Lang.IT])
def test_every_text_of_the_tournament_pictures_is_readable_at_360_pixels(
    canvases: Record, lang: Lang
) -> None:
    long = "Alessandro Maria Bianchi della Rovere di Castel San Pietro"
    standings_picture(long, standings(15), lang)
    standings_picture("Coppa", standings(9, groups=True), lang)
    standings_picture("Coppa", [], lang)
    for entries in (2, 4, 8, 16):
        bracket_picture(long, knockout(entries), lang, first_round=1, knockout=True)
    bracket_picture("Coppa", knockout(8), lang, first_round=1, knockout=False)
    bracket_picture("Coppa", [], lang, first_round=1, knockout=False)
    assert len(canvases) == 9
    for cv in canvases:
        assert cv.width == 800
        assert cv.smallest_text() >= MIN_TEXT, min(cv.texts, key=lambda t: t[1])
