"""A tournament played to its winner end to end, with the computers' help for speed: nobody
plays a card, so after three missed turns (an hour each, a second here) a computer plays each
seat to the end. Each player is told their opponent, table and deadline in their own language
(a DM; at their table when their DMs are closed); the standings and the bracket are posted as
pictures with alt text, and in text.

bot.py runs with ``SCOPABOT_CLOCK_SPEED=3600`` (tests only): an hour passes in a second.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.standin import DiscordStandIn, Message

from .helpers import BotProcess

MENTION = re.compile(r"<@(\d+)>")


def posted(s: DiscordStandIn, channel: Any, text: str) -> list[Message]:
    return [m for m in s.world.channel_messages(channel.id) if text in m.text()]


def told(s: DiscordStandIn, person: Any, round_words: str) -> list[Message]:
    """The DMs telling ``person`` about a round ("turno 1", "round 1")."""
    return [m for m in s.dm_timeline(person.user) if f"**Coppa** · {round_words}:" in m.content]


def pictures(message: Message) -> dict[str, str]:
    """Attached file name -> its alt text (every picture has some)."""
    out = {a["filename"]: a.get("description") or "" for a in message.attachments}
    assert all(out.values()), out
    return out


async def test_a_knockout_played_to_its_winner_by_computers_standing_in(
    threaded: DiscordStandIn, tmp_path: Path
) -> None:
    s = threaded
    bot = BotProcess(s, tmp_path / "bot.db", env={"SCOPABOT_CLOCK_SPEED": "3600"})
    await bot.start()
    try:
        alice, bob, carol, dave = (s.user(n) for n in ("alice", "bob", "carol", "dave"))
        everyone = (alice, bob, carol, dave)
        assert not dave.user.dms_open  # dave is told at his table instead
        bob.locale = "en-US"  # bob's Discord speaks English; the server and the rest Italian
        tavolo = s.channel("tavolo")
        made = await alice.slash(
            "scopa tournament create", name="Coppa", deals=1, turn_hours=1, round_hours=720
        )
        assert made.message is not None and "Coppa" in made.message.text()
        for person in everyone:
            joined = (await person.slash("scopa tournament join")).message
            assert joined is not None and "si iscrive" in joined.text(), joined.text()
        # dave's DMs refuse the bot (Discord's 50007) whenever it tries them: his hand on his
        # turns, his rounds' news; both are then said at his table.
        async with s.expect_violation("refused", code=50007):
            started = await (await alice.slash("scopa tournament start")).finished(timeout=10)
            assert "è cominciato con 4 iscritti" in started.text()

            # Round 1: each of alice, bob and carol is told once by DM, in their language, whom
            # they meet, where and by when; dave (DMs closed) at his table, with a mention.
            [first] = await s.wait_for(lambda: posted(s, tavolo, "turno 1"), timeout=10)
            assert pictures(first)["bracket.png"].startswith("Coppa, tabellone. Semifinali: ")
            threads = {c.id for c in s.world.channels.values() if c.is_thread}
            assert len(threads) == 2
            await s.wait_for(lambda: all(told(s, p, "turno 1") for p in (alice, carol)), timeout=10)
            await s.wait_for(lambda: told(s, bob, "round 1"), timeout=10)
            opponent: dict[int, int] = {}
            for person, words in ((alice, "turno 1"), (bob, "round 1"), (carol, "turno 1")):
                [dm] = told(s, person, words)
                named = [int(i) for i in MENTION.findall(dm.content)]
                assert len(named) == 1 and named[0] != person.user.id
                opponent[person.user.id] = named[0]
                assert "<t:" in dm.content and "https://discord.com/channels/" in dm.content
                link_thread = int(
                    dm.content.split("https://discord.com/channels/")[1].split("/")[1]
                )
                assert link_thread in threads  # the table, in its own thread
            assert "you play against" in told(s, bob, "round 1")[0].content
            assert "giochi contro" in told(s, alice, "turno 1")[0].content
            for seat, other in opponent.items():  # the pairings told agree with one another
                if other != dave.user.id:
                    assert opponent[other] == seat
            [note] = await s.wait_for(
                lambda: [
                    m
                    for t in threads
                    for m in s.world.channel_messages(t)
                    if "**Coppa** · turno 1:" in m.content and f"<@{dave.user.id}>" in m.content
                ],
                timeout=10,
            )
            daves = [u for u, o in opponent.items() if o == dave.user.id]
            assert (
                f"<@{daves[0]}>" in note.content and "non accetti messaggi diretti" in note.content
            )
            assert not s.dm_timeline(dave.user)  # nothing was ever delivered to closed DMs

            # Nobody plays: the computers take the seats over, round 1 ends, round 2 (the final)
            # is told to the two finalists only, and the winner is announced with the pictures.
            [won] = await s.wait_for(lambda: posted(s, tavolo, "🏆"), timeout=90)
            finalists = [p for p in (alice, carol) if told(s, p, "turno 2")] + (
                [bob] if told(s, bob, "round 2") else []
            )
            second = posted(s, tavolo, "turno 2")[0]
            in_final = {int(i) for i in MENTION.findall(second.text())}
            assert len(in_final) == 2
            assert {p.user.id for p in finalists} == in_final - {dave.user.id}
            assert all(len(told(s, p, w)) <= 1 for p in everyone for w in ("turno 2", "round 2"))
            assert "tabellone" in pictures(second)["bracket.png"]
            ending = pictures(won)
            assert ending["standings.png"].startswith("Coppa, classifica (pagina 1 di 1): 1. ")
            assert "Finale: " in ending["bracket.png"] and "Semifinali: " in ending["bracket.png"]
            assert "<@" not in ending["standings.png"]  # a picture names people, never mentions

        # Asked for, the standings and the bracket come as text and as pictures.
        table = (await carol.slash("scopa tournament standings")).message
        assert table is not None and not table.ephemeral and "finito" in table.text()
        # The text answers at once; its picture comes with it, or is added as soon as drawn.
        await s.wait_for(lambda: s.message(table.id).attachments, timeout=10)
        said = pictures(s.message(table.id))["standings.png"]
        assert all(p.user.username in said for p in everyone), said
        bracket = (await carol.slash("scopa tournament bracket")).message
        assert bracket is not None and "Finale" in bracket.text()
        await s.wait_for(lambda: s.message(bracket.id).attachments, timeout=10)
        drawn = pictures(s.message(bracket.id))["bracket.png"]
        assert drawn.startswith("Coppa, tabellone. Semifinali: ") and " batte " in drawn
        assert "per abbandono" not in bracket.text()  # played to the end, nobody resigned
    finally:
        assert await bot.stop() == 0, bot.output()
