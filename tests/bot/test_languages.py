"""Which language a message speaks (review #5): a server's choice, else its Discord locale;
a table in a DM its host's; a public leaderboard the server's, whoever asked or pages it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from scopabot.bot.context import Langs
from scopabot.bot.settings import settings_text
from scopabot.render.i18n import Lang
from scopabot.service import GuildSettings, updated_settings
from tests.standin import DiscordStandIn

from .helpers import BotProcess


class Settings:
    def __init__(self, servers: dict[int, str | None]) -> None:
        self.servers = servers
        self.locales: dict[int, str] = {}  # as other processes recorded them

    async def get(self, guild_id: int) -> GuildSettings:
        return GuildSettings(guild_id, self.servers.get(guild_id))

    async def discord_locale(self, guild_id: int) -> str | None:
        return self.locales.get(guild_id)


class People:
    def __init__(self, languages: dict[int, str]) -> None:
        self.languages = languages

    async def language(self, user_id: int) -> str | None:
        return self.languages.get(user_id)


class Service:
    """What ``Langs`` reads of the service: people's and servers' saved languages."""

    def __init__(self, servers: dict[int, str | None], people: dict[int, str]) -> None:
        self.settings, self.people = Settings(servers), People(people)


def table(guild_id: int | None, host: int) -> Any:
    return SimpleNamespace(guild_id=guild_id, host=host)


async def test_a_server_without_a_chosen_language_follows_its_discord_locale() -> None:
    locales = {1: "en-US", 2: "it", 3: "en-GB"}
    service: Any = Service({3: "it"}, {})
    langs = Langs(service, guild_locale=locales.get)
    assert await langs.of_guild(1) is Lang.EN  # not Italian by default
    assert await langs.of_guild(2) is Lang.IT
    assert await langs.of_guild(3) is Lang.IT  # a manager's choice wins over the locale
    locales[2] = "en-US"  # the server changed its locale; nobody chose a language
    assert await langs.of_guild(2) is Lang.EN


async def test_a_server_outside_this_processs_shards_speaks_its_recorded_locale() -> None:
    """A tournament's round opened in a process that has no gateway cache of the server
    (issue #18): the locale the server's own process recorded, not English by default."""
    locales = {1: "en-US"}  # the only server in this process's gateway cache
    service: Any = Service({3: "en"}, {})
    service.settings.locales.update({1: "it", 2: "it", 3: "it"})
    langs = Langs(service, guild_locale=locales.get)
    assert await langs.of_guild(2) is Lang.IT  # another process's server, Italian
    assert await langs.of_guild(1) is Lang.EN  # in the cache here: the cache, always current
    assert await langs.of_guild(3) is Lang.EN  # a manager's choice wins over any locale
    assert await langs.of_guild(4) is Lang.EN  # seen by no process: the default
    service.settings.locales[2] = "en-GB"  # its process saw the locale change
    assert await langs.of_guild(2) is Lang.EN


async def test_a_table_in_a_dm_speaks_its_hosts_language() -> None:
    service: Any = Service({}, {7: "it"})
    langs = Langs(service, guild_locale=lambda guild_id: "en-US")
    assert await langs.of_table(table(None, 7)) is Lang.IT
    assert await langs.of_table(table(None, 8)) is Lang.EN  # never seen, nothing saved
    assert await langs.of_table(table(5, 7)) is Lang.EN  # in a server: the server's


async def test_the_public_leaderboard_is_in_the_servers_language(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    bob = threaded.user("bob")
    bob.locale = "en-US"  # bob's Discord speaks English; the server's is Italian
    board = (await bob.slash("scopa leaderboard")).message
    assert board is not None and not board.ephemeral
    assert "Classifica" in board.text(), board.text()
    stats = (await bob.slash("scopa stats")).message  # a reply only bob sees: his language
    assert stats is not None and stats.ephemeral and "Statistics" in stats.text(), stats.text()


async def test_a_score_sheet_in_a_dm_speaks_its_owners_language(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    alice = threaded.user("alice")  # an Italian client
    sheet = (await alice.slash("score start", channel="dm", sides="Noi, Voi")).message
    assert sheet is not None and "Foglio dei punti" in sheet.text(), sheet.text()


def test_settings_keep_an_unchosen_language_unset_and_say_what_it_follows() -> None:
    unset = updated_settings(
        GuildSettings(1), language=None, channel=9, options={"target": 21}, reset=False
    )
    assert unset.language is None  # saving a channel is not choosing Italian
    text = settings_text(unset, Lang.IT, saved=True, locale="en-US")
    assert "messaggi pubblici in inglese, la lingua del server su Discord" in text, text
    chosen = updated_settings(unset, language="it", channel=None, options={}, reset=False)
    assert "messaggi pubblici in italiano\n" in settings_text(chosen, Lang.IT, saved=True)
