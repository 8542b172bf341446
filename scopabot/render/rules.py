"""A table's options in plain words, for the invitation and ``/scopa rules``.

>>> from scopabot.engine import Rules
>>> rules_lines(Rules(napola=True), Lang.EN)[:2]
['Scopa, 2 players', 'Match to 11 points']
"""

from __future__ import annotations

from scopabot.engine import PrimieraRule, Rules, Tiebreak

from .i18n import Lang, tr


def preset_name(rules: Rules, lang: Lang) -> str:
    return tr(f"preset.{rules.preset.value}", lang)


def rules_lines(rules: Rules, lang: Lang) -> list[str]:
    lines = [tr("rules.players", lang, preset=preset_name(rules, lang), players=rules.players)]
    if rules.target is not None:
        lines.append(tr("rules.target", lang, target=rules.target))
    else:
        lines.append(tr("rules.deals", lang, deals=rules.deals))
    for option in ("asso_piglia_tutto", "napola", "re_bello"):
        if getattr(rules, option):
            lines.append(tr(f"rules.{option}", lang))
    if rules.primiera is PrimieraRule.SEVENS:
        lines.append(tr("rules.primiera_sevens", lang))
    lines.append(
        tr("rules.tiebreak_ko", lang)
        if rules.tiebreak is Tiebreak.KO
        else tr("rules.tiebreak_extra", lang)
    )
    return lines
