"""The fixed choices of the ``/scopa`` options, named in English and translated for Discord."""

from __future__ import annotations

from discord.app_commands import Choice
from discord.app_commands import locale_str as _

PRESETS = [
    Choice(name=_("Scopa"), value="scopa"),
    Choice(name=_("Scopone scientifico"), value="scopone_scientifico"),
    Choice(name=_("Scopone classico"), value="scopone_classico"),
]
LEVELS = [
    Choice(name=_(n), value=v)
    for n, v in [("easy", "greedy"), ("normal", "normal"), ("hard", "hard"), ("expert", "expert")]
]
PRIMIERA = [
    Choice(name=_("Classic"), value="classic"),
    Choice(name=_("By the number of sevens"), value="sevens"),
]
TIEBREAKS = [
    Choice(name=_("Another deal"), value="extra_deal"),
    Choice(name=_("Knock-out (spareggi)"), value="ko"),
]
PACES = [
    Choice(name=_("Live"), value="live"),
    Choice(name=_("Correspondence"), value="correspondence"),
]

# The rule options a table takes and a server may set as its defaults: one name and one
# description each, for /scopa new and /scopa settings alike.
RULE_OPTION_NAMES = {
    "target": _("target"),
    "deals": _("deals"),
    "asso_piglia_tutto": _("asso_piglia_tutto"),
    "napola": _("napola"),
    "re_bello": _("re_bello"),
}
RULE_OPTION_DESCRIPTIONS = {
    "target": _("Points to win (default 11)"),
    "deals": _("Play a fixed number of deals instead of to a target"),
    "asso_piglia_tutto": _("An ace takes the whole table"),
    "napola": _("A run of denari from the ace scores"),
    "re_bello": _("The king of coins is a point"),
}
