"""Names in every script as the pictures draw them (issue 21): flags, emoji families and
keycaps as one glyph each, Indic and Thai letters shaped by their fonts, Arabic joined and read
right to left; and where Pillow has no complex layout (no raqm), a clean stand-in that still
keeps every two names apart. Never a "?" nor a missing-letter box."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw, features

from scopabot.engine import Game, Preset, Rules
from scopabot.render import canvas as canvas_module
from scopabot.render import fonts
from scopabot.render.canvas import MIN_TEXT, Canvas
from scopabot.render.fonts import BADGE, PLAIN, drawable, draws, layout
from scopabot.render.image import deal_image, table_image
from scopabot.render.memo import PICTURES
from scopabot.render.names import plain_name
from scopabot.render.theme import Theme

from .conftest import Record

RAQM = features.check_feature("raqm")
needs_raqm = pytest.mark.skipif(not RAQM, reason="Pillow without raqm (no libfribidi0)")

ENGLAND = "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
SCOTLAND = "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
FAMILY = "👨\u200d👩\u200d👧"
COUPLE = "👩\u200d❤\u200d👨"
RAINBOW = "🏳\u200d🌈"

NAMES = [
    "Marco",
    "Zoë",
    "ǅemal",
    "Ελένη",
    "Дмитрий",
    "王小明",
    "さくら",
    "김민준",
    "محمد",
    "محمود",
    "لا إله",
    "محمد ١٢",
    "علی\u200cرضا",  # Persian: the non-joiner keeps the ye final
    "علیرضا",
    "שרה",
    "हिन्दी",
    "नमस्ते",
    "राहुल",
    "নমস্তে",
    "বাংলা",
    "தமிழ்",
    "வணக்கம்",
    "สมชาย",
    "สวัสดี",
    "ພາສາລາວ",
    "ಕನ್ನಡ",
    "മലയാളം",
    "ગુજરાતી",
    "ਪੰਜਾਬੀ",
    "తెలుగు",
    "සිංහල",
    "ខ្មែរ",
    "မြန်မာ",
    "ქართული",
    "Հայերեն",
    "አማርኛ",
    "🇮🇹",
    "🇫🇷",
    "🇹🇮",
    "🇮🇹🇫🇷",
    "🇮🇹 Marco",
    "Marco 🇮🇹",
    "محمد 🇮🇹",
    ENGLAND,
    SCOTLAND,
    FAMILY,
    COUPLE,
    RAINBOW,
    "1\u20e3",
    "2\u20e3",
    "#\u20e3",
    "🃏",
    "😎🔥",
]
"""Each as :func:`drawable` keeps it (variation selectors and skin tones dropped)."""


def drawing(name: str) -> bytes:
    cv = Canvas(480, 60, Theme.DARK)
    cv.text((10, 10), name, 32)
    return cv.img.tobytes()


def _clear() -> None:
    for cache in (canvas_module.text_mask, canvas_module.text_metrics, canvas_module.text_tile):
        cache.cache_clear()
    PICTURES.clear()


@pytest.fixture(params=[True, False], ids=["raqm", "basic"])
def shaping(request: pytest.FixtureRequest) -> Iterator[bool]:
    """Each test once with Pillow's complex layout and once without (a machine lacking
    libraqm's FriBiDi): both must draw every name, and apart."""
    if request.param and not RAQM:
        pytest.skip("Pillow without raqm (no libfribidi0)")
    was = fonts.SHAPING
    fonts.SHAPING = request.param
    _clear()
    yield request.param
    fonts.SHAPING = was
    _clear()


def test_every_name_is_drawn_and_no_two_draw_alike(shaping: bool) -> None:
    assert all(drawable(n) == n for n in NAMES)
    drawn = [drawing(n) for n in NAMES]
    assert drawing("") not in drawn and drawing("?") not in drawn
    alike = [
        (a, b) for i, a in enumerate(NAMES) for b in NAMES[i + 1 :] if drawing(a) == drawing(b)
    ]
    assert not alike
    assert all("?" not in p.text for n in NAMES for p in layout(n))


def test_no_letter_is_drawn_as_a_missing_letter_box(shaping: bool) -> None:
    """Every character a piece holds is in the font that draws it (an emoji sequence's
    joiners, tags and keycap mark are the emoji font's own)."""
    for name in NAMES:
        for piece in layout(name):
            if piece.how == BADGE:
                assert piece.font == 0 and piece.text.isascii()
                assert piece.text.isalnum() or piece.text in "#*"
                continue
            for c in piece.text:
                if c.isspace() or (
                    piece.how != PLAIN and (c in "\u200c\u200d\u20e3" or c >= "\U000e0000")
                ):
                    continue
                assert draws(piece.font, c), (name, c, piece)


def test_a_flag_is_one_glyph_never_two_letters(shaping: bool) -> None:
    if shaping:
        for flag in ("🇮🇹", "🇫🇷", ENGLAND, SCOTLAND, FAMILY, COUPLE, RAINBOW, "1\u20e3"):
            (piece,) = layout(flag)
            assert piece.how == "ltr" and piece.font == fonts._emoji_font()
            f = fonts.shaped_font(piece.font, 32)
            assert f.getlength(flag) == f.getlength("🏳")  # one emoji wide
    else:
        assert [(p.text, p.how) for p in layout("🇮🇹 Marco")] == [("IT", BADGE), (" Marco", PLAIN)]
        assert [p.text for p in layout(ENGLAND)] == ["ENG"]
        assert [p.text for p in layout("1\u20e3")] == ["1"]
        # a family without shaping: its people side by side
        assert [p.text for p in layout(FAMILY)] == ["👨👩👧"]
    # neither the flag's letters nor the letters it hides
    assert drawing("🇮🇹") not in (drawing("IT"), drawing("I T"), drawing("🇹🇮"))
    assert drawing("1\u20e3") != drawing("1")


def test_a_name_is_cut_between_flags_never_inside_one(shaping: bool) -> None:
    cv = Canvas(400, 60, Theme.DARK)
    flags = "🇮🇹🇫🇷🇩🇪🇪🇸🇵🇹🇬🇧🇧🇷🇦🇷🇯🇵🇰🇷🇮🇳🇪🇬"
    cut = cv.fit(flags, 32, 150)
    assert cut.endswith("…") and len(cut) % 2 == 1 and flags.startswith(cut[:-1])
    assert (
        cv.fit("Marco " + FAMILY * 12, 32, 200)
        .removesuffix("…")
        .rstrip()
        .endswith(("Marco", FAMILY))
    )


@needs_raqm
def test_indic_letters_are_shaped_by_their_font() -> None:
    """With raqm, a Devanagari vowel sign i is drawn before its consonant, and a consonant
    with a virama joins the next into one conjunct; letter by letter neither happens."""
    deva = fonts.font_for("क")
    assert deva is not None
    basic, shaped = fonts.font_at(deva, 40), fonts.shaped_font(deva, 40)
    half = 10 + basic.getlength("क") / 2

    def left_half(f: fonts.Font, text: str) -> bytes:
        img = Image.new("L", (200, 100))
        ImageDraw.Draw(img).text((10, 70), text, font=f, fill=255, anchor="ls")
        return img.crop((0, 0, round(half), 100)).tobytes()

    alone = left_half(basic, "क")
    assert left_half(basic, "कि") == alone  # letter by letter the sign comes after the ka
    assert left_half(shaped, "कि") != alone  # shaped it stands before it, as written
    assert shaped.getlength("न्द") < basic.getlength("न्द")  # a conjunct, no loose virama
    assert [p.how for p in layout("हिन्दी")] == ["ltr"]


def _ink_top(img: Image.Image, left: int, right: int) -> int:
    box = img.crop((left, 0, right, img.height)).getbbox()
    assert box is not None
    return box[1]


def test_right_to_left_names_read_right_to_left(shaping: bool) -> None:
    """ "ا ب" (alef, beh): alef, the first letter, stands tall at the right end."""
    mask = canvas_module.text_mask("ا ب", 40, False)[0]
    box = mask.getbbox()
    assert box is not None
    middle = (box[0] + box[2]) // 2
    assert _ink_top(mask, middle, box[2]) < _ink_top(mask, box[0], middle)
    # a flag after an Arabic name stays at its end: the left, and not turned round
    pieces = layout("محمد 🇮🇹")
    assert pieces[0].font in (0, fonts._emoji_font())
    assert pieces[0].text in ("🇮🇹", "IT")
    if shaping:
        assert pieces[-1].how == "rtl" and pieces[-1].text == "محمد"  # raqm turns and joins it
        # its numbers given back in reading order too, for raqm to keep left to right
        assert [(p.text, p.how) for p in layout("محمد ١٢")] == [("محمد ١٢", "rtl")]


def test_skin_tones_read_alike_and_the_seats_keep_them_apart(
    shaping: bool, canvases: Record
) -> None:
    """The monochrome emoji has one colour: 👍🏽 and 👍🏿 draw alike, so the table marks
    their seats."""
    view = Game.new(Rules(players=3), seed=4).view_for(0)
    table_image(view, names=["👍🏽", "👍🏿", "🇮🇹"])
    texts = [t for t, _ in canvases[-1].texts]
    assert "👍 #1" in texts and "👍 #2" in texts and "🇮🇹" in texts


def test_names_that_draw_alike_only_without_raqm_get_their_seats(
    shaping: bool, canvases: Record
) -> None:
    """A half form written with a joiner and the conjunct written without, a family and its
    people side by side: apart with raqm; letter by letter they draw alike, so the table marks
    their seats."""
    half, conjunct = "क्\u200dष", "क्ष"
    view = Game.new(Rules(players=4), seed=6).view_for(0)
    table_image(view, names=[half, conjunct, FAMILY, "👨👩👧"])
    texts = [t for t, _ in canvases[-1].texts]
    if shaping:
        assert drawing(half) != drawing(conjunct) and drawing(FAMILY) != drawing("👨👩👧")
        assert {half, conjunct, FAMILY, "👨👩👧"} <= set(texts)
    else:
        assert {f"{half} #1", f"{conjunct} #2", f"{FAMILY} #3", "👨👩👧 #4"} <= set(texts)


def test_tables_of_flags_and_indic_names_keep_the_smallest_text(
    shaping: bool, canvases: Record
) -> None:
    names = ["🇮🇹 Giulia", "हिन्दी", ENGLAND + " Sam", "محمد"]
    game = Game.new(Rules(preset=Preset.SCOPONE_SCIENTIFICO), seed=5)
    for theme in Theme:
        picture = table_image(game.view_for(0), names=names, theme=theme, lang="it")
        assert Image.open(io.BytesIO(picture)).size[0] == 800
    while not game.is_over and not game.view_for(0).deal_scores:
        game.play(game.legal_moves()[0])
    view = game.view_for(0)
    deal_image(view.deal_scores[0], rules=view.rules, names=names)
    for cv in canvases:
        assert cv.smallest_text() >= MIN_TEXT
        texts = {t for t, _ in cv.texts}
        assert any("हिन्दी" in t for t in texts)


PARTS = st.sampled_from(
    [
        *"aZ1# ?",
        *"\U0001f1ee\U0001f1f9\U0001f1eb\U0001f1f7\U0001f3f4\u200d\u20e3\ufe0f\U0001f3fd",
        *"\U000e0067\U000e0062\U000e0065\U000e006e\U000e007f👨👩👧❤🌈🏳",
        *"محمد١٢שרה",
        *"हिन्दीক্ষதமிழ்สวัสดี王",
        *"\u202e\u200b\u200c\ue000",
    ]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(PARTS, max_size=14).map("".join), st.booleans())
def test_any_mix_of_scripts_and_sequences_draws_without_a_box(text: str, shaped: bool) -> None:
    """Whatever a name mixes (loose regional indicators, stray tags and joiners, a flag inside
    Arabic), every piece is drawn by a font that has its characters, and it draws."""
    if shaped and not RAQM:
        shaped = False
    name = plain_name(text)
    if name is None:
        return
    pen = ImageDraw.Draw(Image.new("L", (2000, 60)))
    x = 10.0
    for piece in fonts.pieces(drawable(name), shaped):
        assert piece.text
        fonts.draw_piece(pen, (x, 40), piece, 24)
        x += fonts.piece_length(piece, 24)
        if piece.how == BADGE:
            assert piece.text.isascii()
            continue
        for c in piece.text:
            if c.isspace() or (
                piece.how != PLAIN and (c in "\u200c\u200d\u20e3" or c >= "\U000e0000")
            ):
                continue
            assert draws(piece.font, c), (name, c, piece)


def test_names_in_styled_letters_read_as_their_letters() -> None:
    """Discord names are often written in mathematical letters (𝓜𝓪𝓻𝓬𝓸, 𝕄𝕒𝕣𝕔𝕠) that no font
    of the chain has: they are drawn as the letters they style, and a table keeps such a name
    apart from the plain one."""
    assert drawable("𝓜𝓪𝓻𝓬𝓸") == "Marco" and drawable("𝕄𝕒𝕣𝕔𝕠 🇮🇹") == "Marco 🇮🇹"
    from scopabot.render.names import labels

    assert labels(["𝓜𝓪𝓻𝓬𝓸", "Marco", "𝔐𝔞𝔯𝔠𝔬"], lambda s: len(s) < 20) == [
        "Marco #1",
        "Marco #2",
        "Marco #3",
    ]
