"""Scopone with two people and two computers: sides, captures by button and by /scopa play,
and each person reading in their own language."""

from __future__ import annotations

import re

from tests.standin import Actor, DiscordStandIn

from .helpers import (
    ADD_COMPUTER,
    PLAY_ID,
    START,
    BotProcess,
    card_labels,
    hand_message,
    it,
    live_cards,
    next_turn,
    play_from,
    secret,
    table_messages,
    thread_named,
)

ENGLISH_CARD = re.compile(r" of (coins|cups|swords|clubs)$")
ITALIAN_CARD = re.compile(r" di (denari|coppe|spade|bastoni)$")


async def test_scopone_two_people_two_computers_buttons_and_slash_play(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")  # an Italian client
    bob = Actor(s, s.world.user_named("bob"), locale="en")  # an English one
    created = await alice.slash("scopa new", preset="scopone_scientifico", target=1)
    invitation = created.message
    assert invitation is not None
    joined = await bob.click(invitation, it("btn.join_side", side="A"))  # the server's language
    assert not joined.failed and f"<@{bob.user.id}>" in invitation.text()
    await alice.click(invitation, ADD_COMPUTER)
    await alice.click(invitation, ADD_COMPUTER)
    refused = await bob.click(invitation, START)  # only the host starts
    assert refused.message is not None and refused.message.ephemeral
    assert "host" in refused.message.text()  # bob reads English
    await alice.click(invitation, START)
    thread = await s.wait_for(lambda: thread_named(s, "Scopone"), timeout=5)
    await s.wait_for(lambda: hand_message(s, alice) and hand_message(s, bob), timeout=5)
    assert all(ITALIAN_CARD.search(c) for c in card_labels(hand_message(s, alice)))
    assert all(ENGLISH_CARD.search(c) for c in card_labels(hand_message(s, bob)))
    table = table_messages(s, thread)[0]
    assert "Tocca a" in table.text() or "Vince" in table.text()
    by_slash = by_button = 0
    while (turn := await next_turn(s, thread, [alice, bob])) is not None:
        actor, hand = turn
        if actor is bob and by_slash < 3:
            await play_by_slash(s, bob, hand, thread)
            by_slash += 1
        else:
            await play_from(s, actor, hand, choose=1)
            by_button += 1
    final = table_messages(s, thread)[0]
    assert "Vince" in final.text()
    assert by_slash >= 1 and by_button >= 3
    # Each person was mentioned in the thread when their turn came (not at every turn).
    pings = [m for m in s.world.channel_messages(thread.id) if "tocca a te" in m.content]
    assert pings and len(pings) <= by_slash + by_button


async def play_by_slash(s: DiscordStandIn, bob: Actor, hand: object, thread: object) -> None:
    """``/scopa play`` with the card and capture taken from autocomplete, as a person would."""
    assert hand is not None
    cards = live_cards(hand)  # type: ignore[arg-type]
    found = PLAY_ID.match(str(cards[0]["custom_id"]))
    assert found is not None
    card = found[3]
    offered = await bob.autocomplete("scopa play", "card", "", channel=thread)
    assert card in [c["value"] for c in offered]
    assert all(ENGLISH_CARD.search(c["name"]) for c in offered)
    s.privacy.set_secrets(
        bob.user,
        [secret(c) for c in card_labels(hand) if c != cards[0]["label"]],  # type: ignore[arg-type]
    )
    captures = await bob.autocomplete("scopa play", "capture", "", channel=thread, card=card)
    options = {"card": card}
    if captures:
        options["capture"] = captures[-1]["value"]
    result = await bob.slash("scopa play", channel=thread, **options)
    assert not result.failed and result.message is not None and result.message.ephemeral
    assert "You played" in result.message.text()
    # The DM hand follows (a counted edit): the card is gone from it.
    await s.wait_for(
        lambda: all(not str(b["custom_id"]).endswith(f"|p|{card}") for b in hand.buttons()),  # type: ignore[attr-defined]
        timeout=3,
    )
