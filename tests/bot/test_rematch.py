"""Rematch: the same seats and options at a new table, for the players of the match only."""

from __future__ import annotations

from tests.standin import DiscordStandIn

from .helpers import (
    JOIN,
    REMATCH,
    START,
    BotProcess,
    is_over,
    next_turn,
    play_from,
    table_messages,
    thread_named,
)


async def test_rematch_seats_the_same_players_with_the_same_options_at_a_new_table(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice, bob, carol = s.user("alice"), s.user("bob"), s.user("carol")
    invitation = (
        await alice.slash("scopa new", players=3, deals=1, asso_piglia_tutto=True, computers=1)
    ).message
    assert invitation is not None
    await bob.click(invitation, JOIN)  # alice seat 1, computer seat 2, bob seat 3
    seats_before = [line for line in invitation.text().splitlines() if line.startswith("Posto")]
    assert not (await alice.click(invitation, START)).failed
    thread = await s.wait_for(lambda: thread_named(s, "Scopa"), timeout=5)
    table = (await s.wait_for(lambda: table_messages(s, thread), timeout=5))[0]
    while (turn := await next_turn(s, thread, [alice, bob])) is not None:
        await play_from(s, turn[0], turn[1])
    assert is_over(table)

    refused = (await carol.click(table, REMATCH)).message  # carol did not play
    assert refused is not None and refused.ephemeral
    assert "Solo chi ha giocato" in refused.text()

    rematch = (await bob.click(table, REMATCH)).message  # bob asks: he hosts it
    assert rematch is not None and not rematch.ephemeral
    text = rematch.text()
    assert "tavolo 2" in text and f"Organizza: <@{bob.user.id}>" in text
    seats_after = [line for line in text.splitlines() if line.startswith("Posto")]
    assert seats_after == seats_before  # the same holders in the same seats
    assert f"Posto 1: <@{alice.user.id}>" in text and f"Posto 3: <@{bob.user.id}>" in text
    assert "Partita di 1 smazzata" in text and "asso" in text.lower()
    assert not rematch.button("Inizia").get("disabled")  # everyone is seated already

    again = (await alice.click(table, REMATCH)).message  # one rematch per match
    assert again is not None and again.ephemeral and "già aperta" in again.text()
    assert f"/{rematch.id}" in again.text()

    assert not (await bob.click(rematch, START)).failed
    turn = await next_turn(s, thread, [alice, bob])
    assert turn is not None  # the new match is dealt and plays
    await play_from(s, turn[0], turn[1])
