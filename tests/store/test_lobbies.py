from __future__ import annotations

import pytest

from scopabot.engine import Preset, Rules, RulesError
from scopabot.store import GuildSettings, LobbyStatus, NotFoundError, Seat, Store, StoreError


async def test_guild_settings_round_trip(store: Store) -> None:
    assert await store.guild_settings(5) == GuildSettings(5)
    settings = GuildSettings(5, "en", {"preset": "scopone_scientifico", "target": 21}, 77)
    await store.save_guild_settings(settings)
    assert await store.guild_settings(5) == settings
    with pytest.raises(RulesError):
        await store.save_guild_settings(GuildSettings(5, "en", {"colour": "red"}))


async def test_lobby_seats_and_status(store: Store) -> None:
    rules = Rules(preset=Preset.SCOPONE_CLASSICO)
    lobby = await store.create_lobby(host_id=1, rules=rules, guild_id=5, channel_id=10)
    assert lobby.status is LobbyStatus.OPEN and lobby.rules == rules and lobby.seats == {}
    await store.take_seat(lobby.id, 0, Seat.human(1))
    lobby = await store.take_seat(lobby.id, 1, Seat.computer("hard"))
    assert lobby.seats == {0: Seat.human(1), 1: Seat.computer("hard")}
    with pytest.raises(StoreError, match="taken"):
        await store.take_seat(lobby.id, 0, Seat.human(2))
    with pytest.raises(StoreError, match="no seat"):
        await store.take_seat(lobby.id, 4, Seat.human(2))
    lobby = await store.leave_seat(lobby.id, 1)
    assert set(lobby.seats) == {0}
    lobby = await store.update_lobby(lobby.id, status=LobbyStatus.PLAYING, message_id=99)
    assert (lobby.status, lobby.message_id, lobby.channel_id) == (LobbyStatus.PLAYING, 99, 10)
    assert (await store.lobby_by_message(99)) == lobby
    assert [x.id for x in await store.open_lobbies(5)] == [lobby.id]
    assert [x.id for x in await store.lobbies_of_user(1)] == [lobby.id]
    lobby = await store.update_lobby(lobby.id, status=LobbyStatus.FINISHED, message_id=None)
    assert lobby.message_id is None and await store.open_lobbies(5) == []
    with pytest.raises(NotFoundError):
        await store.lobby(12345)


async def test_score_keeper_with_undo(store: Store) -> None:
    session = await store.open_score_session(owner_id=3, sides=["noi", "voi"], target=11)
    await store.add_score(session.id, 0, 4, note="carte, denari, settebello, scopa")
    await store.add_score(session.id, 1, 2)
    session = await store.add_score(session.id, 0, 8, by_user=3)
    assert session.totals == (12, 2) and session.leader == 0
    undone = await store.undo_score(session.id)
    assert undone is not None and undone.points == 8 and undone.undone_at is not None
    session = await store.score_session(session.id)
    assert session.totals == (4, 2) and session.leader is None
    entries = await store.score_entries(session.id)
    assert [(e.seq, e.points, e.undone_at is None) for e in entries] == [
        (1, 4, True),
        (2, 2, True),
        (3, 8, False),
    ]
    await store.undo_score(session.id)
    await store.undo_score(session.id)
    assert await store.undo_score(session.id) is None
    session = await store.add_score(session.id, 1, 1)
    assert session.totals == (0, 1)
    with pytest.raises(ValueError, match="no side"):
        await store.add_score(session.id, 2, 1)
    closed = await store.close_score_session(session.id)
    assert closed.closed
    with pytest.raises(StoreError, match="closed"):
        await store.add_score(session.id, 0, 1)
