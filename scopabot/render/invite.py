"""The invitation: a table gathering players, with Join, Leave, Add computer, Start, Cancel."""

from __future__ import annotations

from collections.abc import Mapping

from scopabot.engine import Rules

from .i18n import Lang, tr
from .rules import preset_name, rules_lines
from .screens import GOLD, GREY, Action, Button, Screen, Style


def pace_text(kind: str, seconds: int | None, lang: Lang) -> str:
    if seconds is None:
        return tr("pace.untimed", lang)
    if kind == "correspondence":
        return tr("pace.correspondence", lang, hours=round(seconds / 3600, 1))
    return tr("pace.live", lang, seconds=seconds)


def invite_screen(
    rules: Rules,
    seats: Mapping[int, str],
    lang: Lang,
    *,
    table_id: int,
    host: str,
    pace: str,
    level: str,
    note: str = "",
) -> Screen:
    """``seats`` maps each taken seat to its holder's name; empty seats are listed as open."""
    head = f"## {preset_name(rules, lang)} · {tr('table.number', lang, id=table_id)}"
    blocks = [head + "\n" + tr("invite.host", lang, host=host)]
    blocks.append("\n".join(f"- {line}" for line in [*rules_lines(rules, lang), pace]))
    lines = []
    for seat in range(rules.players):
        who = seats.get(seat, f"*{tr('invite.open_seat', lang)}*")
        if rules.players == 4:
            side = tr("side.name", lang, side="AB"[rules.side_of(seat)])
            lines.append(f"{tr('invite.seat', lang, seat=seat + 1)} ({side}): {who}")
        else:
            lines.append(f"{tr('invite.seat', lang, seat=seat + 1)}: {who}")
    blocks.append("\n".join(lines))
    blocks.append(tr("invite.level", lang, level=tr(f"level.{level}", lang)))
    if note:
        blocks.append(note)
    full = len(seats) >= rules.players
    if rules.players == 4:
        joins = [
            Button(
                tr("btn.join_side", lang, side="AB"[side]),
                Action.JOIN,
                str(side),
                Style.SUCCESS,
                full,
            )
            for side in (0, 1)
        ]
    else:
        joins = [Button(tr("btn.join", lang), Action.JOIN, "", Style.SUCCESS, full)]
    row = (
        *joins,
        Button(tr("btn.leave", lang), Action.LEAVE),
        Button(tr("btn.add_computer", lang), Action.ADD_COMPUTER, disabled=full),
    )
    control = (
        Button(tr("btn.start", lang), Action.START, style=Style.PRIMARY, disabled=not full),
        Button(tr("btn.cancel", lang), Action.CANCEL, style=Style.DANGER),
    )
    return Screen(tuple(blocks), (row, control), accent=GOLD)


def closed_screen(rules: Rules, lang: Lang, *, table_id: int, reason: str) -> Screen:
    head = f"## {preset_name(rules, lang)} · {tr('table.number', lang, id=table_id)}"
    return Screen((head, tr(f"closed.{reason}", lang)), accent=GREY)
