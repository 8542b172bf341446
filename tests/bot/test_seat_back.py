"""A seat taken back while someone else is in turn: the person's hand says so at once.

Taking a seat back out of turn changes no card and no turn, so the game's version stays (the
person in turn keeps live buttons); what changes is who holds the seat, and the hand message
that said "the computer plays for you" must not go on saying it until the next move — at a
correspondence table that can be a day.

The real bot runs in this process against the stand-in, on a service whose clock stands
still until the test moves it (three missed turns in an instant).
"""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

from scopabot.bot.client import ScopaBot
from scopabot.bot.config import Config
from scopabot.service import FakeClock, GameService, InlineThinker
from scopabot.store import Store
from tests.standin import DiscordStandIn

from .helpers import JOIN, START, hand_message, thread_named

AWAY = "Gioca il computer per te"


async def test_a_seat_taken_back_out_of_turn_shows_in_the_hand_at_once(
    threaded: DiscordStandIn, tmp_path: Path
) -> None:
    s = threaded
    clock = FakeClock()
    store = await Store.open(tmp_path / "bot.db")
    service = await GameService.start(store, clock=clock, thinker=InlineThinker(), computer_pause=0)
    bot = ScopaBot(Config(token=s.world.token), service=service)
    rng = random.Random(5)
    try:
        async with s.connected(bot):
            alice, bob = s.user("alice"), s.user("bob")
            invitation = (await alice.slash("scopa new", pace="correspondence", hours=1)).message
            assert invitation is not None
            await bob.click(invitation, JOIN)
            await alice.click(invitation, START)
            await s.wait_for(lambda: thread_named(s, "Scopa"), timeout=5)
            [game] = [g for g in await service.people.my_games(user=alice.user.id) if g.game_id]
            assert game.game_id is not None
            game_id = game.game_id
            # Alice misses her turns (bob plays his) until a computer holds her seat, and it
            # is bob's turn.
            for _ in range(40):
                public = await service.games.public_view(game_id)
                alices = public.seats[public.turn].user_id == alice.user.id
                if not alices and public.away:
                    break
                if alices:
                    await clock.advance(timedelta(hours=1, seconds=1))
                else:
                    view = await service.games.seat_view(game_id, user=bob.user.id)
                    moves = [m for choices in view.choices.values() for m in choices]
                    await service.games.play(
                        game_id, user=bob.user.id, card=rng.choice(moves), version=view.version
                    )
                await service.settle()
            public = await service.games.public_view(game_id)
            seat = public.seats[public.turn]
            assert public.away and seat.user_id == bob.user.id, public
            await s.wait_for(
                lambda: (h := hand_message(s, alice)) is not None and AWAY in h.text(), timeout=10
            )
            answer = (await alice.slash("scopa back")).message
            assert answer is not None and "Il posto è di nuovo tuo" in answer.text()
            assert (await service.games.public_view(game_id)).version == public.version
            # Her hand message says the seat is hers again, without waiting for bob's move.
            await s.wait_for(
                lambda: (h := hand_message(s, alice)) is not None and AWAY not in h.text(),
                timeout=10,
            )
            # Bob's buttons stay live: his card still plays at the version he was shown.
            view = await service.games.seat_view(game_id, user=bob.user.id)
            assert view.version == public.version
            [move, *_] = next(iter(view.choices.values()))
            await service.games.play(game_id, user=bob.user.id, card=move, version=view.version)
    finally:
        await service.close()
        await store.close()
