"""Plain-text pictures of what a seat may see: hands, table, plays, score breakdowns.

The terminal game prints these, and chat messages can reuse them; they take a
:class:`~scopabot.engine.GameView` or public results, never the secret game.
"""

from __future__ import annotations

from collections.abc import Sequence

from scopabot.engine import Card, DealScore, GameView, Move, Outcome, OutcomeReason, Play, Suit

SPECIAL_NAMES = {"7d": "settebello", "10d": "re bello"}


def card_text(card: Card, *, named: bool = False) -> str:
    """``7d``, or with ``named`` the Italian name too: ``7d (settebello)``."""
    if not named:
        return str(card)
    return f"{card} ({SPECIAL_NAMES.get(str(card), card.italian)})"


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards) if cards else "(empty)"


def capture_text(move: Move) -> str:
    return "+".join(str(c) for c in move.sorted_capture())


def play_text(play: Play, name: str, *, you: bool = False) -> str:
    """One line saying what a player did, as the others saw it (``you`` for the reader)."""
    plays, takes = ("play", "take") if you else ("plays", "takes")
    if not play.capture:
        return f"{name} {plays} {play.card}."
    taken = "+".join(str(c) for c in sorted(play.capture, key=Card.sort_key))
    line = f"{name} {plays} {play.card} and {takes} {taken}."
    return line + " SCOPA!" if play.scopa else line


def standings_text(totals: Sequence[int], side_names: Sequence[str], *, target: int | None) -> str:
    """The match score, with how many points each side still needs when playing to a target."""
    parts = []
    for name, total in zip(side_names, totals, strict=True):
        if target is not None:
            needs = target - total
            parts.append(f"{name} {total} (needs {needs})" if needs > 0 else f"{name} {total}")
        else:
            parts.append(f"{name} {total}")
    goal = f"to {target}" if target is not None else "fixed number of deals"
    return f"Score [{goal}]: " + " · ".join(parts)


BREAKDOWN_ROWS = (
    ("Carte", "carte", "cards"),
    ("Denari", "denari", "denari_count"),
    ("Settebello", "settebello", None),
    ("Primiera", "primiera", "primiera_total"),
    ("Scope", "scope", None),
    ("Re bello", "re_bello", None),
    ("Napola", "napola", None),
)


def breakdown_text(score: DealScore, side_names: Sequence[str], *, options: set[str]) -> str:
    """The per-side points of one deal as a small table (counts in brackets)."""
    width = max(12, *(len(n) + 2 for n in side_names))
    lines = [f"Deal {score.deal}".ljust(12) + "".join(n.rjust(width) for n in side_names)]
    for label, attr, count in BREAKDOWN_ROWS:
        if attr in ("re_bello", "napola") and attr not in options:
            continue
        row = label.ljust(12)
        for side in score.sides:
            points = getattr(side, attr)
            cell = str(points)
            if count is not None:
                raw = getattr(side, count)
                cell = f"{points} ({'-' if raw is None else raw})"
            row += cell.rjust(width)
        lines.append(row)
    lines.append("Total".ljust(12) + "".join(str(s.total).rjust(width) for s in score.sides))
    return "\n".join(lines)


def outcome_text(outcome: Outcome, side_names: Sequence[str]) -> str:
    """Who won and how, the winner's points first, as a score is said: "(11 – 7)"."""
    order = list(outcome.totals)
    if outcome.winner is not None:
        order.insert(0, order.pop(outcome.winner))
    totals = " – ".join(str(t) for t in order)
    if outcome.winner is None:
        return f"The match ends undecided after {_count(outcome.deals, 'deal')} ({totals})."
    why = {
        OutcomeReason.TARGET: "reaching the target",
        OutcomeReason.DEALS: "after the last deal",
        OutcomeReason.NAPOLA_REALE: "with all ten denari (napola to the re)",
        OutcomeReason.SPAREGGIO: "in the spareggio",
        OutcomeReason.LAST_CAPTURE_LOSES: "as the other side made the last capture",
        OutcomeReason.UNDECIDED: "",
    }[outcome.reason]
    return f"Match won by {side_names[outcome.winner]}, {why} ({totals})."


def table_text(view: GameView) -> str:
    return "Table: " + cards_text(view.felt)


def hand_text(view: GameView) -> str:
    """The hand numbered for typing; the settebello named, the re bello only when it scores."""
    named = {"7d", "10d"} if view.rules.re_bello else {"7d"}
    return "Your hand: " + "  ".join(
        f"{i}) {card_text(c, named=str(c) in named)}" for i, c in enumerate(view.hand, 1)
    )


def running_count_text(view: GameView, side_names: Sequence[str]) -> str:
    """What each side has taken so far this deal — cards, denari, scope, the settebello — as
    a player counts them in their head while playing; everyone saw these captures."""
    parts = []
    for side, name in enumerate(side_names):
        taken = view.captured[side] if side < len(view.captured) else ()
        denari = sum(1 for c in taken if c.suit is Suit.DENARI)
        scope = view.scope[side] if side < len(view.scope) else 0
        coins = "1 denaro" if denari == 1 else f"{denari} denari"
        said = f"{name} {_count(len(taken), 'card')}, {coins}, "
        said += "1 scopa" if scope == 1 else f"{scope} scope"
        if Card(7, Suit.DENARI) in taken:
            said += ", the settebello"
        parts.append(said)
    return "Taken this deal: " + " · ".join(parts)


def _count(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"
