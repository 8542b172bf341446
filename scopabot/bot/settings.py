"""``/scopa settings``: a server's language, default options and game channel.

Only server managers (the "Manage Server" permission) change them, checked here at run time
from the permissions Discord sends with the interaction: ``default_member_permissions``
would hide the command from others, but Discord applies it to top-level commands only
(discord.py: the decorator "does nothing in subcommands and is ignored"), and a server can
give any command to anyone in its Integrations settings anyway.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.app_commands import locale_str as _

from scopabot.render.i18n import Lang, lang_of, tr
from scopabot.render.rules import rules_lines
from scopabot.service import GuildSettings, RuleChoices, Rules

from .actions import say
from .choices import RULE_OPTION_DESCRIPTIONS, RULE_OPTION_NAMES

if TYPE_CHECKING:
    from .client import ScopaBot

LANGUAGES = [Choice(name=_("Italian"), value="it"), Choice(name=_("English"), value="en")]


def settings_text(
    settings: GuildSettings, lang: Lang, *, saved: bool, locale: str | None = None
) -> str:
    """The settings as a manager reads them after a change (or when asking with no option);
    ``locale`` is the server's Discord locale, which public messages follow until a manager
    chooses their language."""
    channel = (
        f"<#{settings.game_channel_id}>"
        if settings.game_channel_id
        else tr("settings.anywhere", lang)
    )
    options = tr("settings.none", lang)
    if settings.default_rules:
        options = "; ".join(rules_lines(Rules.from_dict(settings.default_rules), lang)[1:])
    lines = [
        f"**{tr('settings.saved' if saved else 'settings.title', lang)}**",
        "- " + language_line(settings.language, lang, locale=locale),
        "- " + tr("settings.channel", lang, channel=channel),
        "- " + tr("settings.defaults", lang, options=options),
    ]
    return "\n".join(lines)


def language_line(chosen: str | None, lang: Lang, *, locale: str | None) -> str:
    if chosen:
        return tr("settings.language", lang, language=tr(f"language.{chosen}", lang))
    language = tr(f"language.{lang_of(locale).value}", lang)
    return tr("settings.language_auto", lang, language=language)


def setup(bot: ScopaBot) -> None:
    """Nothing to make: a server's settings are the service's, read when asked."""


@app_commands.command(
    name=_("settings"),
    description=_("Server settings (managers): language, default options, game channel"),
)
@app_commands.rename(
    language=_("language"),
    channel=_("game_channel"),
    **RULE_OPTION_NAMES,
    reset=_("reset"),
)
@app_commands.describe(
    language=_("The language of public messages"),
    channel=_("Where new tables are opened"),
    **RULE_OPTION_DESCRIPTIONS,
    reset=_("Forget the default options and the game channel first"),
)
@app_commands.choices(language=LANGUAGES)
@app_commands.guild_only()
async def settings(
    interaction: discord.Interaction[ScopaBot],
    language: str | None = None,
    channel: discord.TextChannel | None = None,
    target: app_commands.Range[int, 1, 101] | None = None,
    deals: app_commands.Range[int, 1, 20] | None = None,
    asso_piglia_tutto: bool | None = None,
    napola: bool | None = None,
    re_bello: bool | None = None,
    reset: bool = False,
) -> None:
    bot = interaction.client
    lang = await bot.langs.of_interaction(interaction)
    guild_id = interaction.guild_id
    if guild_id is None or not interaction.permissions.manage_guild:
        await say(interaction, tr("err.not_manager", lang))
        return
    options = RuleChoices(
        target=target,
        deals=deals,
        asso_piglia_tutto=asso_piglia_tutto,
        napola=napola,
        re_bello=re_bello,
    )
    changed = bool(options.any_made or language or channel or reset)
    if changed:  # the service merges and checks them (a target replaces deals and back)
        current = await bot.service.settings.change(
            guild_id,
            language=language,
            channel=channel.id if channel else None,
            options=options,
            reset=reset,
        )
        bot.langs.forget_guild(guild_id)
    else:
        current = await bot.service.settings.get(guild_id)
    locale = None if interaction.guild_locale is None else str(interaction.guild_locale)
    await say(interaction, settings_text(current, lang, saved=changed, locale=locale))
