"""Register the slash commands with Discord only when their definition changed.

Syncing at every start wastes a rate-limited call and, for global commands, can briefly show
stale commands; so the hash of the translated definition is kept in a file next to the
database (``<db>.commands``), and ``scopabot sync`` (which deletes that file) forces it.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

from discord.ext import commands

Bot = commands.Bot | commands.AutoShardedBot

log = logging.getLogger(__name__)

SUFFIX = ".commands"


def hash_file(db_path: str) -> Path:
    return Path(db_path + SUFFIX)


async def definition(bot: Bot) -> list[dict[str, Any]]:
    tree = bot.tree
    translator = tree.translator
    found = []
    for command in tree.get_commands():
        if translator is not None:
            found.append(await command.get_translated_payload(tree, translator))
        else:
            found.append(command.to_dict(tree))
    return found


async def definition_hash(bot: Bot) -> str:
    text = json.dumps(await definition(bot), sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


async def sync_if_changed(bot: Bot, path: str | Path | None, *, force: bool = False) -> bool:
    """Sync when the definition differs from the one last synced (or ``force``); True if so."""
    digest = await definition_hash(bot)
    stored = Path(path) if path is not None else None
    unchanged = stored is not None and stored.exists() and stored.read_text().strip() == digest
    if unchanged and not force:
        log.info("Commands unchanged since the last sync; not syncing")
        return False
    await bot.tree.sync()
    log.info("Commands synced with Discord (%d top-level)", len(bot.tree.get_commands()))
    if stored is not None:
        try:
            stored.write_text(digest + "\n")
        except OSError as error:
            log.warning("could not remember the synced commands in %s: %s", stored, error)
    return True
