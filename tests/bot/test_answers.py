"""How a played card is answered: at once from the move's outcome, the picture after it when it
is late, and a deferral that never collides with the answer.

These drive ``actions`` directly with stand-ins for the interaction and for the bot's other
parts, so that the order of the answers is decided by events rather than by the clock.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from scopabot.bot import actions
from scopabot.render.i18n import Lang
from scopabot.service import MoveOutcome


class Response:
    def __init__(self, interaction: Interaction) -> None:
        self.interaction = interaction
        self.kind: str | None = None
        self.sending: str | None = None  # a first answer on its way

    def is_done(self) -> bool:
        return self.kind is not None

    async def _first(self, kind: str, **kwargs: Any) -> None:
        if self.kind is not None:
            raise AssertionError(f"answered twice: {self.kind} then {kind} (Discord: 40060)")
        self.sending = kind
        for _ in range(5):  # the request is on its way: others run meanwhile
            await asyncio.sleep(0)
        self.kind = kind
        self.interaction.sent.append((kind, kwargs))

    async def edit_message(self, **kwargs: Any) -> None:
        await self._first("update", **kwargs)

    async def defer(self, **kwargs: Any) -> None:
        await self._first("defer", **kwargs)

    async def send_message(self, **kwargs: Any) -> None:
        await self._first("message", **kwargs)


class Interaction:
    def __init__(self) -> None:
        self.extras: dict[Any, Any] = {}
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.response = Response(self)
        self.user = SimpleNamespace(id=7)

    async def edit_original_response(self, **kwargs: Any) -> None:
        assert self.response.is_done(), "an edit of the answer before any answer"
        self.sent.append(("edit", kwargs))


class Delivery:
    """``hand_view`` as the bot has it: the text at once, the picture when ``drawn`` is set."""

    def __init__(self) -> None:
        self.drawn = asyncio.Event()
        self.views: list[Any] = []

    async def hand_view(
        self, game_id: int, user_id: int, lang: Lang, *, pictures: bool = True, **kwargs: Any
    ) -> tuple[str, list[str], int]:
        assert kwargs["seat_view"] is SEAT_VIEW  # nothing read back
        if pictures:
            await self.drawn.wait()
            return "hand with picture", ["hand.png"], 5
        return "hand", [], 5

    async def hand_as_now(
        self, game_id: int, user_id: int, lang: Lang, drawn: Any, **kwargs: Any
    ) -> Any:
        return drawn  # one process: no other moves the game while its hand is drawn


def acting(delivery: Delivery) -> actions.Actions:
    service = SimpleNamespace()
    # One process runs every shard: it shows every table itself (no answer to bring up).
    bot = SimpleNamespace(service=service, delivery=delivery, owns=lambda guild_id: True)
    return actions.Actions(bot)


SEAT_VIEW = SimpleNamespace(table=SimpleNamespace(guild_id=1))  # the seat view of the outcome
OUTCOME = MoveOutcome(5, (), SEAT_VIEW)  # type: ignore[arg-type]


async def test_a_hand_whose_picture_is_ready_is_one_answer() -> None:
    delivery = Delivery()
    delivery.drawn.set()
    interaction = Interaction()
    shown = await acting(delivery).answer_played(
        interaction,  # type: ignore[arg-type]
        1,
        OUTCOME,
        Lang.IT,
        None,
        "",
    )
    assert shown == 5
    assert interaction.sent == [
        ("update", {"view": "hand with picture", "attachments": ["hand.png"]})
    ]


async def test_a_late_picture_follows_the_answer_it_does_not_hold_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(actions, "ANSWER_WITHIN", 0.0)
    delivery = Delivery()
    interaction = Interaction()

    async def draw_once_answered() -> None:
        while not interaction.sent:
            await asyncio.sleep(0)
        delivery.drawn.set()

    drawer = asyncio.create_task(draw_once_answered())
    shown = await acting(delivery).answer_played(
        interaction,  # type: ignore[arg-type]
        1,
        OUTCOME,
        Lang.IT,
        None,
        "",
    )
    await drawer
    assert shown == 5
    assert interaction.sent == [
        ("update", {"view": "hand", "attachments": []}),  # the old hand's picture goes
        ("edit", {"view": "hand with picture", "attachments": ["hand.png"]}),
    ]


async def test_a_deferral_near_the_deadline_and_the_answer_take_turns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The work finishes while the deferral is on its way: its answer becomes an edit."""
    monkeypatch.setattr(actions, "DEFER_AFTER", 0.0)
    interaction = Interaction()
    finish = asyncio.Event()

    async def work() -> str:
        await finish.wait()
        await actions.edit_clicked(interaction, "answer")  # type: ignore[arg-type]
        return "done"

    async def finish_while_deferring() -> None:
        while interaction.response.sending != "defer":
            await asyncio.sleep(0)
        finish.set()

    helper = asyncio.create_task(finish_while_deferring())
    assert await actions.within(interaction, work(), update=True) == "done"  # type: ignore[arg-type]
    await helper
    assert [kind for kind, _ in interaction.sent] == ["defer", "edit"]
