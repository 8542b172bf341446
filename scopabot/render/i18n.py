"""Which language a message is written in, and the lookup of a sentence in the catalog.

Replies follow the person's language (their stored choice, else their Discord client's),
public messages the server's. The language of the message being built sits in a
``ContextVar`` (as Red-DiscordBot does), so deep helpers need not pass it along; every public
function also takes it explicitly, which is what the bot does when one event is written in
several languages at once.

>>> tr("turn.yours", Lang.IT)
'Tocca a te'
>>> tr("turn.of", Lang.EN, name="Giulia")
"Giulia's turn"
>>> lang_of("en-US"), lang_of("it"), lang_of(None)
(<Lang.EN: 'en'>, <Lang.IT: 'it'>, <Lang.EN: 'en'>)
"""

from __future__ import annotations

from contextvars import ContextVar
from enum import StrEnum
from typing import Any


class Lang(StrEnum):
    EN = "en"
    IT = "it"


DEFAULT_LANG = Lang.EN
current_lang: ContextVar[Lang] = ContextVar("current_lang", default=DEFAULT_LANG)


def lang_of(locale: str | None) -> Lang:
    """Discord locales (``it``, ``en-US``, ``en-GB``...) reduced to a language we speak."""
    if locale and locale.lower().startswith("it"):
        return Lang.IT
    return Lang.EN


def tr(key: str, lang: Lang | None = None, /, **params: Any) -> str:
    """The sentence ``key`` in ``lang`` (default: the current one), with ``params`` filled in.

    A key missing from the catalog is a programming error and shows as itself, so a test that
    reads the message sees it rather than a crash in front of a player.
    """
    from .catalog import CATALOG

    entry = CATALOG.get(key)
    if entry is None:
        return key
    text = entry[1] if (lang or current_lang.get()) is Lang.IT else entry[0]
    return text.format(**params) if params else text
