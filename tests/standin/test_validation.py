"""Every body the bot sends is checked; each broken rule is reported with the field's path."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import discord
import pytest
from discord.http import Route

from tests.standin import DiscordStandIn, SpecValidator, StandInViolation
from tests.standin.sample_bot import SampleBot
from tests.standin.validation import shared_spec_validator

V2 = 1 << 15


def button(custom_id: str, **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": custom_id, "custom_id": custom_id, **extra}


def row(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(children)}


SELECT = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}
TEXT = {"type": 10, "content": "testo"}

HAND_WRITTEN: dict[str, tuple[dict[str, Any], str]] = {
    "content over 2000": (
        {"content": "x" * 2001},
        "content: must be 2000 or fewer in length (got 2001)",
    ),
    "six action rows": (
        {"components": [row(button(f"b{i}")) for i in range(6)]},
        "components: 6 action rows; the limit is 5",
    ),
    "six buttons in a row": (
        {"components": [row(*(button(f"b{i}") for i in range(6)))]},
        "components[0].components: 6 components in one action row; the limit is 5",
    ),
    "select sharing a row": (
        {"components": [row(SELECT, button("b"))]},
        "components[0].components[0]: a select menu must be alone in its action row",
    ),
    "duplicate custom_id": (
        {"components": [row(button("a")), row(button("a"))]},
        "components[1].components[0].custom_id: duplicate custom_id 'a' "
        "(also at components[0].components[0].custom_id)",
    ),
    "embeds over 6000": (
        {"embeds": [{"description": "x" * 3500}, {"description": "y" * 3500}]},
        "embeds: embeds total 7000 characters; the limit is 6000",
    ),
    "content on a V2 message": (
        {"flags": V2, "content": "ciao", "components": [TEXT]},
        "content: cannot be used with IS_COMPONENTS_V2",
    ),
    "41 V2 components": (
        {"flags": V2, "components": [{"type": 17, "components": [TEXT] * 40}]},
        "components: 41 components in all; a Components V2 message allows 40",
    ),
    "V2 text displays over 4000": (
        {
            "flags": V2,
            "components": [
                {"type": 10, "content": "x" * 2001},
                {"type": 17, "components": [{"type": 10, "content": "y" * 2000}]},
            ],
        },
        "components: text displays total 4001 characters; a Components V2 message allows 4000",
    ),
    "V2 component without the flag": (
        {"components": [{"type": 17, "components": [TEXT]}]},
        "components[0]: component type 17 at top level needs the IS_COMPONENTS_V2 flag",
    ),
}

SPEC: dict[str, tuple[dict[str, Any], str]] = {
    "custom_id over 100": (
        {"components": [row(button("c" * 101))]},
        "components[0].components[0].custom_id: must be at most 100 characters long (got 101)",
    ),
    "unknown button style": (
        {"components": [row(button("b", style=9))]},
        "components[0].components[0].style: 9 is not one of [1, 2, 3, 4, 5, 6]",
    ),
    "text display without text": (
        {"flags": V2, "components": [{"type": 17, "components": [{"type": 10, "content": 5}]}]},
        "components[0].components[0].content: 5 is not of type 'string'",
    ),
    "unknown component type": (
        {"components": [row({"type": 99, "custom_id": "z"})]},
        "components[0].components[0].type: 99 is not one of",
    ),
}


async def _send_and_collect(
    standin: DiscordStandIn, bot: SampleBot, body: dict[str, Any]
) -> tuple[discord.HTTPException, list[str]]:
    with pytest.raises(discord.HTTPException) as caught:
        await bot.raw_send(standin.channel("tavolo").id, body)
    return caught.value, [str(v) for v in standin.take_violations()]


@pytest.mark.parametrize("case", list(HAND_WRITTEN), ids=list(HAND_WRITTEN))
async def test_hand_written_limits(
    standin: DiscordStandIn, sample_bot: SampleBot, case: str
) -> None:
    body, expected = HAND_WRITTEN[case]
    error, found = await _send_and_collect(standin, sample_bot, body)
    assert error.status == 400 and error.code == 50035
    assert any(expected in v for v in found), found
    assert standin.timeline("tavolo", as_user="alice") == []


@pytest.mark.parametrize("case", list(SPEC), ids=list(SPEC))
async def test_openapi_spec_checks(
    standin: DiscordStandIn, sample_bot: SampleBot, case: str
) -> None:
    if not standin.spec.available:
        pytest.skip(standin.spec.skip_reason or "spec unavailable")
    body, expected = SPEC[case]
    error, found = await _send_and_collect(standin, sample_bot, body)
    assert error.code == 50035
    assert any(v.startswith("[spec]") and expected in v for v in found), found


async def test_discord_style_error_tree_reaches_discord_py(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    error, _ = await _send_and_collect(standin, sample_bot, {"content": "x" * 2001})
    assert "In content: must be 2000 or fewer in length" in str(error)


async def test_a_violation_in_a_reply_fails_the_users_action(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    with pytest.raises(StandInViolation, match=r"data\.content: must be .*2000.*\(got 2001\)"):
        await standin.user("alice").slash("echo", text="x" * 2001)


async def test_well_formed_messages_pass(standin: DiscordStandIn, sample_bot: SampleBot) -> None:
    five_rows = [row(*(button(f"b{r}{c}") for c in range(5))) for r in range(5)]
    await sample_bot.raw_send(
        standin.channel("tavolo").id, {"content": "x" * 2000, "components": five_rows}
    )
    result = await standin.user("alice").slash("board")
    assert result.message is not None and result.message.is_v2
    assert "Tavolo: 1♦ 5♣" in result.message.text()
    assert standin.violations == []


def test_missing_spec_is_reported_and_hand_checks_remain(tmp_path: Path) -> None:
    validator = SpecValidator(tmp_path / "openapi.json")
    assert not validator.available
    assert str(tmp_path) in (validator.skip_reason or "")
    assert validator.check("POST", "/channels/{channel_id}/messages", {"content": 5}) == []


async def test_stand_in_without_spec_still_checks_limits(tmp_path: Path) -> None:
    with pytest.warns(UserWarning, match="spec not found"):
        standin = DiscordStandIn(spec=SpecValidator(tmp_path / "missing.json"))
    async with standin, standin.connected(SampleBot()) as bot:
        channel_id = standin.channel("tavolo").id
        with pytest.raises(discord.HTTPException):
            await bot.raw_send(channel_id, {"content": "x" * 2001})
        await bot.raw_send(channel_id, SPEC["custom_id over 100"][0])  # only the spec knows
        found = [str(v) for v in standin.take_violations()]
    assert len(found) == 1 and found[0].startswith("[limit]")


def test_a_missing_spec_is_said_once_not_once_per_stand_in(tmp_path: Path) -> None:
    """Every test's fixture makes a stand-in on the one shared validator: a test run without
    the spec gets one warning, not one per fixture."""
    validator = SpecValidator(tmp_path / "missing.json")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            DiscordStandIn(spec=validator)
    assert [str(w.message)[:30] for w in caught] == ["Discord OpenAPI spec not found"]


def test_the_spec_is_loaded_once() -> None:
    assert shared_spec_validator() is shared_spec_validator()


async def test_the_v2_flag_cannot_be_removed(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    channel_id = standin.channel("tavolo").id
    sent = await sample_bot.raw_send(channel_id, {"flags": V2, "components": [TEXT]})
    route = Route(
        "PATCH",
        "/channels/{channel_id}/messages/{message_id}",
        channel_id=channel_id,
        message_id=int(sent["id"]),
    )
    with pytest.raises(discord.HTTPException):
        await sample_bot.http.request(route, json={"flags": 0, "content": "ciao"})
    found = [str(v) for v in standin.take_violations()]
    assert any("flags: IS_COMPONENTS_V2 (1<<15) cannot be removed" in v for v in found), found
    await sample_bot.http.request(route, json={"components": [{"type": 10, "content": "ok"}]})
    [message] = standin.timeline("tavolo", as_user="bob")
    assert message.is_v2 and message.text() == "ok"


async def test_a_classic_reply_to_a_button_on_a_v2_message_is_fine(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    board = (await standin.user("alice").slash("board")).message
    assert board is not None and board.is_v2
    taken = await standin.user("bob").click(board, "Prendi")
    assert taken.message is not None and taken.message.content == "preso"
    assert not taken.message.is_v2
