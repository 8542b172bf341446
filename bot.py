"""Run ScopaBot: read .env, set up logging, open the store (migrating it), connect to Discord.

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
from scopabot.store import DatabaseError, Store

log = logging.getLogger("scopabot")


async def run(config: Config) -> int:
    # The database is opened (and migrated) before connecting: a damaged, locked or too-new
    # file stops the bot with the store's message instead of failing on the first move.
    try:
        store = await Store.open(config.db_path)
    except DatabaseError as exc:
        log.error("%s", exc)
        return 1
    log.info("Database %s ready", config.db_path)
    try:
        return await _serve(config)
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


async def _serve(config: Config) -> int:
    import discord

    from scopabot.bot.client import ScopaBot, use_endpoints

    use_endpoints(api_base=config.api_base, gateway=config.gateway)
    bot = ScopaBot(config)
    freeze_startup_objects()  # the store is open and discord.py imported: start-up is done
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
    logging.basicConfig(
        level=config.log_level,
        format="%(asctime)s %(levelname)-8s %(name)s: %(message)s",
    )
    return asyncio.run(run(config))


if __name__ == "__main__":
    sys.exit(main())
