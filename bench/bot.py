"""The bot under load: 100 games at once through the stand-in for Discord.

Run: ``PYTHONPATH=. .venv/bin/python bench/bot.py [--games 100] [--deals 1]``. The real
``bot.py`` runs as a child process against the loopback stand-in, with Discord-like rate limits
on (5 requests a second per route and channel); 100 people each open a table against a
computer and play it out by clicking the card buttons of their DM hand, all at once. Printed:

* time from a click to its acknowledgement (the interaction's first response), median and p99,
  as the person sees it (the stand-in's clock, loopback network included); and to the clicked
  message showing the answer, which is later when the bot acknowledged first (a deferred
  update) and edited the message once the hand's picture was drawn;
* time from a click to the person's next turn live in their hand (the computer's reply played
  and the hand edited), which shows the refreshes falling behind when the acknowledgements
  do not;
* the bot process's CPU time per move, and the machine's load (the figures depend on it);
* counted REST calls per move (everything except interaction answers), against the budget of
  three; and the requests Discord refused for rate limits (429).

Targets (issue 11): p99 under 100 ms, at most three REST calls per move, none refused;
(issue 21) at most 8 ms of bot CPU a move with pictures, p99 under 100 ms at 100 and 300
games, and one process hosting 500 games at a 5 s think time.

``--seconds S`` measures S seconds of steady play instead: people arrive over ``--ramp``
seconds (by default no faster than the bot may open their DM channels, 4 a second, since that
route has one rate limit for the whole bot), play match after match, and the figures are
taken over the S seconds after the last has arrived, when every game is under way. Tables are
opened in several channels (25 people a channel), as on a big server: threads are opened in
one channel at its rate limit, which would pace the starts rather than measure the bot. Also
printed: the harness's own CPU and peak memory (the stand-in and the people share the bot's
cores; ``harness_unswept`` says why its memory is kept out of the collector's walks); the ramp
as it goes (every 10 s: people arrived, playing, waiting for their first hand); how many got
their first hand, how long after their ``/scopa new``, and the tries that failed; the DM
channels opened and their rate against the route's limit; the bot's first error with its
traceback (a bot that cannot keep up with the starts never reaches steady play: this says
when and why).

    PYTHONPATH=. python bench/bot.py --games 300 --seconds 40
    PYTHONPATH=. python bench/bot.py --games 500 --think 5 --seconds 40
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


from machine import machine_line  # bench/machine.py

from tests.bot.helpers import (
    BotProcess,
    counted_requests,
    hand_message,
    live_cards,
    world_with_threads,
)
from tests.standin import Actor, DiscordStandIn, SpecValidator


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def cpu_seconds(pid: int) -> float:
    """User and system CPU time a process has used so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_cpu_seconds(pid: int) -> float:
    """The CPU time of a process's living children (the pictures' worker, its helpers)."""
    total = 0.0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            kids = (task / "children").read_text().split()
        except OSError:
            continue
        for kid in kids:
            try:
                total += cpu_seconds(int(kid)) + children_cpu_seconds(int(kid))
            except OSError:  # it has just ended
                continue
    return total


class Answers:
    """Per played card (interaction id), seconds from the click's creation to the bot's first
    response (the acknowledgement) and to its last answer, the clicked message complete (the
    same moment, unless the bot answered without the hand's picture, or deferred, and edited
    the message through the interaction afterwards)."""

    def __init__(self) -> None:
        self.created: dict[int, float] = {}  # on the world's clock
        self.acked: dict[int, float] = {}
        self.complete: dict[int, float] = {}
        self.deferred: set[int] = set()
        self.edited: set[int] = set()


def is_move(it: object) -> bool:
    return any(m in str(it.data.get("custom_id")) for m in ("|p|", "|c|"))  # type: ignore[attr-defined]


def time_answers(s: DiscordStandIn, answers: Answers) -> None:
    """Wrap the stand-in's interaction routes to note when each played card was answered."""
    for route in s.dispatcher.routes:
        if route.pattern.endswith("/callback"):
            callback = route.handler

            async def first(call: object, callback: object = callback) -> object:
                raw = call.params.get("interaction_id", "")  # type: ignore[attr-defined]
                it = s.interactions.by_id.get(int(raw)) if raw.isdigit() else None
                if it is not None and is_move(it) and it.id not in answers.acked:
                    waited = s.world.clock.now() - it.created_at
                    answers.created[it.id] = it.created_at
                    answers.acked[it.id] = waited
                    if int((call.body or {}).get("type", 0)) == 6:  # type: ignore[attr-defined]
                        answers.deferred.add(it.id)
                    else:
                        answers.complete[it.id] = waited
                return await callback(call)  # type: ignore[operator]

            route.handler = first
        elif route.method == "PATCH" and route.pattern.endswith("/messages/@original"):
            edit = route.handler

            async def edited(call: object, edit: object = edit) -> object:
                reply = await edit(call)  # type: ignore[operator]
                token = call.params.get("webhook_token", "")  # type: ignore[attr-defined]
                it = s.interactions.by_token.get(token)
                if it is not None and is_move(it):
                    answers.complete[it.id] = s.world.clock.now() - it.created_at
                    answers.edited.add(it.id)
                return reply

            route.handler = edited


def time_dm_openings(s: DiscordStandIn, opened: list[float]) -> None:
    """Note when each DM channel opening reached Discord (one rate limit for the whole bot:
    it can pace the starts, whatever the bot's speed)."""
    for route in s.dispatcher.routes:
        if route.method == "POST" and route.pattern == "/users/@me/channels":
            handler = route.handler

            async def opening(call: object, handler: object = handler) -> object:
                opened.append(s.world.clock.now())
                return await handler(call)  # type: ignore[operator]

            route.handler = opening


class Window:
    """The measured seconds: all of the run (``--seconds 0``, each person plays one match), or
    ``seconds`` of steady play once every person has arrived, people playing match after
    match meanwhile (what a bot hosting that many games at once lives through)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.start = 0.0 if not seconds else float("inf")  # the world's clock
        self.end = float("inf")
        self.moves = 0  # people's card plays that began inside the window
        # Seconds from a click inside the window to the person's next turn shown live in
        # their hand (the computer's reply played and the hand edited): what a person waits
        # for after the answer, which no acknowledgement time shows.
        self.turn_back: list[float] = []

    def inside(self, when: float) -> bool:
        return self.start <= when < self.end

    def over(self, when: float) -> bool:
        return bool(self.seconds) and when >= self.end


class Starts:
    """When each person arrived (asked for their first table) and when their first hand came,
    on the world's clock, and how many of their tries to start a table failed: the ramp as it
    went, since a bot that cannot keep up with starts never reaches steady play."""

    def __init__(self) -> None:
        self.arrived: dict[int, float] = {}  # person -> first /scopa new
        self.dealt: dict[int, float] = {}  # person -> their first hand seen
        self.failed = 0  # a new table or its start not answered; the person tried again
        self.never = 0  # a table whose hand never came (120 s): another table tried

    def waits(self) -> list[float]:
        return sorted(self.dealt[p] - self.arrived[p] for p in self.dealt)

    def line(self, now: float, origin: float) -> str:
        waiting = len(self.arrived) - len(self.dealt)
        return (
            f"  at {now - origin:5.0f} s: {len(self.arrived)} arrived, {len(self.dealt)} "
            f"playing, {waiting} waiting for their first hand"
        )


async def one_game(
    s: DiscordStandIn,
    actor: Actor,
    deals: int,
    acks: list[float],
    think: float,
    rng: random.Random,
    answers: Answers,
    *,
    arrive: float,
    channel: str,
    window: Window,
    starts: Starts,
    person: int,
) -> int:
    await asyncio.sleep(arrive)  # people do not all open tables at once
    starts.arrived[person] = s.world.clock.now()
    moves = 0
    previous = None
    first = True
    while not window.over(s.world.clock.now()):
        created = await actor.slash("scopa new", computers=1, deals=deals, channel=channel)
        invitation = created.message
        if created.failed or invitation is None:  # counted as failed; the person tries again
            starts.failed += first
            await asyncio.sleep(1.0)
            continue
        if (await actor.click(invitation, "Inizia")).failed:
            starts.failed += first
            await asyncio.sleep(1.0)
            continue

        # The hand is one DM message edited in place (a new one each match): found once, then
        # read as the person would (scanning every message at each change would make the
        # harness the bottleneck).
        def dealt(previous: object = previous) -> object:
            hand = hand_message(s, actor)
            return hand if hand is not None and hand is not previous else None

        try:
            found = await s.wait_for(dealt, timeout=120)
        except TimeoutError:  # never started (counted): another table
            starts.never += first
            continue
        previous = found
        if first:
            starts.dealt[person] = s.world.clock.now()
            first = False
        moves += await one_match(s, actor, found, acks, think, rng, answers, window)
        if not window.seconds:
            break
    return moves


async def one_match(
    s: DiscordStandIn,
    actor: Actor,
    found: object,
    acks: list[float],
    think: float,
    rng: random.Random,
    answers: Answers,
    window: Window,
) -> int:
    moves = 0
    clicked_at: float | None = None  # when the last card was played, inside the window
    while True:
        # The hand read again only once it has changed (each edit adds a revision): the
        # people are woken at every change anywhere, hundreds of times a second.
        read: list[object] = [-1, None]  # the revision last read, and what it said

        def ready(found: object = found, read: list[object] = read) -> object:
            revision = len(found.history)  # type: ignore[attr-defined]
            if revision != read[0]:
                if live_cards(found):  # type: ignore[arg-type]
                    read[:] = [revision, found]
                elif "finita" in found.text():  # type: ignore[attr-defined]
                    read[:] = [revision, "over"]
                else:
                    read[:] = [revision, None]
            return read[1]

        hand = await s.wait_for(ready, timeout=60)
        if hand == "over":
            return moves
        if clicked_at is not None:
            window.turn_back.append(time.perf_counter() - clicked_at)
            clicked_at = None
        if think:
            await asyncio.sleep(rng.uniform(0.5, 1.5) * think)  # a person reads, then clicks
        now = s.world.clock.now()
        if window.over(now):
            return moves
        cards = live_cards(hand)  # type: ignore[arg-type]
        if not cards:  # the hand changed while the person was thinking: read it again
            continue
        button = cards[0]
        start = time.perf_counter()
        result = await actor.click(hand, str(button["custom_id"]))  # type: ignore[arg-type]
        if window.inside(now):
            acks.append(time.perf_counter() - start)
            window.moves += 1
        if result.failed:  # counted: the person looks at the hand again
            continue
        clicked_at = start if window.inside(now) else None
        clicked = result.interaction.id  # after a deferral, the answer comes as an edit
        with contextlib.suppress(TimeoutError):
            await s.wait_for(lambda clicked=clicked: clicked in answers.complete, timeout=10)
        message = result.message
        if message is None:
            continue
        asked = [b for b in message.buttons() if "|c|" in str(b.get("custom_id"))]
        if asked:
            start = time.perf_counter()
            await actor.click(message, str(asked[0]["custom_id"]))
            if window.inside(now):
                acks.append(time.perf_counter() - start)
        moves += 1


PEOPLE_PER_CHANNEL = 25
"""Tables are opened in several channels of the server, as on a big one: Discord opens threads
in one channel at its rate limit (5 a second here), which would pace the starts, not the bot."""

DM_OPENINGS_PER_SECOND = 4.0
"""People arrive no faster than the bot may open their DM channels (one route for the whole
bot, 5 a second here); a new match of someone already seen opens none."""


@contextlib.asynccontextmanager
async def harness_unswept(every: float = 1.0) -> AsyncIterator[None]:
    """Keep Python's full collections of this process (the stand-in and the people) short.

    The stand-in keeps every request, message and interaction of the run (its checks and
    these figures read them): a million objects by the end of a 300-game run, and each full
    collection walked them all, stopping the stand-in for 0.25-0.45 s every 6-10 s. Every
    click in flight then waited: the bot's acknowledgement reached a stand-in that was not
    listening, and the interactions it had not yet sent went out together, late, so the
    bench put the harness's pauses on the bot (its p99 at 300 games, 2 s think: 138 ms with
    them, 53-56 ms without; docs/speed.md). Discord does not stop to collect its garbage for us.
    So every ``every`` seconds what the run has kept so far leaves the collector's walks
    (``gc.freeze``); reference counting still frees it, and the young generations still
    collect the cycles of each second's requests before they are frozen."""

    async def freeze() -> None:
        while True:
            await asyncio.sleep(every)
            gc.collect(1)
            gc.freeze()

    task = asyncio.create_task(freeze())
    try:
        yield
    finally:
        task.cancel()
        gc.unfreeze()


async def main(
    games: int,
    deals: int,
    *,
    check_spec: bool,
    think: float,
    seconds: float,
    ramp: float | None,
) -> None:
    print(machine_line("start"))
    world = world_with_threads()
    guild = next(iter(world.guilds.values()))
    channels = ["tavolo"]
    for k in range(1, -(-games // PEOPLE_PER_CHANNEL)):
        channels.append(world.add_text_channel(guild, f"tavolo-{k}").name or "")
    people = []
    for n in range(games):
        user = world.add_user(f"player{n}")
        world.add_member(guild, user)
        people.append(user)
    if ramp is None:
        ramp = max(2 * think, games / DM_OPENINGS_PER_SECOND)
    window = Window(seconds)
    spec = None if check_spec else SpecValidator(Path("/nonexistent/openapi.json"))
    async with DiscordStandIn(world, spec=spec) as s, harness_unswept():
        s.rate_limits.enabled = True
        s.rate_limits.limit, s.rate_limits.window = 5, 1.0
        # Discord limits the bot's own requests per route and channel; interaction answers
        # (callback, follow-ups, edits through the token) are not limited that way, while the
        # stand-in would put every callback into one bucket: leave those out.
        check = s.rate_limits.check
        s.rate_limits.check = lambda route, major: (  # type: ignore[method-assign]
            (None, {}, False)
            if route.startswith(("/interactions/", "/webhooks/"))
            else check(route, major)
        )
        # The acknowledgement time as Discord sees it: from the interaction's creation to the
        # arrival of the bot's first response (the harness's own waiting left out).
        answers = Answers()
        time_answers(s, answers)
        opened: list[float] = []
        time_dm_openings(s, opened)
        # A 429 is counted here (the figure this bench reports), not raised in the clicks.
        # So are interactions that failed (no answer within Discord's 3 s): on a loaded
        # machine some do, and the people go on as they would.
        limited: list[object] = []
        late: list[object] = []
        violate = s.violate
        s.violate = lambda v: (  # type: ignore[method-assign]
            limited.append(v)
            if "429" in v.message
            else late.append(v)
            if v.kind == "failed" or v.code == 10062
            else violate(v)
        )
        with tempfile.TemporaryDirectory() as folder:
            bot = BotProcess(s, Path(folder) / "bench.db")
            await bot.start()
            try:
                assert bot.process is not None
                pid = bot.process.pid
                acks: list[float] = []
                starts = Starts()
                origin = s.world.clock.now()
                marks: dict[str, tuple[float, float, float, int, float]] = {}

                def mark(name: str) -> None:
                    marks[name] = (
                        cpu_seconds(pid),
                        children_cpu_seconds(pid),
                        time.perf_counter(),
                        len(s.requests),
                        time.process_time(),
                    )

                async def steady() -> None:
                    """Open the window once everyone has arrived (or the ramp and 30 s more are
                    over: someone whose table never started must not hold the run), close it
                    ``seconds`` later."""
                    began = time.perf_counter()
                    shown = began
                    while len(starts.dealt) < games and time.perf_counter() - began < ramp + 30:
                        await asyncio.sleep(0.1)
                        if time.perf_counter() - shown >= 10:
                            shown = time.perf_counter()
                            print(starts.line(s.world.clock.now(), origin), flush=True)
                    print(
                        f"{len(starts.dealt)} of {games} people playing when the window "
                        f"opened, {s.world.clock.now() - origin:.0f} s after the first could "
                        f"arrive (the ramp: {ramp:.0f} s)"
                    )
                    window.start = s.world.clock.now()
                    mark("start")
                    await asyncio.sleep(seconds)
                    window.end = s.world.clock.now()
                    mark("end")

                if seconds:
                    timer = asyncio.ensure_future(steady())
                else:
                    mark("start")
                actors = [Actor(s, user) for user in people]
                arrivals = random.Random(games)
                people_playing = [
                    asyncio.ensure_future(
                        one_game(
                            s,
                            a,
                            deals,
                            acks,
                            think,
                            random.Random(n),
                            answers,
                            arrive=arrivals.uniform(0, ramp),
                            channel=channels[n // PEOPLE_PER_CHANNEL],
                            window=window,
                            starts=starts,
                            person=n,
                        )
                    )
                    for n, a in enumerate(actors)
                ]
                if seconds:
                    await timer
                    # After the window people finish what they were doing; one waiting for a
                    # table that will not start is not waited for long.
                    _, late_people = await asyncio.wait(people_playing, timeout=30)
                    for task in late_people:
                        task.cancel()
                    await asyncio.gather(*people_playing, return_exceptions=True)
                    moves = [0]
                else:
                    moves = await asyncio.gather(*people_playing)
                    await asyncio.sleep(1.0)  # let the last table edits land
                    mark("end")
            except BaseException:
                print(bot.output()[-3000:])
                raise
            finally:
                await bot.stop()
                troubles = [ln for ln in bot.lines if " WARNING " in ln or " ERROR " in ln]
                print(f"the bot logged {len(troubles)} warnings and errors", end="")
                if troubles:  # the first with what followed it (a traceback), and the last
                    first = bot.lines.index(troubles[0])
                    print("; the first:", *bot.lines[first : first + 40], sep="\n   ")
                    print("the last:", *(ln[:300] for ln in troubles[-4:]), sep="\n   ")
                else:
                    print()
            (cpu0, kids0, wall0, before, own0), (cpu1, kids1, wall1, after, own1) = (
                marks["start"],
                marks["end"],
            )
            cpu, workers, wall, harness = cpu1 - cpu0, kids1 - kids0, wall1 - wall0, own1 - own0
            later = len(counted_requests(s, after))  # the calls made after the window
            counted = counted_requests(s, before)
            counted = counted[: len(counted) - later]
            refused = [r for r in s.requests if r.status == 429]
            for r in refused:
                print("429:", r.method, r.route)
            violations = s.take_violations()
    person_moves = window.moves if seconds else sum(moves)
    all_moves = 2 * person_moves  # each person's play is answered by the computer's
    inside = {k for k, it in answers.created.items() if window.inside(it)}
    server_acks = sorted(v for k, v in answers.acked.items() if k in inside)
    complete = sorted(v for k, v in answers.complete.items() if k in inside)
    p99 = pct(server_acks, 0.99)
    if seconds:
        offered = games / think if think else float("nan")
        print(
            f"{games} games at once ({deals} deal(s) a match, match after match), arrived over "
            f"{ramp:.0f} s; measured {wall:.1f} s of steady play: {person_moves} moves by "
            f"people, {all_moves} in all = {all_moves / wall:.0f} moves/s (people offered "
            f"{offered:.0f} clicks/s at {think:g} s think: {person_moves / wall:.0f} made)"
        )
    else:
        print(
            f"{games} games at once, {deals} deal(s) each, {person_moves} moves by people, "
            f"{all_moves} in all, {wall:.1f} s"
        )
    waits = starts.waits()
    if waits:
        print(
            f"table starts: {len(starts.dealt)} of {games} people got their first hand, "
            f"from their arrival (/scopa new) to it: median {statistics.median(waits):.1f} s, "
            f"p90 {pct(waits, 0.9):.1f} s, max {waits[-1]:.1f} s; {starts.failed} tries "
            f"failed (new or Inizia not answered) and {starts.never} tables never dealt "
            f"before the first hand"
        )
    if len(opened) > 1:
        span = opened[-1] - opened[0]
        print(
            f"DM channels opened: {len(opened)}, over {span:.0f} s "
            f"({(len(opened) - 1) / span if span else 0:.1f} a second; the route's limit: "
            f"{s.rate_limits.limit} a {s.rate_limits.window:g} s window, the whole bot's)"
        )
    print(
        f"click -> acknowledgement (Discord's side): median "
        f"{statistics.median(server_acks) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
        f"max {server_acks[-1] * 1000:.1f} ms over {len(server_acks)} clicks"
    )
    print(
        f"click -> the clicked message complete (new hand and its picture): median "
        f"{statistics.median(complete) * 1000:.1f} ms, p99 {pct(complete, 0.99) * 1000:.1f} ms; "
        f"{len(answers.edited & inside)} answers completed by an edit "
        f"({len(answers.deferred & inside)} deferred)"
    )
    if window.turn_back:
        back = sorted(window.turn_back)
        print(
            f"click -> the person's next turn live in their hand (the computer's reply shown): "
            f"median {statistics.median(back) * 1000:.0f} ms, p90 {pct(back, 0.9) * 1000:.0f} ms, "
            f"p99 {pct(back, 0.99) * 1000:.0f} ms"
        )
    print(
        f"  as the test's users saw the acknowledgement (their polling included): median "
        f"{statistics.median(acks) * 1000:.1f} ms, p99 {pct(acks, 0.99) * 1000:.1f} ms"
    )
    print(
        f"bot process CPU: {cpu:.1f} s = {cpu / all_moves * 1000:.1f} ms per move "
        f"(its event loop, SQL thread and all) = {cpu / wall * 100:.0f}% of a core"
    )
    print(
        f"its pictures' worker processes: {workers:.1f} s = "
        f"{workers / all_moves * 1000:.1f} ms per move (on another core when one is free)"
    )
    print(
        f"this harness (the stand-in and the people): {harness:.1f} s of CPU = "
        f"{harness / wall * 100:.0f}% of a core, on the same cores; its peak memory "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB"
    )
    print(
        f"counted REST calls: {len(counted)} = {len(counted) / all_moves:.2f} per move "
        "(table edits, hands at turn start, starts and DMs opened included)"
    )
    print(
        f"refused for rate limits (429): {len(refused)} ({len(limited)} where the bot outran "
        f"the limits it was told); interactions that failed (no answer within 3 s): "
        f"{sum(1 for v in late if getattr(v, 'kind', '') == 'failed')}; "
        f"other stand-in violations: {len(violations)}"
    )
    for v in violations[:5]:
        print("  ", v)
    print(
        f"targets: p99 < 100 ms: {'met' if p99 < 0.1 else 'NOT met'}; "
        f"<= 3 calls a move: {'met' if len(counted) <= 3 * all_moves else 'NOT met'}; "
        f"none refused: {'met' if not refused else 'NOT met'}"
    )
    print(machine_line("end"))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--deals", type=int, default=1)
    parser.add_argument(
        "--seconds",
        type=float,
        default=0,
        help="measure this many seconds of steady play once everyone has arrived, people "
        "playing match after match (0: each plays one match, all of it measured)",
    )
    parser.add_argument(
        "--ramp",
        type=float,
        help="seconds over which people arrive (default: twice the think time, or as fast as "
        "the bot may open their DM channels, whichever is longer)",
    )
    parser.add_argument(
        "--check-spec",
        action="store_true",
        help="validate every request against Discord's OpenAPI description, as the tests do "
        "(costly: it runs in the stand-in, on the same cores as the bot)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=2.0,
        help="seconds a person takes to click, on average (0: click at once, a closed loop "
        "that measures queueing rather than the bot)",
    )
    args = parser.parse_args()
    asyncio.run(
        main(
            args.games,
            args.deals,
            check_spec=args.check_spec,
            think=args.think,
            seconds=args.seconds,
            ramp=args.ramp,
        )
    )
