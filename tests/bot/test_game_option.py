"""The ``game`` option typed by hand is read as people read their tables: a bare number is
the table's number (the one ``/scopa games`` and every title show), text names one of their
titles, and anything else is refused with the list of their tables, never taken to mean the
table of the channel it was typed in (a person once resigned the wrong match that way)."""

from __future__ import annotations

import re
from typing import Any

from scopabot.render.i18n import Lang, tr
from tests.standin import Actor, DiscordStandIn, Message

from .helpers import START, BotProcess, is_over, table_messages

HAND_ID = re.compile(r"^sb\|g\|\d+\|(\d+)\|h\|")


def version(table: Message) -> int:
    """The game's version a table shows (in its "My hand" button)."""
    found = [HAND_ID.match(str(b.get("custom_id"))) for b in table.buttons()]
    [number] = [int(m[1]) for m in found if m is not None]
    return number


async def two_tables(s: DiscordStandIn, alice: Actor) -> tuple[Any, Any]:
    """Tables 1 and 2, each against a computer; table 2 starts first, so its game is game 1
    and table 1's is game 2: a table's number and its game's differ, as they do in use."""
    first = (await alice.slash("scopa new", computers=1, pace="correspondence")).message
    second = (await alice.slash("scopa new", computers=1, pace="correspondence")).message
    assert first is not None and second is not None
    await alice.click(second, START)
    await alice.click(first, START)

    def threads() -> tuple[Any, Any] | None:
        found = {}
        for channel in s.world.channels.values():
            if channel.is_thread and table_messages(s, channel):
                name = (channel.name or "").casefold()
                for number in (1, 2):
                    if name.endswith(f"tavolo {number}"):
                        found[number] = channel
        return (found[1], found[2]) if len(found) == 2 else None

    return await s.wait_for(threads, timeout=10)


async def test_a_number_typed_is_the_table_number_people_see(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    one, two = await two_tables(s, alice)
    listed = (await alice.slash("scopa games")).message
    assert listed is not None and "tavolo 1" in listed.text().casefold()
    # The suggestions' values are the numbers the titles show.
    offered = await alice.autocomplete("scopa resign", "game", "", channel="chiacchiere")
    assert sorted(c["value"] for c in offered) == ["1", "2"], offered
    for choice in offered:
        assert choice["name"].casefold().endswith(f"tavolo {choice['value']}"), choice

    answer = (await alice.slash("scopa resign", channel="chiacchiere", game="2")).message
    assert answer is not None
    await s.wait_for(lambda: is_over(table_messages(s, two)[0]), timeout=5)
    assert not is_over(table_messages(s, one)[0]), "table 1 resigned for table 2"


async def test_a_title_typed_picks_its_table_and_not_the_one_of_the_channel(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    one, two = await two_tables(s, alice)
    # Typed in table 1's thread: "tavolo 2" means table 2, whatever the channel.
    answer = (await alice.slash("scopa resign", channel=one, game="tavolo 2")).message
    assert answer is not None
    await s.wait_for(lambda: is_over(table_messages(s, two)[0]), timeout=5)
    assert not is_over(table_messages(s, one)[0]), "the channel's table resigned"
    # The whole text of a suggestion, as a person may copy it, picks its table too.
    offered = await alice.autocomplete("scopa resign", "game", "", channel="chiacchiere")
    [suggestion] = [c["name"] for c in offered if c["value"] == "1"]
    answer = (await alice.slash("scopa resign", channel=two, game=suggestion)).message
    assert answer is not None
    await s.wait_for(lambda: is_over(table_messages(s, one)[0]), timeout=5)


async def test_text_naming_none_of_her_games_is_refused_with_her_tables(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    one, two = await two_tables(s, alice)
    # Both wait for alice (the computers have moved), so nothing else changes the tables.
    turn = tr("turn.of", Lang.IT, name=f"<@{alice.user.id}>")
    await s.wait_for(
        lambda: all(turn in table_messages(s, t)[0].text() for t in (one, two)), timeout=10
    )
    versions = [version(table_messages(s, t)[0]) for t in (one, two)]
    for command, options in (("scopa resign", {}), ("scopa play", {"card": "7d"})):
        for typed in ("tavolo 3", "3", "tavolo", "briscola 2"):
            reply = (await alice.slash(command, channel=one, game=typed, **options)).message
            assert reply is not None and reply.ephemeral, (command, typed)
            text = reply.text().casefold()
            assert "tavolo 1" in text and "tavolo 2" in text, (command, typed, text)
            assert "non è cambiato niente" in text, (command, typed, text)
    for table, before in zip((one, two), versions, strict=True):
        assert version(table_messages(s, table)[0]) == before  # no move was made
        assert not is_over(table_messages(s, table)[0])
