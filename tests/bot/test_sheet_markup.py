"""What people type on a score sheet is shown as typed: no link, spoiler, heading or mention
of theirs renders in the bot's message; invisible or look-alike side names are refused."""

from __future__ import annotations

import re

from tests.standin import DiscordStandIn, Message

from .helpers import OTHER_POINTS, BotProcess

MASKED_LINK = re.compile(r"(?<!\\)\[[^\]]*(?<!\\)\]\(")
SPOILER = re.compile(r"(?<!\\)\|(?<!\\)\|")
MENTION = re.compile(r"(?<!\\)<(?<!\\)@|(?<!\\)@everyone")


def shown_text(message: Message) -> str:
    """The message's text as Discord renders it: without its buttons' labels (plain text)."""
    labels = {str(b.get("label")) for b in message.buttons()}
    return "\n".join(line for line in message.text().splitlines() if line not in labels)


def rendered_markup(text: str) -> list[str]:
    found = [p.pattern for p in (MASKED_LINK, SPOILER, MENTION) if p.search(text)]
    lines = text.splitlines()
    # The sheet's own title is its one heading; nothing typed starts a line (a quote, a list).
    found += [line for line in lines[1:] if line.startswith(("#", ">", "-"))]
    return found


async def test_names_and_notes_are_escaped(threaded: DiscordStandIn, bot_py: BotProcess) -> None:
    s = threaded
    alice, bob = s.user("alice"), s.user("bob")
    sides = f"[clicca](https://evil.example) ||x||, <@{bob.user.id}> @everyone\n# Voi"
    sheet = (await alice.slash("score start", sides=sides)).message
    assert sheet is not None and not sheet.ephemeral
    text = shown_text(sheet)
    assert "clicca" in text and "Voi" in text
    assert not rendered_markup(text), text
    opened = await alice.click(sheet, OTHER_POINTS)
    note = "[premio](https://evil.example) ||spoiler|| <@&1> `code`"
    sent = await alice.submit_modal(opened, {"side": "0", "points": "2", "note": note})
    assert not sent.failed
    text = shown_text(sheet)
    assert "premio" in text and "+2" in text
    assert not rendered_markup(text), text
    assert "`code`" not in text


async def test_invisible_and_look_alike_side_names_are_refused(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    for sides, said in (
        ("\u200b\u200b, Voi", "caratteri invisibili"),
        ("\u200d\u2060\ufeff, Voi", "caratteri invisibili"),
        ("Noi, Noi\u200b", "sembrano uguali"),
        ("Noi, ｎｏｉ", "sembrano uguali"),
        ("Noi, N\u200boi", "sembrano uguali"),
    ):
        reply = (await alice.slash("score start", sides=sides)).message
        assert reply is not None and reply.ephemeral, sides
        assert reply.text().startswith("Foglio non possibile") and said in reply.text(), (
            sides,
            reply.text(),
        )
    assert not [m for m in s.world.messages.values() if not m.ephemeral and m.buttons()]
