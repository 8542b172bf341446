"""Run ScopaBot: read .env, set up logging, open the store (migrating it), connect to Discord.

``python bot.py --sync`` registers the slash commands with Discord now and exits (otherwise
they are synced at start-up only when their definition changed).
``SCOPABOT_DISCORD_API_BASE`` and ``SCOPABOT_DISCORD_GATEWAY`` point it at another Discord;
the end-to-end tests use them to run this very file against the loopback stand-in.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import sys

from dotenv import load_dotenv

from scopabot.bot.config import Config, MissingToken
from scopabot.bot.log_privacy import guard_logs
from scopabot.store import DatabaseError, Store

log = logging.getLogger("scopabot")


async def run(config: Config, *, sync_only: bool = False) -> int:
    # The database is opened (and migrated) before connecting: a damaged, locked or too-new
    # file stops the bot with the store's message instead of failing on the first move. Every
    # page is read first (the quick check) and an existing empty file is refused, not made a
    # new database: both are left untouched for the administrator.
    try:
        store = await Store.open(config.db_path, check=True, expected=True)
    except DatabaseError as exc:
        log.error("%s", exc)
        return 1
    log.info("Database %s ready", config.db_path)
    try:
        return await _serve(config, store, sync_only=sync_only)
    finally:
        await store.close()


def freeze_startup_objects() -> None:
    """Collect once, then take every object made so far out of Python's full collections.

    A full collection walks every tracked object and stops every thread meanwhile, the
    store's SQL thread too, so its pause grows with what start-up made (modules, classes,
    discord.py) and lands on the moves queued behind it (README, "The game store", has the
    figures). ``gc.freeze()`` leaves those objects to reference counting alone. Whether to
    do this is the process's decision, taken once at start-up: here, and in the benches.
    """
    gc.collect()
    gc.freeze()


async def _serve(config: Config, store: Store, *, sync_only: bool = False) -> int:
    import discord

    from scopabot.bot.client import ScopaBot, use_endpoints
    from scopabot.bot.clock import FastClock
    from scopabot.bot.sync import hash_file

    use_endpoints(api_base=config.api_base, gateway=config.gateway)
    clock = FastClock(config.clock_speed) if config.clock_speed else None
    hashes = hash_file(config.db_path)
    if sync_only:
        hashes.unlink(missing_ok=True)
    bot = ScopaBot(
        config,
        store=store,
        clock=clock,
        computer_pause=config.computer_pause,
        hash_path=str(hashes),
    )
    freeze_startup_objects()  # the store is open and discord.py imported: start-up is done
    if sync_only:
        async with bot:
            await bot.login(config.token)  # setup_hook syncs, as the hash is gone
        log.info("Commands synced; exiting")
        return 0
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # Windows
            loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
    try:
        async with bot:
            await bot.start(config.token)
    except discord.LoginFailure:
        log.error("Discord refused the token in DISCORD_TOKEN; reset it in the Developer Portal")
        return 1
    log.info("Stopped")
    return 0


def main() -> int:
    load_dotenv()  # values already in the environment win over .env
    try:
        config = Config.from_env()
    except MissingToken as missing:
        print(missing, file=sys.stderr)
        return 2
    guard_logs()  # no hidden card or token in any log line, at any level
    logging.basicConfig(
        level=config.log_level,
        format="%(asctime)s %(levelname)-8s %(name)s: %(message)s",
    )
    return asyncio.run(run(config, sync_only="--sync" in sys.argv[1:]))


if __name__ == "__main__":
    sys.exit(main())
