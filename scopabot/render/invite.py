"""The invitation: a table gathering players, with Join, Leave, Add computer, Start, Cancel."""

from __future__ import annotations

from collections.abc import Mapping

from scopabot.engine import Rules

from .i18n import Lang, tr, trn
from .rules import preset_name, rules_lines
from .screens import GOLD, GREY, Action, Button, Screen, Style


def duration_text(seconds: int, lang: Lang) -> str:
    """A turn's time as people say it: "45 s", "2 min", "1 min 30 s", "5 ore", "1 giorno",
    "1,5 ore" (Italian writes a comma in a decimal number)."""
    if seconds < 60:
        return tr("time.seconds", lang, n=seconds)
    if seconds < 3600:
        minutes, rest = divmod(seconds, 60)
        if rest:
            return tr("time.minutes_seconds", lang, m=minutes, s=rest)
        return tr("time.minutes", lang, n=minutes)
    if seconds % 86400 == 0:
        days = seconds // 86400
        return trn("time.days", days, lang, n=days)
    hours = round(seconds / 3600, 1)
    if hours == int(hours):
        return trn("time.hours", int(hours), lang, n=int(hours))
    number = f"{hours:.1f}".replace(".", "," if lang is Lang.IT else ".")
    return tr("time.hours", lang, n=number)


def pace_text(kind: str, seconds: int | None, lang: Lang) -> str:
    if seconds is None:
        return tr("pace.untimed", lang)
    key = "pace.correspondence" if kind == "correspondence" else "pace.live"
    return tr(key, lang, time=duration_text(seconds, lang))


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
    full = len(seats) >= rules.players
    if not full:  # what Add computer seats; once seated, a computer is named by its seat
        blocks.append(tr("invite.level", lang, level=tr(f"level.{level}", lang)))
    if note:
        blocks.append(note)
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
