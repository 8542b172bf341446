"""A service refusal in words, from its code and data alone.

The service says why it refused (an error code, the engine's ``IllegalReason`` or
``RulesProblem``, the cards in notation); this writes the sentence in the reader's language,
with every card named in words. Its English message is for logs only and never shown.

>>> move = {"reason": "must_capture", "card": "6b", "options": [["1d", "5s"]]}
>>> refusal_text("illegal_move", move, Lang.IT)
"Mossa non consentita: il 6 di bastoni deve prendere l'asso di denari e il 5 di spade."
>>> refusal_text("bad_option", {"problem": "pairs", "option": "players"}, Lang.EN)
'That option is not possible: scopone is played by 4 players in two pairs.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scopabot.engine import MAX_DEALS, MAX_TARGET, Card, CardParseError

from .cards import card_the, cards_the
from .catalog import CATALOG
from .i18n import Lang, tr


def _card(text: object, lang: Lang) -> str:
    """The card mid-sentence ("il 6 di bastoni"); text that is no card is shown as it is."""
    try:
        return card_the(Card.parse(str(text)), lang)
    except CardParseError:
        return str(text)


def _cards(texts: Sequence[object], lang: Lang) -> str:
    """One capture's cards ("l'asso di denari e il 5 di spade")."""
    try:
        return cards_the([Card.parse(str(t)) for t in texts], lang)
    except CardParseError:
        return " + ".join(str(t) for t in texts)


def illegal_text(params: Mapping[str, Any], lang: Lang) -> str:
    """Why the rules refuse a move ("il 7 di bastoni deve prendere il 7 di denari oppure il 7
    di coppe.").

    Only the played card and the captures it may make are named: a card the player named but
    does not hold (``card`` of ``not_in_hand``) or a capture not on the table (``missing``) may
    be in someone else's hand, and no sentence names a card of another's hand."""
    reason = str(params.get("reason", ""))
    card = _card(params.get("card", ""), lang)
    options = [list(o) for o in params.get("options") or ()]
    if reason == "wrong_sum" and not options:
        return tr("illegal.wrong_sum.none", lang, card=card)
    if f"illegal.{reason}" not in CATALOG:
        return tr("illegal.unknown", lang)
    either = tr("illegal.or", lang).join(_cards(o, lang) for o in options)
    return tr(f"illegal.{reason}", lang, card=card, options=either)


def option_text(params: Mapping[str, Any], lang: Lang) -> str:
    """Why options cannot make a table ("lo scopone si gioca in 4, a coppie.")."""
    problem = str(params.get("problem", "bad_choice"))
    key = f"option.{problem}" if f"option.{problem}" in CATALOG else "option.bad_choice"
    limit = MAX_DEALS if problem == "deals" else MAX_TARGET
    return tr(
        key,
        lang,
        option=params.get("option", ""),
        value=params.get("value", ""),
        max=limit,
    )


def refusal_text(code: str, params: Mapping[str, Any], lang: Lang) -> str:
    """The sentence for the service's refusal ``code`` with its ``params``."""
    if code == "illegal_move":
        return tr("err.illegal_move", lang, message=illegal_text(params, lang))
    if code == "bad_option":
        return tr("err.bad_option", lang, message=option_text(params, lang))
    if code == "bad_sheet":
        reason = str(params.get("reason", ""))
        key = f"sheet.bad.{reason}" if f"sheet.bad.{reason}" in CATALOG else "sheet.bad.other"
        return tr("err.bad_sheet", lang, message=tr(key, lang, max=params.get("max", "")))
    plain = {k: v for k, v in params.items() if isinstance(v, (str, int, float))}
    try:
        return tr(f"err.{code}", lang, **plain)
    except (KeyError, IndexError):  # a sentence whose placeholder the refusal did not fill
        return tr(f"err.{code}", lang).split("{")[0].rstrip(": ")
