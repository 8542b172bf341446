"""/scopa settings: a manager chooses the language, default options and game channel."""

from __future__ import annotations

from tests.standin import DiscordStandIn, Message

from .helpers import START, BotProcess, next_turn, table_messages, thread_named
from .test_permissions import listed_with_link


def invitations(standin: DiscordStandIn, channel_name: str) -> list[Message]:
    channel = standin.channel(channel_name)
    return [m for m in standin.world.channel_messages(channel.id) if m.buttons()]


async def test_a_managers_settings_place_a_members_table_in_the_game_channel(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")  # the server's owner: she manages it
    bob = s.user("bob")
    bob.locale = "en-US"  # bob's Discord speaks English; the server's messages do not
    game_channel = s.channel("chiacchiere")
    saved = (
        await alice.slash("scopa settings", language="it", game_channel=game_channel, target=21)
    ).message
    assert saved is not None and saved.ephemeral
    assert "Salvato" in saved.text() and f"<#{game_channel.id}>" in saved.text()
    assert "Partita ai 21 punti" in saved.text()

    reply = await bob.slash("scopa new", computers=1)  # in #tavolo
    pointer = await reply.finished()
    assert pointer.ephemeral and f"<#{game_channel.id}>" in pointer.text()
    assert "Your table is open" in pointer.text()  # to bob, in bob's language
    assert not invitations(s, "tavolo")  # nothing public where bob typed
    invitation = (await s.wait_for(lambda: invitations(s, "chiacchiere"), timeout=5))[0]
    assert f"/{game_channel.id}/{invitation.id}" in pointer.text()
    assert "Partita ai 21 punti" in invitation.text()  # the server's default target
    assert f"<@{bob.user.id}>" in invitation.text()
    assert "Inizia" in [b.get("label") for b in invitation.buttons()]  # in Italian
    assert not (await bob.click(invitation, START)).failed
    thread = await s.wait_for(lambda: thread_named(s, "Scopa"), timeout=5)
    assert thread.parent_id == game_channel.id
    table = (await s.wait_for(lambda: table_messages(s, thread), timeout=5))[0]
    assert "La mia mano" in [b.get("label") for b in table.buttons()]
    assert await next_turn(s, thread, [bob]) is not None  # bob's hand came

    carol = s.user("carol")  # a member without "Manage Server"
    refused = (await carol.slash("scopa settings", language="en", target=5)).message
    assert refused is not None and refused.ephemeral and "Gestisci server" in refused.text()
    shown = (await alice.slash("scopa settings")).message
    assert shown is not None and "italiano" in shown.text() and "21" in shown.text()

    await alice.slash("scopa settings", language="en", deals=3)
    await bob.slash("scopa new", computers=1)
    second = await s.wait_for(
        lambda: [m for m in invitations(s, "chiacchiere") if m.id != invitation.id], timeout=5
    )
    assert "Start" in [b.get("label") for b in second[0].buttons()]  # now in English
    assert "Match of 3 deals" in second[0].text() and "21 points" not in second[0].text()

    await alice.slash("scopa settings", reset=True)
    here = (await bob.slash("scopa new", computers=1)).message
    assert here is not None and not here.ephemeral and here.channel_id == s.channel("tavolo").id
    assert "Match to 11 points" in here.text()
    await listed_with_link(s, bob, f"/{here.channel_id}/{here.id})")
