"""Run ScopaBot: read .env, set up logging, open the store (migrating it), connect to Discord.

``python bot.py --sync`` registers the slash commands with Discord now and exits (otherwise
they are synced at start-up only when their definition changed).
``python bot.py --shards 0-3 --shard-count 8`` runs shards 0 to 3 of 8 (as do
``SCOPABOT_SHARDS`` and ``SCOPABOT_SHARD_COUNT``; the options win), so that several processes,
on one machine or several, share the servers over one PostgreSQL database (README, "Several
processes").
``SCOPABOT_DISCORD_API_BASE`` and ``SCOPABOT_DISCORD_GATEWAY`` point it at another Discord;
the end-to-end tests use them to run this very file against the loopback stand-in.

Whatever stops it at start (no network, a refused token, a bad setting, an unreadable
``.env``) is said in a line or two that name the cause and the remedy, with a non-zero exit
a service manager can act on; a traceback is for the bugs only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import gc
import logging
import os
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from dotenv import load_dotenv

from scopabot.bot.config import BadSetting, Config, MissingToken
from scopabot.bot.log_privacy import guard_logs
from scopabot.store import DatabaseError, Store

log = logging.getLogger("scopabot")

HOME = Path(__file__).resolve().parent  # .env is read here; a relative SCOPABOT_DB lives here


async def run(config: Config, *, sync_only: bool = False) -> int:
    # The database is opened (and migrated) before connecting: a damaged, locked or too-new
    # file stops the bot with the store's message instead of failing on the first move. Every
    # page is read first (the quick check) and an existing empty file is refused, not made a
    # new database: both are left untouched for the administrator.
    # SCOPABOT_DATABASE_URL=postgresql://… opens that database instead of the file.
    try:
        store = await Store.open(config.database, check=True, expected=True)
    except DatabaseError as exc:
        log.error("%s", exc)
        return 1
    if config.database_url:
        log.info("Database %s ready", store.path)  # the URL without its password
    else:
        log.info("Database %s ready", Path(config.db_path).absolute())
        if config.shards_text is not None and config.shard_ids != tuple(
            range(config.shard_count or 0)
        ):
            # The other shards' processes share this file only on this machine.
            log.warning(
                "Running shards %s on a SQLite file: the processes of the other shards must "
                "run on this machine, on this file; across machines, use PostgreSQL "
                '(SCOPABOT_DATABASE_URL; README, "Several processes")',
                config.shards_text,
            )
    try:
        return await _serve(config, store, sync_only=sync_only)
    finally:
        await store.close()


def freeze_startup_objects() -> None:
    """Collect once, then take every object made so far out of Python's full collections.

    A full collection walks every tracked object and stops every thread meanwhile, the
    store's SQL thread too, so its pause grows with what start-up made (modules, classes,
    discord.py) and lands on the moves queued behind it (docs/speed.md, "The game store", has the
    figures). ``gc.freeze()`` leaves those objects to reference counting alone. Whether to
    do this is the process's decision, taken once at start-up: here, and in the benches.
    """
    gc.collect()
    gc.freeze()


async def _serve(config: Config, store: Store, *, sync_only: bool = False) -> int:
    import aiohttp
    import discord

    # ScopaBot never joins a voice channel: no warning at each start about voice libraries.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False

    from scopabot.bot.client import ScopaBot, use_endpoints
    from scopabot.bot.clock import FastClock
    from scopabot.bot.sync import hash_file

    use_endpoints(api_base=config.api_base, gateway=config.gateway)
    clock = FastClock(config.clock_speed) if config.clock_speed else None
    hashes = hash_file(config.db_path)
    if sync_only:
        hashes.unlink(missing_ok=True)
        # It only logs in: it syncs whichever shards it would run (shard 0's process syncs).
        config = dataclasses.replace(config, shard_ids=None, shard_count=None)
    bot = ScopaBot(
        config,
        store=store,
        clock=clock,
        computer_pause=config.computer_pause,
        hash_path=str(hashes),
    )
    freeze_startup_objects()  # the store is open and discord.py imported: start-up is done
    where = config.api_base or "https://discord.com"
    try:
        if sync_only:
            async with bot:
                await bot.login(config.token)  # setup_hook syncs, as the hash is gone
            log.info("Commands synced; exiting")
            return 0
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):  # Windows
                loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
        async with bot:
            await bot.start(config.token)
    except discord.LoginFailure:
        log.error("Discord refused the token in DISCORD_TOKEN; reset it in the Developer Portal")
        return 1
    except discord.DiscordServerError as exc:
        log.error("Discord answered %s at %s: it is having trouble", exc.status, where)
        log.error("Nothing is wrong on this side: start the bot again in a few minutes")
        return 1
    except (aiohttp.ClientError, OSError, discord.GatewayNotFound) as exc:
        # No network yet (at boot), DNS down, a proxy or firewall in the way: nothing a
        # traceback explains. The exit code lets systemd or Docker try again later.
        log.error("Cannot reach Discord at %s: %s", where, _reason(exc))
        log.error("Check this machine's network and DNS, then start the bot again")
        return 1
    log.info("Stopped")
    return 0


def _reason(exc: BaseException) -> str:
    """The innermost cause in one line (aiohttp wraps the resolver's and the socket's)."""
    while exc.__cause__ is not None and str(exc.__cause__):
        exc = exc.__cause__
    return str(exc) or type(exc).__name__


def arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bot.py", description="Run ScopaBot on Discord.")
    parser.add_argument(
        "--sync", action="store_true", help="register the slash commands now, then exit"
    )
    parser.add_argument(
        "--shards",
        metavar="IDS",
        help="the shards this process runs, e.g. 0-3 or 0,2,5-7 (SCOPABOT_SHARDS)",
    )
    parser.add_argument(
        "--shard-count",
        metavar="N",
        help="how many shards all the processes run together (SCOPABOT_SHARD_COUNT)",
    )
    return parser.parse_args(argv)


def main() -> int:
    options = arguments(sys.argv[1:])
    env_file = HOME / ".env"
    try:
        if env_file.exists() and not env_file.is_file():
            raise IsADirectoryError(21, "it is not a file")  # python-dotenv would skip it
        load_dotenv(env_file)  # values already in the environment win over .env
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not UTF-8 text"
        print(f"Cannot read {env_file}: {why}.", file=sys.stderr)
        print(
            "Make it a text file readable by the user running the bot "
            "(chown that user, chmod 600), or remove it and set the variables in the environment.",
            file=sys.stderr,
        )
        return 2
    environ = dict(os.environ)
    if options.shards is not None:
        environ["SCOPABOT_SHARDS"] = options.shards
    if options.shard_count is not None:
        environ["SCOPABOT_SHARD_COUNT"] = options.shard_count
    try:
        config = Config.from_env(environ, home=HOME)
    except MissingToken as missing:
        print(missing, file=sys.stderr)
        return 2
    except BadSetting as bad:
        print(f"{bad}.", file=sys.stderr)
        return 2
    guard_logs()  # no hidden card or token in any log line, at any level
    logging.basicConfig(
        level=config.log_level,
        format="%(asctime)s %(levelname)-8s %(name)s: %(message)s",
    )
    with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
        return runner.run(run(config, sync_only=options.sync))


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed (not on Windows), else asyncio's own.

    Every click is a handful of socket reads and writes, timers and callbacks on the loop
    (the gateway's event, the REST calls, the store's and the pictures' hand-offs): uvloop runs
    that loop in C, for less of the bot's CPU a move (docs/speed.md, "The Discord bot").
    aiosqlite, asyncpg and discord.py only use the loop's public interface, which uvloop has.
    """
    try:
        import uvloop
    except ModuleNotFoundError:
        return None
    except Exception as exc:  # installed but broken (a build for another Python, a lost .so)
        log.warning("uvloop is installed but cannot be loaded (%s); using asyncio's loop", exc)
        return None
    return uvloop.new_event_loop


if __name__ == "__main__":
    sys.exit(main())
