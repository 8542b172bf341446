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
>>> tr("turn.of", Lang.IT, name="alice"), tr("turn.of", Lang.IT, name="Marco")
('Tocca ad alice', 'Tocca a Marco')
>>> lang_of("en-US"), lang_of("it"), lang_of(None)
(<Lang.EN: 'en'>, <Lang.IT: 'it'>, <Lang.EN: 'en'>)
>>> [trn("rules.target", n, Lang.IT, target=n) for n in (1, 11, 21)]
['Partita a 1 punto', 'Partita agli 11 punti', 'Partita ai 21 punti']
"""

from __future__ import annotations

import re
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
    italian = (lang or current_lang.get()) is Lang.IT
    text = entry[1] if italian else entry[0]
    if italian and params:
        text = with_ad(text, params)
    return text.format(**params) if params else text


_AD = re.compile(r"(?<![\w'])a \{(\w+)\}")


def with_ad(template: str, params: dict[str, Any]) -> str:
    """An Italian template with "a {name}" made "ad {name}" where the name starts with an a."""
    return _AD.sub(lambda m: _a_or_ad(m, params), template)


def _a_or_ad(match: re.Match[str], params: dict[str, Any]) -> str:
    """Italian writes "ad" for "a" before a word that starts with an a ("tocca ad alice", "vanno
    ad Anna"), "a" before anything else, a mention included (Discord shows the name)."""
    value = str(params.get(match.group(1), "")).lstrip("*_")
    return ("ad " if value[:1] in ("a", "A") else "a ") + "{" + match.group(1) + "}"


def elides(n: int) -> bool:
    """Whether an Italian number is read starting with a vowel (uno, otto, undici, ottanta…),
    which takes "gli"/"agli" before it rather than "i"/"ai": "agli 11 punti", "ai 21 punti"."""
    return n in (1, 8, 11) or 80 <= n <= 89


def number_key(key: str, n: int, lang: Lang | None = None) -> str:
    """The catalog key for a sentence about ``n`` things.

    English and Italian share one plural rule (CLDR: "one" for exactly 1, else "other"), so
    a sentence has its plural under ``key`` and may have its singular under ``key.one``;
    Italian's article before a number read with a vowel first lives under ``key.vowel``.
    """
    from .catalog import CATALOG

    if n == 1 and f"{key}.one" in CATALOG:
        return f"{key}.one"
    if (lang or current_lang.get()) is Lang.IT and elides(n) and f"{key}.vowel" in CATALOG:
        return f"{key}.vowel"
    return key


def trn(key: str, n: int, lang: Lang | None = None, /, **params: Any) -> str:
    """The sentence ``key`` about ``n`` things: "1 partita", "2 partite", "agli 11 punti"."""
    return tr(number_key(key, n, lang), lang, **params)
