"""Defects a first-use review of the bot found (2026-11-30), each pinned by a test that failed
before its fix: the breakdown's names, resigning among several games, who may rematch,
refusals and tables in the reader's language, the first ping's place, the options of
``/scopa new``, the knock-out rule and the pace in words.
"""

from __future__ import annotations

import re

import pytest

from scopabot.engine import Rules, Tiebreak
from scopabot.render.i18n import Lang
from scopabot.render.invite import pace_text
from scopabot.render.rules import rules_lines
from tests.standin import DiscordStandIn

from .helpers import (
    JOIN,
    PLAY_ID,
    REMATCH,
    START,
    BotProcess,
    card_labels,
    hand_message,
    is_over,
    next_turn,
    play_buttons,
    play_from,
    secret,
    start_against_computer,
    table_messages,
    thread_named,
)

CODE_BLOCK = re.compile(r"```.*?```", re.S)


async def test_the_breakdown_names_the_sides_readably(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    thread = await start_against_computer(s, alice, deals=1)
    while (turn := await next_turn(s, thread, [alice])) is not None:
        await play_from(s, alice, turn[1])
    final = table_messages(s, thread)[0]
    assert is_over(final)
    blocks = CODE_BLOCK.findall(final.text())
    assert blocks, "the breakdown is shown"
    # Discord renders no mention inside a code block: the reader would see "<@15770...>".
    assert not any("<@" in block for block in blocks), blocks


async def test_resign_with_two_games_here_asks_which(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice, bob = s.user("alice"), s.user("bob")
    first = (await alice.slash("scopa new", pace="correspondence")).message
    assert first is not None
    await bob.click(first, JOIN)
    await alice.click(first, START)
    thread = await s.wait_for(lambda: thread_named(s, "Scopa"), timeout=5)
    turn = await next_turn(s, thread, [alice, bob])
    assert turn is not None
    if turn[0] is alice:  # make the first game wait for bob
        await play_from(s, alice, turn[1])
    bob_turn = f"Tocca a <@{bob.user.id}>"
    await s.wait_for(lambda: bob_turn in table_messages(s, thread)[0].text(), timeout=5)
    # The second game deals the same forty cards: what alice holds in the first may be played
    # face up in the second, so her first hand is no secret the guard can keep.
    s.privacy.clear(alice.user)
    second = (await alice.slash("scopa new", computers=1)).message
    assert second is not None
    await alice.click(second, START)
    await s.wait_for(
        lambda: len([c for c in s.world.channels.values() if table_messages(s, c)]) == 2,
        timeout=10,
    )
    alice_turn = f"Tocca a <@{alice.user.id}>"
    await s.wait_for(
        lambda: any(
            alice_turn in m.text() for c in s.world.channels.values() for m in table_messages(s, c)
        ),
        timeout=5,
    )
    waiting = (await alice.slash("scopa games")).message
    if waiting is None or waiting.text().count("Tocca a te") != 1:  # not the defect: a setup slip
        pytest.fail(f"expected one of two games waiting for alice: {waiting}")
    # Both tables were opened in #tavolo; one of them waits for alice, the other for bob.
    answer = (await alice.slash("scopa resign")).message  # typed in #tavolo, both tables here
    assert answer is not None and answer.ephemeral
    assert "partita" in answer.text() and "ritirato" not in answer.text(), answer.text()


async def test_rematch_is_for_the_players_of_the_match(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice, carol = s.user("alice"), s.user("carol")
    thread = await start_against_computer(s, alice)
    table = (await s.wait_for(lambda: table_messages(s, thread), timeout=5))[0]
    await alice.slash("scopa resign", channel=thread)
    await s.wait_for(lambda: is_over(table), timeout=5)
    rematch = (await carol.click(table, REMATCH)).message
    assert rematch is not None
    assert rematch.ephemeral and "Inizia" not in [b.get("label") for b in rematch.buttons()], (
        rematch.text()
    )


async def test_a_card_not_in_hand_is_refused_in_italian(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice, bob = s.user("alice"), s.user("bob")
    invitation = (await alice.slash("scopa new")).message
    assert invitation is not None
    await bob.click(invitation, JOIN)
    await alice.click(invitation, START)
    thread = await s.wait_for(lambda: thread_named(s, "Scopa"), timeout=5)
    turn = await next_turn(s, thread, [alice, bob])
    assert turn is not None
    actor, hand = turn
    other = bob if actor is alice else alice
    theirs = await s.wait_for(lambda: hand_message(s, other), timeout=5)
    s.privacy.set_secrets(actor.user, [secret(c) for c in card_labels(hand)])
    s.privacy.set_secrets(other.user, [secret(c) for c in card_labels(theirs)])
    found = PLAY_ID.match(str(play_buttons(theirs)[0]["custom_id"]))
    assert found is not None
    answer = (await actor.slash("scopa play", channel=thread, card=found[3])).message
    assert answer is not None and answer.text().startswith("Mossa non consentita")
    assert "in your hand" not in answer.text(), answer.text()


async def test_a_table_in_a_dm_speaks_the_players_language(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    alice = threaded.user("alice")  # an Italian client
    invitation = (await alice.slash("scopa new", channel="dm", computers=1)).message
    assert invitation is not None
    labels = [b.get("label") for b in invitation.buttons()]
    assert "Inizia" in labels, labels


async def test_the_first_ping_is_in_the_thread(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice, bob = s.user("alice"), s.user("bob")
    invitation = (await alice.slash("scopa new")).message  # two people, live: pings
    assert invitation is not None
    await bob.click(invitation, JOIN)
    await alice.click(invitation, START)
    thread = await s.wait_for(lambda: thread_named(s, "Scopa"), timeout=5)
    await s.wait_for(
        lambda: [
            m
            for c in (thread, s.channel("tavolo"))
            for m in s.world.channel_messages(c.id)
            if "tocca a te" in m.content
        ],
        timeout=5,
    )
    in_channel = [
        m.content
        for m in s.world.channel_messages(s.channel("tavolo").id)
        if "tocca a te" in m.content
    ]
    assert not in_channel, in_channel


async def test_new_offers_primiera_and_tiebreak(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    scopa = next(c for c in threaded.world.commands.values() if c.name == "scopa")
    new = next(o for o in scopa.data["options"] if o["name"] == "new")
    names = {o["name"] for o in new.get("options", [])}
    assert {"primiera", "tiebreak"} <= names, sorted(names)


def test_the_knock_out_rule_in_words() -> None:
    lines = rules_lines(Rules(tiebreak=Tiebreak.KO), Lang.EN)
    assert any("spareggi" in line for line in lines), lines


def test_the_pace_in_words() -> None:
    text = pace_text("correspondence", 5 * 3600, Lang.IT)
    assert "5.0" not in text, text
