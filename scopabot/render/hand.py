"""A player's hand, with a button per card, and the question "which cards do you take?".

Shown only to that player (a DM, or an ephemeral reply to "My hand"), built from their own
seat's view. A card button plays the card; when it can take different cards the player is
asked with one button per capture, or a select menu when they do not fit.

Its picture (:func:`hand_picture`) is drawn from the same seat's view: a view holds no other
hand, so it cannot show anyone else's cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import NamedTuple

from scopabot.engine import Card, GameView, Move

from .cards import capture_name, card_name, card_the, cards_names
from .i18n import Lang, tr
from .image import FORMAT, Theme, hand_alt_text_of, hand_image_of
from .screens import BLUE, GREY, Action, Button, Choice, Picture, Screen, Style, rows_of
from .table import stamp

MAX_CAPTURE_BUTTONS = 20  # four rows of five; the fifth row holds "back"
LABEL_MAX = 80


def _label(text: str) -> str:
    return text if len(text) <= LABEL_MAX else text[: LABEL_MAX - 1] + "…"


def hand_screen(
    hand: Sequence[Card],
    table: Sequence[Card],
    lang: Lang,
    *,
    title: str,
    your_turn: bool,
    turn_name: str,
    deadline: datetime | None = None,
    link: str | None = None,
    choices: Mapping[Card, Sequence[Move]] | None = None,
    finished: bool = False,
    note: str = "",
    away: bool = False,
    deck: int = 0,
) -> Screen:
    """The hand; buttons are live only on the player's turn (the same check the move runs).

    ``away``: a computer holds the seat since the player's timeouts; a button gives it back
    at once, whoever's turn it is (the cards stay playable too: playing one also does). An
    empty hand waits for the next distribution while ``deck`` still holds cards, else for the
    next deal."""
    head = f"## {tr('hand.title', lang)} · {title}"
    if link:
        head += f"\n{tr('hand.link', lang, url=link)}"
    blocks = [head]
    on_table = cards_names(table, lang) if table else tr("table.empty", lang)
    blocks.append(f"**{tr('table.cards', lang)}** {on_table}")
    if finished:
        blocks.append(tr("hand.over", lang))
    elif your_turn:
        line = f"**{tr('turn.yours', lang)}**"
        if deadline is not None:
            line += " " + tr("turn.deadline", lang, when=stamp(deadline))
        blocks.append(line)
    else:
        blocks.append(tr("turn.of", lang, name=turn_name))
    if hand or not finished:  # after the match there is no next deal to wait for
        empty = tr("hand.empty_deck" if deck else "hand.empty", lang)
        mine = cards_names(hand, lang) if hand else empty
        blocks.append(f"**{tr('hand.cards', lang)}** {mine}")
    if note:
        blocks.append(note)
    away = away and not finished
    if away:
        blocks.append(tr("hand.away", lang))
    live = your_turn and not finished
    buttons = []
    for card in sorted(hand, key=Card.sort_key):
        takes = bool(choices and any(m.is_capture for m in choices.get(card, ())))
        style = Style.PRIMARY if live and takes else Style.SECONDARY
        buttons.append(
            Button(_label(card_name(card, lang)), Action.PLAY, str(card), style, not live)
        )
    rows = rows_of(buttons)
    if away:
        rows = (*rows, (Button(tr("btn.take_back", lang), Action.TAKE_BACK, "", Style.PRIMARY),))
    return Screen(tuple(blocks), rows, accent=BLUE if live else GREY)


HAND_FILE = f"hand.{FORMAT}"
"""The hand picture's file name: the same for everyone, it says nothing of the cards."""


class HandSketch(NamedTuple):
    """What the hand's picture shows, and nothing more: the cards in the order of the buttons
    and whether it is the seat's turn. Made from the seat's view where the view is (cheaply),
    it is the key of a picture drawn already and all that is sent to a drawing process (a
    view, with every play of the deal and the legal moves, would cost more to send than to
    draw)."""

    hand: tuple[Card, ...]
    my_turn: bool
    lang: str
    theme: Theme


def hand_sketch(view: GameView, lang: Lang, *, theme: Theme = Theme.DARK) -> HandSketch:
    return HandSketch(
        tuple(sorted(view.hand, key=Card.sort_key)), view.is_my_turn, str(lang), theme
    )


def hand_picture(view: GameView, lang: Lang, *, theme: Theme = Theme.DARK) -> Picture:
    """The seat's own hand as a picture, the cards in the order of the buttons (and of the
    text): the buttons are named by card, so the picture numbers nothing; the alt text names
    the cards in that order.

    Drawing takes a few milliseconds: call it off the event loop."""
    return sketched_hand(hand_sketch(view, lang, theme=theme))


def sketched_hand(sketch: HandSketch) -> Picture:
    """:func:`hand_picture` drawn from its sketch (in a drawing process)."""
    hand, my_turn, lang, theme = sketch
    return Picture(
        HAND_FILE,
        hand_image_of(hand, my_turn, theme=theme, lang=lang),
        hand_alt_text_of(hand, my_turn, lang=lang),
    )


def capture_screen(card: Card, moves: Sequence[Move], lang: Lang, *, title: str) -> Screen:
    """Ask which cards ``card`` takes: a button each, or a select when there are too many."""
    question = tr("capture.which", lang, card=card_the(card, lang))
    blocks = (f"## {title}", f"**{question}**")
    back = Button(tr("btn.back", lang), Action.HAND, style=Style.SECONDARY)
    if len(moves) <= MAX_CAPTURE_BUTTONS:
        buttons = [
            Button(_label(capture_name(m, lang)), Action.CAPTURE, str(m), Style.PRIMARY)
            for m in moves
        ]
        return Screen(blocks, (*rows_of(buttons), (back,)), accent=BLUE)
    options = tuple(Choice(_label(capture_name(m, lang)), Action.CAPTURE, str(m)) for m in moves)
    return Screen(
        blocks,
        ((back,),),
        choices=options[:25],
        choices_placeholder=tr("capture.placeholder", lang),
        accent=BLUE,
    )
