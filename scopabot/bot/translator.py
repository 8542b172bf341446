"""Command names, descriptions and choices in the person's language (Discord shows them)."""

from __future__ import annotations

import discord
from discord import app_commands

from scopabot.render.commands import ITALIAN


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is discord.Locale.italian:
            return ITALIAN.get(string.message)
        return None
