"""A small discord.py bot that exercises each capability of the Discord stand-in.

It is written the way the real bot will be (app commands, DynamicItem buttons registered in
``setup_hook``, a persistent select, a modal, Components V2), plus a few commands that break
Discord's rules on purpose so the stand-in's checks can be seen to catch them. Everything the
bot hears back from Discord that is an error lands in ``bot.errors`` for the tests to read.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import discord
from discord import app_commands, ui
from discord.ext import commands
from discord.http import Route
from discord.webhook.async_ import async_context, interaction_response_params

CITIES = ["Bari", "Bologna", "Firenze", "Genova", "Milano", "Napoli", "Palermo", "Roma", "Torino"]
HAND = "Le tue carte: 7♥ 3♠ re di coppe"


class PlayButton(ui.DynamicItem[ui.Button[Any]], template=r"sample:play:(?P<n>\d+)"):
    """A counter button whose state lives in its custom_id, so it survives a restart."""

    def __init__(self, n: int) -> None:
        super().__init__(ui.Button(label=f"Gioca ({n})", custom_id=f"sample:play:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> PlayButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        view = ui.View(timeout=None)
        view.add_item(PlayButton(self.n + 1))
        await interaction.response.edit_message(content=f"giocate: {self.n + 1}", view=view)


class ColourMenu(ui.View):
    """A persistent view (timeout=None, fixed custom_id) re-added in setup_hook."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @ui.select(
        custom_id="sample:colour",
        placeholder="Scegli un seme",
        options=[
            discord.SelectOption(label=s, value=s.lower())
            for s in ("Coppe", "Denari", "Spade", "Bastoni")
        ],
    )
    async def pick(self, interaction: discord.Interaction[Any], select: ui.Select[Any]) -> None:
        await interaction.response.send_message(f"hai scelto {select.values[0]}", ephemeral=True)


class InviteMenu(ui.View):
    @ui.select(cls=ui.UserSelect, custom_id="sample:invite", placeholder="Invita")
    async def invite(
        self, interaction: discord.Interaction[Any], select: ui.UserSelect[Any]
    ) -> None:
        await interaction.response.send_message(f"invitato {select.values[0].name}")


class FeedbackModal(ui.Modal, title="Com'è andata?"):
    """A classic text input (in an action row) and a select inside a Label (type 18)."""

    text: ui.TextInput[Any] = ui.TextInput(label="Commento", custom_id="feedback:text")
    stars: ui.Label[Any] = ui.Label(
        text="Voto",
        component=ui.Select(
            custom_id="feedback:stars",
            options=[discord.SelectOption(label=str(n), value=str(n)) for n in range(1, 6)],
        ),
    )

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        assert isinstance(self.stars.component, ui.Select)
        stars = self.stars.component.values[0]
        await interaction.response.send_message(
            f"grazie: {self.text.value} ({stars}★)", ephemeral=True
        )


class Board(ui.LayoutView):
    """Components V2: a container with text, a separator and a section with a button."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        take: ui.Button[Any] = ui.Button(label="Prendi", custom_id="sample:take")
        take.callback = self.take  # type: ignore[method-assign]
        section: ui.Section[Any] = ui.Section(ui.TextDisplay("Tavolo: 1♦ 5♣"), accessory=take)
        self.add_item(ui.Container(ui.TextDisplay("## Partita"), ui.Separator(), section))

    async def take(self, interaction: discord.Interaction[Any]) -> None:
        """A classic reply (content, no flags) to a button on a V2 message: a new message."""
        await interaction.response.send_message("preso")


class SampleBot(commands.Bot):
    """``shard_id`` and ``shard_count`` make it one shard of several (discord.py's own)."""

    def __init__(self, **shard: int) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            guild_ready_timeout=0.01,
            **shard,
        )
        self.interactions_seen: list[int | None] = []  # the guild of each, None in a DM
        self.errors: list[discord.HTTPException] = []
        self.seen_messages: list[str] = []
        self.edits_seen: list[int] = []
        self.ready_count = 0
        self.resumed_count = 0
        self.release = asyncio.Event()
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        add_commands(self.tree, self)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(PlayButton)
        self.add_view(ColourMenu())

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s before a re-IDENTIFY for Discord's sake; the stand-in needn't."""

    async def on_ready(self) -> None:
        self.ready_count += 1

    async def on_resumed(self) -> None:
        self.resumed_count += 1

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        self.interactions_seen.append(interaction.guild_id)

    async def on_message(self, message: discord.Message) -> None:
        self.seen_messages.append(message.content)

    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        self.edits_seen.append(payload.message_id)

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        cause = getattr(error, "original", error)
        if isinstance(cause, discord.HTTPException):
            self.errors.append(cause)
        else:
            raise error

    async def raw_send(self, channel_id: int, payload: dict[str, Any]) -> Any:
        """Send a body exactly as given, past discord.py's own checks, like a buggy bot."""
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
        return await self.http.request(route, json=payload)


def add_commands(tree: app_commands.CommandTree[Any], bot: SampleBot) -> None:
    @tree.command(description="Ripete il testo")
    @app_commands.describe(text="cosa dire", times="quante volte")
    async def echo(interaction: discord.Interaction[Any], text: str, times: int = 1) -> None:
        await interaction.response.send_message(text * times)

    @tree.command(description="Le tue carte, solo per te")
    async def hand(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(HAND, ephemeral=True)

    @tree.command(description="Mostra le carte a tutti (sbagliato)")
    async def show(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(HAND)

    @tree.command(description="Ci pensa un po'")
    async def slow(
        interaction: discord.Interaction[Any], seconds: float, ephemeral: bool = False
    ) -> None:
        await interaction.response.defer(thinking=True, ephemeral=ephemeral)
        await asyncio.sleep(seconds)
        await interaction.followup.send("fatto", ephemeral=ephemeral)
        await interaction.followup.send("e ancora", ephemeral=ephemeral)

    @tree.command(description="Risponde in ritardo")
    async def late(interaction: discord.Interaction[Any], seconds: float) -> None:
        await asyncio.sleep(seconds)
        await interaction.response.send_message("eccomi")

    @tree.command(description="Aspetta il via del test, poi risponde")
    async def gate(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer()
        await bot.release.wait()
        await interaction.followup.send("via")

    @tree.command(description="Non risponde (sbagliato)")
    async def silent(interaction: discord.Interaction[Any]) -> None:
        pass

    @tree.command(description="Risponde con un messaggio vuoto (sbagliato)")
    async def empty(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message()

    @tree.command(description="Risponde due volte")
    async def double(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("uno")
        adapter = async_context.get()
        await adapter.create_interaction_response(  # past discord.py's own guard
            interaction.id,
            interaction.token,
            session=interaction._session,
            params=interaction_response_params(4, {"content": "due"}),
        )

    @tree.command(description="Cerca una città")
    async def city(interaction: discord.Interaction[Any], name: str) -> None:
        await interaction.response.send_message(f"città: {name}")

    @city.autocomplete("name")
    async def city_names(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=c, value=c)
            for c in CITIES
            if c.lower().startswith(current.lower())
        ]

    @tree.command(description="Troppe scelte")
    async def many(interaction: discord.Interaction[Any], pick: str) -> None:
        await interaction.response.send_message(pick)

    @many.autocomplete("pick")
    async def many_choices(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=f"n{i}", value=str(i)) for i in range(26)]

    @tree.command(description="Un tavolo con bottoni")
    async def table(interaction: discord.Interaction[Any]) -> None:
        view = ui.View(timeout=None)
        view.add_item(PlayButton(0))
        await interaction.response.send_message("giocate: 0", view=view)
        await interaction.followup.send("semi", view=ColourMenu())

    @tree.command(description="Invita qualcuno")
    async def invite(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("chi inviti?", view=InviteMenu())

    @tree.command(description="Un tavolo Components V2")
    async def board(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(view=Board())

    @tree.command(description="Lascia un commento")
    async def feedback(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_modal(FeedbackModal())

    @tree.command(description="Manda un messaggio privato")
    async def dm(interaction: discord.Interaction[Any], user: discord.User) -> None:
        try:
            await user.send(f"ciao {user.name}")
        except discord.Forbidden as error:
            bot.errors.append(error)
            await interaction.response.send_message(
                f"non posso scrivere a {user.name}", ephemeral=True
            )
        else:
            await interaction.response.send_message("inviato", ephemeral=True)

    @tree.command(description="Apre un thread")
    async def thread(interaction: discord.Interaction[Any], name: str) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        created = await interaction.channel.create_thread(
            name=name, type=discord.ChannelType.public_thread
        )
        await created.send("benvenuti")
        await created.add_user(interaction.user)
        await interaction.response.send_message(created.mention)

    @tree.command(description="Scrive e corregge")
    async def edit(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True)
        assert interaction.channel is not None
        message = await interaction.channel.send("uno")  # type: ignore[union-attr]
        await message.edit(content="due")
        await message.edit(content="tre")
        await interaction.edit_original_response(content="corretto")
