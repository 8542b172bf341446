"""A table's options in plain words, for the invitation and ``/scopa rules``.

>>> from scopabot.engine import Rules
>>> rules_lines(Rules(napola=True), Lang.EN)[:2]
['Scopa, 2 players', 'Match to 11 points']
"""

from __future__ import annotations

from scopabot.engine import PrimieraRule, Rules, Tiebreak

from .i18n import Lang, tr, trn


def preset_name(rules: Rules, lang: Lang) -> str:
    return tr(f"preset.{rules.preset.value}", lang)


def rules_lines(rules: Rules, lang: Lang) -> list[str]:
    lines = [tr("rules.players", lang, preset=preset_name(rules, lang), players=rules.players)]
    if rules.target is not None:
        lines.append(trn("rules.target", rules.target, lang, target=rules.target))
    else:
        lines.append(trn("rules.deals", rules.deals or 0, lang, deals=rules.deals))
    for option in ("asso_piglia_tutto", "napola", "re_bello"):
        if getattr(rules, option):
            lines.append(tr(f"rules.{option}", lang))
    if rules.primiera is PrimieraRule.SEVENS:
        lines.append(tr("rules.primiera_sevens", lang))
    lines.append(tiebreak_text(rules, lang))
    return lines


def tiebreak_text(rules: Rules, lang: Lang) -> str:
    """What a tie does (docs/rulebook.md "Ending the match"): a tie at the target, or after the last
    of a fixed number of deals, is broken by another deal, or in a knock-out by up to three
    spareggi (the last capture decides only after a third tied one)."""
    tie = tr("rules.tie_target" if rules.target is not None else "rules.tie_deals", lang)
    key = "rules.tiebreak_ko" if rules.tiebreak is Tiebreak.KO else "rules.tiebreak_extra"
    return tr(key, lang, tie=tie)
