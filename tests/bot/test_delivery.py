"""What the bot sends around the game: whose turn in ``/scopa games``, what ``/scopa play``
suggests, hands in DMs over a correspondence match, the end of a deal, a graceful stop."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace
from typing import Any

from tests.standin import Actor, DiscordStandIn, Message

from .helpers import (
    JOIN,
    MY_HAND,
    PLAY_ID,
    REMATCH,
    START,
    BotProcess,
    hand_message,
    live_cards,
    next_turn,
    play_buttons,
    play_from,
    secret,
    start_against_computer,
    table_messages,
    thread_named,
)

ATTACH_FILES = 1 << 15
ITALIAN_SUITS = {"d": "denari", "c": "coppe", "s": "spade", "b": "bastoni"}


async def correspondence_pair(s: DiscordStandIn, alice: Actor, bob: Actor) -> Any:
    """A correspondence table of alice and bob, dealt; returns its thread."""
    invitation = (await alice.slash("scopa new", pace="correspondence")).message
    assert invitation is not None
    await bob.click(invitation, JOIN)
    await alice.click(invitation, START)
    thread = await s.wait_for(lambda: thread_named(s, "Scopa"), timeout=5)
    await s.wait_for(lambda: hand_message(s, alice) and hand_message(s, bob), timeout=5)
    return thread


def in_turn(s: DiscordStandIn, *actors: Actor) -> tuple[Actor, Any] | None:
    for actor in actors:
        hand = hand_message(s, actor)
        if hand is not None and live_cards(hand):
            return actor, hand
    return None


async def test_games_says_whose_turn_the_deadline_is(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice, bob = s.user("alice"), s.user("bob")
    await correspondence_pair(s, alice, bob)
    actor, _hand = await s.wait_for(lambda: in_turn(s, alice, bob), timeout=5)
    other = bob if actor is alice else alice
    theirs = (await other.slash("scopa games")).message
    assert theirs is not None
    text = theirs.text()
    # The clock shown is the player in turn's, and the line says whose turn it is.
    assert f"Tocca a <@{actor.user.id}> (il tempo scade <t:" in text, text
    assert "Tocca a te" not in text
    mine = (await actor.slash("scopa games")).message
    assert mine is not None and "**Tocca a te** (il tempo scade <t:" in mine.text(), mine.text()


async def test_play_suggests_cards_by_italian_names_from_an_english_client(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    bob = Actor(s, s.world.user_named("bob"), locale="en")  # an English client
    thread = await correspondence_pair(s, alice, bob)
    hand = await s.wait_for(lambda: hand_message(s, bob), timeout=5)
    held = [m[3] for b in play_buttons(hand) if (m := PLAY_ID.match(str(b["custom_id"])))]
    s.privacy.set_secrets(bob.user, [secret(str(b["label"])) for b in play_buttons(hand)])
    suit = held[0][-1]
    offered = await bob.autocomplete("scopa play", "card", ITALIAN_SUITS[suit], channel=thread)
    assert sorted(c["value"] for c in offered) == sorted(c for c in held if c.endswith(suit))
    assert all(" of " in c["name"] for c in offered)  # named in bob's language
    english = {"d": "coins", "c": "cups", "s": "swords", "b": "clubs"}[suit]
    offered = await bob.autocomplete("scopa play", "card", english, channel=thread)
    assert sorted(c["value"] for c in offered) == sorted(c for c in held if c.endswith(suit))
    # Named by its number as people say it ("nove di spade", "nine of swords"), it is found.
    value = int(held[0][:-1])
    numbers = ["asso", "due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove", "dieci"]
    spoken = f"{numbers[value - 1]} di {ITALIAN_SUITS[suit]}"
    offered = await bob.autocomplete("scopa play", "card", spoken, channel=thread)
    assert [c["value"] for c in offered] == [held[0]], spoken
    # The notation works too, and what matches nothing offers nothing.
    assert [c["value"] for c in await bob.autocomplete("scopa play", "card", held[0])] == [held[0]]
    assert await bob.autocomplete("scopa play", "card", "xyz", channel=thread) == []


async def test_the_game_option_suggests_what_matches_the_typed_text(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    for options in ({"computers": 1}, {"preset": "scopone_scientifico", "computers": 3}):
        invitation = (await alice.slash("scopa new", **options)).message
        assert invitation is not None
        await alice.click(invitation, START)
    await s.wait_for(
        lambda: len([c for c in s.world.channels.values() if c.is_thread]) == 2, timeout=5
    )
    everything = await alice.autocomplete("scopa table", "game", "")
    assert len(everything) == 2, everything
    scopone = await alice.autocomplete("scopa table", "game", "scopone")

    # "▶ " marks a game waiting for alice: the computers may have moved between the two calls.
    def names(choices: list[dict[str, str]]) -> list[str]:
        return [c["name"].removeprefix("▶ ") for c in choices]

    assert names(scopone) == [n for n in names(everything) if "Scopone" in n]
    assert len(scopone) == 1
    assert await alice.autocomplete("scopa table", "game", "briscola") == []


async def test_the_game_suggestions_cost_one_service_call() -> None:
    """On each keystroke: the person's games once, not each game's table again."""
    from scopabot.bot.autocomplete import game_choices
    from scopabot.render.i18n import Lang
    from scopabot.service import MyGame, Rules, TableStatus

    calls: list[str] = []

    class People:
        async def my_games(self, *, user: int) -> list[MyGame]:
            calls.append("my_games")
            return [
                MyGame(
                    table_id=n,
                    game_id=10 + n,
                    guild_id=1,
                    channel_id=2,
                    thread_id=None,
                    rules=Rules(),
                    status=TableStatus.PLAYING,
                    seat=0,
                    turn=0,
                    deadline=None,
                    waiting_for_you=n == 1,
                    version=1,
                )
                for n in range(1, 6)
            ]

        def __getattr__(self, name: str) -> Any:
            calls.append(name)
            raise AssertionError(f"service.people.{name} called")

    class Service:
        people = People()

        def __getattr__(self, name: str) -> Any:
            calls.append(name)
            raise AssertionError(f"service.{name} called")

    class Langs:
        async def of_interaction(self, interaction: Any) -> Lang:
            return Lang.EN

    interaction: Any = SimpleNamespace(
        client=SimpleNamespace(service=Service(), langs=Langs()), user=SimpleNamespace(id=7)
    )
    choices = await game_choices(interaction, "table 3")
    assert [c.value for c in choices] == ["3"]  # the table number, as the title shows it
    assert calls == ["my_games"]
    assert (await game_choices(interaction, ""))[0].name.startswith("▶ ")


async def test_sigterm_mid_game_lets_running_work_finish_and_the_game_resumes(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    thread = await start_against_computer(s, alice)
    for _ in range(2):
        turn = await next_turn(s, thread, [alice])
        assert turn is not None
        await play_from(s, alice, turn[1])
    # SIGTERM right after a click is answered: its handler (the picture, the table's edit,
    # the computer's reply) is still at work while the bot stops.
    turn = await next_turn(s, thread, [alice])
    assert turn is not None
    await play_from(s, alice, turn[1])
    assert await bot_py.stop() == 0, bot_py.output()
    assert not bot_py.errors(), bot_py.output()
    assert any("Stopped" in line for line in bot_py.lines), bot_py.output()

    await bot_py.start()
    turn = await next_turn(s, thread, [alice])
    assert turn is not None  # the game goes on after the restart
    await play_from(s, alice, turn[1])
    await next_turn(s, thread, [alice])


def deal_counts(s: DiscordStandIn, channel: Any) -> list[Message]:
    """The bot's messages that count a finished deal (no buttons: not the table)."""
    return [
        m
        for m in s.world.channel_messages(channel.id)
        if "Fine della smazzata" in m.text() and not m.buttons()
    ]


async def test_each_deal_ends_with_its_count_posted_in_the_thread(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    thread = await start_against_computer(s, alice, deals=2)
    while (turn := await next_turn(s, thread, [alice])) is not None:
        await play_from(s, alice, turn[1])

    def every_deal_counted() -> list[Message] | None:
        # Two deals, or more when they end level (tie-breaking plays further deals): as many
        # deals as the table message showed the end of ("Smazzata 2" at the match's end),
        # each counted once.
        shown = json.dumps([r.components for r in table_messages(s, thread)[0].history])
        played = max((int(n) for n in re.findall(r"[Ss]mazzata (\d+)", shown)), default=0)
        counts = deal_counts(s, thread)
        return counts if played >= 2 and len(counts) == played else None

    counts = await s.wait_for(every_deal_counted, timeout=5)
    assert [c.text().split("**")[1] for c in counts] == [
        f"Fine della smazzata {k}" for k in range(1, len(counts) + 1)
    ]
    first = counts[0]
    text = first.text()
    assert text.startswith("**Fine della smazzata 1** · Scopa · tavolo 1"), text
    assert " gioca " in text or " cala " in text  # the deal's last plays (a lay is "cala")
    assert "```" in text and "Carte" in text  # the breakdown
    assert "**Primiera** · " in text and " di " in text.split("**Primiera** · ")[1]
    assert "Punteggio (" in text  # "Punteggio (agli 11): ...", the goal by the word (#20)
    assert [a["filename"] for a in first.attachments] == ["deal-1-1.png"]
    assert "Fine della smazzata 2" in counts[1].text()
    # Meanwhile the table message showed the first deal's end through deal 2's first round.
    table = table_messages(s, thread)[0]
    assert any("Fine della smazzata 1" in json.dumps(r.components) for r in table.history)


def hands(s: DiscordStandIn, person: Actor) -> list[Message]:
    return [m for m in s.dm_timeline(person.user) if "La tua mano" in m.text()]


def dm_of(s: DiscordStandIn, person: Actor) -> int:
    return int(s.world.dm_channel(person.user).id)


async def test_correspondence_hands_are_sent_anew_and_the_old_ones_deleted(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice, bob = s.user("alice"), s.user("bob")
    thread = await correspondence_pair(s, alice, bob)
    for _ in range(6):
        actor, hand = await s.wait_for(lambda: in_turn(s, alice, bob), timeout=5)
        await play_from(s, actor, hand)
        # The next person's turn: a new hand DM notifies them, the one before it is gone.
        other = bob if actor is alice else alice
        await s.wait_for(lambda o=other: in_turn(s, o), timeout=5)
        await s.wait_for(lambda: all(len(hands(s, p)) == 1 for p in (alice, bob)), timeout=5)
    sent = [m for m in s.world.messages.values() if m.channel_id == dm_of(s, alice) and m.deleted]
    assert sent, "alice's earlier hands were deleted"
    assert table_messages(s, thread)


async def test_closed_dms_are_tried_again_on_the_next_turn(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice, dave = s.user("alice"), s.user("dave")  # dave does not accept DMs
    invitation = (await alice.slash("scopa new", deals=1)).message
    assert invitation is not None
    await dave.click(invitation, JOIN)
    # The hand is sent once the thread is open: on a busy machine that may take a while.
    async with s.expect_violation("refused", code=50007, timeout=10):
        await alice.click(invitation, START)
    thread = await s.wait_for(lambda: thread_named(s, "Scopa"), timeout=5)

    def notes() -> list[Message]:
        return [m for m in s.world.channel_messages(thread.id) if "messaggi diretti" in m.content]

    await s.wait_for(notes, timeout=5)
    dave.user.dms_open = True  # he opens his DMs; Discord tells the bot nothing
    table = table_messages(s, thread)[0]
    dave_turn = f"Tocca a <@{dave.user.id}>"

    def ready() -> object:
        if (mine := hand_message(s, dave)) is not None:
            return mine
        alices = hand_message(s, alice)
        if alices is not None and live_cards(alices):
            return "alice"
        return "dave" if dave_turn in table.text() else None

    for _ in range(6):
        state = await s.wait_for(ready, timeout=5)
        if isinstance(state, Message):
            break
        if state == "alice":
            await play_from(s, alice, hand_message(s, alice))  # type: ignore[arg-type]
        else:  # his turn with no DM yet: he plays from "My hand"
            shown = (await dave.click(table, MY_HAND)).message
            assert shown is not None
            if live_cards(shown):
                await play_from(s, dave, shown)
    assert hand_message(s, dave) is not None, "dave's hand came by DM once he opened them"
    assert len(notes()) == 1  # the table was told once


async def test_without_attach_files_the_messages_go_without_pictures(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    tavolo = s.channel("tavolo")
    s.world.set_overwrite(tavolo, s.world.bot, deny=ATTACH_FILES)  # its threads follow it
    alice = s.user("alice")
    thread = await start_against_computer(s, alice, deals=1)
    while (turn := await next_turn(s, thread, [alice])) is not None:
        await play_from(s, alice, turn[1])
    table = table_messages(s, thread)[0]
    await s.wait_for(lambda: deal_counts(s, thread), timeout=5)
    assert "Vince" in table.text() or "senza vincitori" in table.text()
    for message in [table, *deal_counts(s, thread)]:
        assert not message.attachments and "attachment://" not in json.dumps(message.components)
    # The hands in DMs still carry theirs: a DM has no channel permissions.
    assert hand_message(s, alice) is not None


async def test_a_second_rematch_click_after_a_restart_points_to_the_table_opened(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    thread = await start_against_computer(s, alice)
    table = (await s.wait_for(lambda: table_messages(s, thread), timeout=5))[0]
    await alice.slash("scopa resign", channel=thread)
    await s.wait_for(lambda: "Rivincita" in [b.get("label") for b in table.buttons()], timeout=5)
    rematch = (await alice.click(table, REMATCH)).message
    assert rematch is not None and "tavolo 2" in rematch.text()

    await bot_py.stop()
    await bot_py.start()
    again = (await alice.click(table, REMATCH)).message
    assert again is not None and again.ephemeral and "già aperta" in again.text(), again.text()
    assert f"/{rematch.id}" in again.text()
