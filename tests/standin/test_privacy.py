"""The privacy guard reads every string a client receives, drawn on screen or not."""

from __future__ import annotations

import datetime
import io
import json
from typing import Any

import discord
import pytest

from tests.standin import DiscordStandIn
from tests.standin.sample_bot import SampleBot

SECRET = "settebello"
V2 = 1 << 15


def row(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(children)}


def select(**option: Any) -> dict[str, Any]:
    return {"type": 3, "custom_id": "s", "options": [{"label": "Carta", "value": "c", **option}]}


def button(**extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "Gioca", "custom_id": "b", **extra}


PICTURE = {"url": "https://example.com/tavolo.png"}

# body sent to #tavolo, and the path of the field where the guard must find the secret
LEAKS: dict[str, tuple[dict[str, Any], str]] = {
    "content": ({"content": f"ho il {SECRET}"}, "content"),
    "select option value": (
        {"components": [row(select(value=SECRET))]},
        "components[0].components[0].options[0].value",
    ),
    "select option description": (
        {"components": [row(select(description=SECRET))]},
        "components[0].components[0].options[0].description",
    ),
    "select placeholder": (
        {"components": [row({**select(), "placeholder": SECRET})]},
        "components[0].components[0].placeholder",
    ),
    "button custom_id": (
        {"components": [row(button(custom_id=f"play:{SECRET}"))]},
        "components[0].components[0].custom_id",
    ),
    "link button url": (
        {
            "components": [
                row({"type": 2, "style": 5, "label": "?", "url": f"https://x.it/{SECRET}"})
            ]
        },
        "components[0].components[0].url",
    ),
    "embed field": (
        {"embeds": [{"title": "Mano", "fields": [{"name": "carte", "value": SECRET}]}]},
        "embeds[0].fields[0].value",
    ),
    "embed footer": (
        {"embeds": [{"title": "Mano", "footer": {"text": SECRET}}]},
        "embeds[0].footer.text",
    ),
    "embed image url": (
        {"embeds": [{"title": "Mano", "image": {"url": f"attachment://{SECRET}.png"}}]},
        "embeds[0].image.url",
    ),
    "V2 text display": (
        {
            "flags": V2,
            "components": [{"type": 17, "components": [{"type": 10, "content": SECRET}]}],
        },
        "components[0].components[0].content",
    ),
    "V2 thumbnail alt text": (
        {
            "flags": V2,
            "components": [
                {
                    "type": 9,
                    "components": [{"type": 10, "content": "Tavolo"}],
                    "accessory": {"type": 11, "media": PICTURE, "description": SECRET},
                }
            ],
        },
        "components[0].accessory.description",
    ),
    "V2 gallery alt text": (
        {
            "flags": V2,
            "components": [{"type": 12, "items": [{"media": PICTURE, "description": SECRET}]}],
        },
        "components[0].items[0].description",
    ),
}


@pytest.mark.parametrize("case", list(LEAKS), ids=list(LEAKS))
async def test_a_secret_anywhere_in_a_public_message_is_a_leak(
    standin: DiscordStandIn, sample_bot: SampleBot, case: str
) -> None:
    body, field = LEAKS[case]
    standin.privacy.set_secrets(standin.world.user_named("alice"), [SECRET])
    async with standin.expect_violation("privacy") as leak:
        await sample_bot.raw_send(standin.channel("tavolo").id, body)
    [found] = leak.caught
    assert found.path == field
    assert f"reveals alice's secret {SECRET!r} to bob, carol, dave (in {field})" in str(found)


@pytest.mark.parametrize(
    ("filename", "description", "field"),
    [
        (f"{SECRET}.png", None, "attachments[0].filename"),
        ("carta.png", f"il {SECRET}", "attachments[0].description"),
    ],
)
async def test_attachment_names_and_descriptions_are_read(
    standin: DiscordStandIn,
    sample_bot: SampleBot,
    filename: str,
    description: str | None,
    field: str,
) -> None:
    standin.privacy.set_secrets(standin.world.user_named("alice"), [SECRET])
    channel = sample_bot.get_channel(standin.channel("tavolo").id)
    picture = discord.File(io.BytesIO(b"\x89PNG"), filename=filename, description=description)
    async with standin.expect_violation("privacy") as leak:
        sent = await channel.send(file=picture)  # type: ignore[union-attr]
    assert [leak.path for leak in leak.caught] == [field]
    assert sent.attachments[0].filename == filename
    assert sent.attachments[0].description == description


async def test_a_poll_is_read_and_comes_back_to_discord_py(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    standin.privacy.set_secrets(standin.world.user_named("alice"), [SECRET])
    channel = sample_bot.get_channel(standin.channel("tavolo").id)
    poll = discord.Poll(question="Chi ha la carta?", duration=datetime.timedelta(hours=1))
    poll.add_answer(text="bob").add_answer(text=SECRET)
    async with standin.expect_violation("privacy") as leak:
        sent = await channel.send(poll=poll)  # type: ignore[union-attr]
    assert [leak.path for leak in leak.caught] == ["poll.answers[1].poll_media.text"]
    assert sent.poll is not None and [a.text for a in sent.poll.answers] == ["bob", SECRET]


async def test_a_modal_showing_someone_elses_secret_is_a_leak(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    alice, bob = standin.user("alice"), standin.user("bob")
    standin.privacy.set_secrets(bob.user, ["Commento"])  # the label of the modal's text input
    async with standin.expect_violation("privacy") as leak:
        await alice.slash("feedback")
    [found] = leak.caught
    assert found.request == "the modal for /feedback by alice"
    assert "reveals bob's secret 'Commento' to alice" in str(found)
    await bob.slash("feedback")  # his own secret, shown to him only: fine


async def test_autocomplete_choices_showing_someone_elses_secret_are_a_leak(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    standin.privacy.set_secrets(standin.world.user_named("bob"), ["Bologna"])
    async with standin.expect_violation("privacy", match="to carol") as leak:
        await standin.user("carol").autocomplete("city", "name", "b")
    assert [v.path for v in leak.caught] == ["choices[1].name"]


async def test_nothing_is_a_leak_without_the_secret(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    standin.privacy.set_secrets(standin.world.user_named("alice"), [SECRET])
    for body, _ in LEAKS.values():
        harmless = json.loads(json.dumps(body).replace(SECRET, "asso"))
        await sample_bot.raw_send(standin.channel("tavolo").id, harmless)
    assert len(standin.timeline("tavolo", as_user="bob")) == len(LEAKS)
