"""/scopa tournament end to end: created, joined by four people, played to its winner (each
match ended by a resignation, for speed), its standings and bracket posted."""

from __future__ import annotations

from typing import Any

from tests.standin import DiscordStandIn, Message

from .helpers import BotProcess, table_messages


def posted(s: DiscordStandIn, channel: Any, text: str) -> list[Message]:
    return [m for m in s.world.channel_messages(channel.id) if text in m.text()]


async def test_a_knockout_tournament_from_registration_to_its_winner(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice, bob, carol, dave = (s.user(n) for n in ("alice", "bob", "carol", "dave"))
    dave.user.dms_open = True  # hands by DM to all four (closed DMs: tests/bot/test_delivery.py)
    tavolo = s.channel("tavolo")

    refused = (await bob.slash("scopa tournament create", name="Coppa")).message
    assert refused is not None and refused.ephemeral and "Solo chi organizza" in refused.text()
    named = (await bob.slash("scopa tournament organisers")).message  # bob manages nothing
    assert named is not None and named.ephemeral and "Solo chi organizza" in named.text()

    made = (
        await alice.slash("scopa tournament create", name="Coppa dell'Osteria", deals=1)
    ).message
    assert made is not None and not made.ephemeral
    assert "Coppa dell'Osteria" in made.text() and "eliminazione diretta" in made.text()

    for person in (alice, bob, carol, dave):
        joined = (await person.slash("scopa tournament join")).message
        assert joined is not None and "si iscrive" in joined.text(), joined.text()
    again = (await bob.slash("scopa tournament join")).message
    assert again is not None and again.ephemeral and "già iscritto" in again.text()

    early = (await bob.slash("scopa tournament start")).message
    assert early is not None and early.ephemeral and "Solo chi organizza" in early.text()
    started = await (await alice.slash("scopa tournament start")).finished(timeout=10)
    assert "è cominciato con 4 iscritti" in started.text()
    late = (await carol.slash("scopa tournament join")).message
    assert late is not None and late.ephemeral and "iscrizioni sono chiuse" in late.text()

    first = await s.wait_for(lambda: posted(s, tavolo, "turno 1"), timeout=10)
    assert first[0].text().count("contro") == 2  # two matches, each with its table's link
    everyone = (alice, bob, carol, dave)
    for person in everyone:
        assert f"<@{person.user.id}>" in first[0].text()
    threads = [c for c in s.world.channels.values() if c.is_thread]
    assert len(threads) == 2  # each table in its own thread
    assert all(table_messages(s, t) for t in threads)

    async def everyone_resigns_once() -> None:
        for person in (bob, carol, dave, alice):
            reply = await person.slash("scopa resign")
            assert not reply.failed

    await everyone_resigns_once()
    await s.wait_for(lambda: posted(s, tavolo, "turno 2"), timeout=10)
    await everyone_resigns_once()
    [won] = await s.wait_for(lambda: posted(s, tavolo, "🏆"), timeout=10)
    assert "Coppa dell'Osteria" in won.text() and "classifica" in won.text()

    table = (await carol.slash("scopa tournament standings")).message
    assert table is not None and not table.ephemeral
    assert "finito" in table.text() and table.text().count("\n1. ") == 1
    assert all(f"<@{p.user.id}>" in table.text() for p in everyone)
    bracket = (await carol.slash("scopa tournament bracket")).message
    assert bracket is not None and "Finale" in bracket.text() and "Semifinali" in bracket.text()
    assert bracket.text().count("per abbandono") == 3
    stats = await (await carol.slash("scopa stats")).followup()
    assert "Tornei: **Coppa dell'Osteria**" in stats.text()


async def test_the_organiser_abandons_a_match_and_nobody_else_may(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice, bob, carol, dave = (s.user(n) for n in ("alice", "bob", "carol", "dave"))
    dave.user.dms_open = True
    tavolo = s.channel("tavolo")
    await alice.slash("scopa tournament create", name="Coppa", deals=1)
    for person in (alice, bob, carol, dave):
        await person.slash("scopa tournament join")
    await (await alice.slash("scopa tournament start")).finished(timeout=10)
    await s.wait_for(lambda: posted(s, tavolo, "turno 1"), timeout=10)

    refused = (await bob.slash("scopa tournament abandon", player=carol.user)).message
    assert refused is not None and refused.ephemeral and "Solo chi organizza" in refused.text()
    decided = (await alice.slash("scopa tournament abandon", player=carol.user)).message
    assert decided is not None and not decided.ephemeral
    assert "decisa da chi organizza" in decided.text()
    assert f"la perde <@{carol.user.id}>" in decided.text()
    again = (await alice.slash("scopa tournament abandon", player=carol.user)).message
    assert again is not None and again.ephemeral and "non ha partite" in again.text()
    bracket = (await bob.slash("scopa tournament bracket")).message
    assert bracket is not None and "decisa da chi organizza" in bracket.text()


async def test_a_withdrawn_players_place_is_a_computers_and_they_are_told_nothing_more(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice, bob, carol = (s.user(n) for n in ("alice", "bob", "carol"))
    tavolo = s.channel("tavolo")
    await alice.slash(
        "scopa tournament create", name="Lega", format="round_robin", deals=1, computers=True
    )
    for person in (alice, bob, carol):
        await person.slash("scopa tournament join")
    await (await alice.slash("scopa tournament start")).finished(timeout=10)
    await s.wait_for(lambda: posted(s, tavolo, "turno 1"), timeout=10)
    gone = (await bob.slash("scopa tournament withdraw")).message
    assert gone is not None and "si ritira" in gone.text()

    def against_computer() -> list[Message]:
        return [
            m
            for p in (alice, carol)
            for m in s.dm_timeline(p.user)
            if "contro un giocatore del computer" in m.content
        ]

    for number in (2, 3):  # bob rests in one round at most: his place is played in another
        for person in (alice, carol):
            await person.slash("scopa resign")  # (refused when not at a table: no matter)
        await s.wait_for(lambda n=number: posted(s, tavolo, f"turno {n}"), timeout=20)

        def told(n: int = number) -> bool:  # each of them plays or rests: told either way
            said = f"**Lega** · turno {n}:"
            dms = [s.dm_timeline(u.user) for u in (alice, carol)]
            return all(any(said in m.content for m in mine) for mine in dms)

        await s.wait_for(told, timeout=20)
        if against_computer():
            break
    [told] = await s.wait_for(against_computer, timeout=5)
    assert "**Lega** · turno " in told.content
    later = [m for m in s.dm_timeline(bob.user) if "**Lega** · turno 2" in m.content]
    assert not later and not [m for m in s.dm_timeline(bob.user) if "turno 3" in m.content]
