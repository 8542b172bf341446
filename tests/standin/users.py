"""The user side: what a person does in the Discord client, and what they get back.

``standin.user("alice")`` is an ``Actor``. Its actions build the same interaction payloads
Discord builds — options typed from the command the bot registered, ``resolved`` users and
channels, the message a button sits on — and refuse what the Discord client would not let a
person do (an unregistered command, a missing required option, a disabled button, someone
else's ephemeral message). Each action waits for the bot's initial response (or the
deadline) and returns an ``InteractionResult`` that stays live as follow-ups arrive.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .interaction_data import Callback, Interaction, InteractionType
from .models import Channel, ChannelType, Command, Message, Payload, User

if TYPE_CHECKING:
    from .server import DiscordStandIn

SUBCOMMAND, GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10


@dataclass
class InteractionResult:
    """What came back for one interaction; properties read the live record."""

    standin: DiscordStandIn
    interaction: Interaction

    @property
    def failed(self) -> bool:
        """True when the bot did not answer in time: the user saw "This interaction failed"."""
        return self.interaction.failed

    @property
    def response(self) -> Callback | None:
        return self.interaction.response

    @property
    def message(self) -> Message | None:
        """The reply (or the updated/deferred message); ``None`` if there is none."""
        return self.interaction.original

    @property
    def followups(self) -> list[Message]:
        return list(self.interaction.followups)

    @property
    def choices(self) -> list[Payload]:
        return list(self.interaction.choices or [])

    @property
    def modal(self) -> Payload | None:
        return self.interaction.modal

    @property
    def messages(self) -> list[Message]:
        first = [self.message] if self.message is not None else []
        return first + self.followups

    async def followup(self, index: int = 0, *, timeout: float = 2.0) -> Message:
        """Wait for follow-up number ``index`` (0 is the first)."""
        await self.standin.wait_for(
            lambda: len(self.interaction.followups) > index, timeout=timeout
        )
        return self.interaction.followups[index]

    async def finished(self, *, timeout: float = 2.0) -> Message:
        """Wait until a deferred reply stops "thinking"; return the reply."""

        def ready() -> Message | None:
            message = self.interaction.original
            return message if message is not None and not message.loading else None

        result: Message = await self.standin.wait_for(ready, timeout=timeout)
        return result


class Actor:
    """A person using Discord: runs commands, clicks, picks, submits, and reads."""

    def __init__(self, standin: DiscordStandIn, user: User, *, locale: str = "it") -> None:
        self.s = standin
        self.user = user
        self.locale = locale

    def __repr__(self) -> str:
        return f"<Actor {self.user.username}>"

    # Where ---------------------------------------------------------------------------------

    def _channel(self, where: Channel | str | None) -> Channel:
        world = self.s.world
        if where is None:
            return next(c for c in world.channels.values() if c.type is ChannelType.GUILD_TEXT)
        if isinstance(where, str):
            return world.dm_channel(self.user) if where == "dm" else world.channel_named(where)
        return where

    @property
    def dm(self) -> Channel:
        return self.s.world.dm_channel(self.user)

    def timeline(self, where: Channel | str | None = None) -> list[Message]:
        return self.s.world.timeline(self._channel(where), self.user)

    # Plain messages --------------------------------------------------------------------------

    async def send(self, content: str, *, channel: Channel | str | None = None) -> Message:
        """Post a plain message as this user (the bot gets MESSAGE_CREATE)."""
        target = self._channel(channel)
        self.s.world.posted_in(target)  # an archived thread opens again
        return self.s.messages.create(target, self.user, {"content": content})

    # Slash commands and autocomplete ---------------------------------------------------------

    async def slash(
        self, command: str, *, channel: Channel | str | None = None, **options: Any
    ) -> InteractionResult:
        """Run ``/command`` (``"scopa new"`` for a subcommand) with typed options."""
        target = self._channel(channel)
        data = self._command_data(command, target, options, focused=None)
        return await self._run(InteractionType.APPLICATION_COMMAND, target, data)

    async def autocomplete(
        self,
        command: str,
        option: str,
        typed: str,
        *,
        channel: Channel | str | None = None,
        **options: Any,
    ) -> list[Payload]:
        """Type ``typed`` into ``option`` of ``/command``; return the choices offered."""
        target = self._channel(channel)
        data = self._command_data(command, target, {**options, option: typed}, focused=option)
        result = await self._run(InteractionType.AUTOCOMPLETE, target, data)
        return result.choices

    def _find_command(self, name: str, channel: Channel) -> Command:
        world = self.s.world
        found = [
            c
            for c in world.commands.values()
            if c.name == name and c.type == 1 and c.guild_id in (None, channel.guild_id)
        ]
        if not found:
            known = sorted({c.name for c in world.commands.values()})
            raise LookupError(
                f"/{name} is not registered with Discord (did the bot sync?); registered: {known}"
            )
        found.sort(key=lambda c: c.guild_id is None)  # guild commands shadow global ones
        return found[0]

    def _command_data(
        self, command: str, channel: Channel, values: Mapping[str, Any], *, focused: str | None
    ) -> Payload:
        name, *path = command.split()
        registered = self._find_command(name, channel)
        data: Payload = {"id": str(registered.id), "name": name, "type": 1}
        if registered.guild_id is not None:
            data["guild_id"] = str(registered.guild_id)
        resolved: Payload = {}
        definitions = registered.data.get("options") or []
        container = data
        for part in path:
            sub = next(
                (o for o in definitions if o["name"] == part and o["type"] in (SUBCOMMAND, GROUP)),
                None,
            )
            if sub is None:
                raise LookupError(f"/{command}: no subcommand {part!r}")
            entry: Payload = {"name": part, "type": sub["type"], "options": []}
            container.setdefault("options", []).append(entry)
            container = entry
            definitions = sub.get("options") or []
        if any(o["type"] in (SUBCOMMAND, GROUP) for o in definitions):
            raise LookupError(f"/{command} needs a subcommand")
        built = []
        for key, value in values.items():
            definition = next((o for o in definitions if o["name"] == key), None)
            if definition is None:
                names = [o["name"] for o in definitions]
                raise LookupError(f"/{command} has no option {key!r}; options: {names}")
            built.append(self._option(definition, value, resolved, focused=key == focused))
        for definition in definitions:
            if definition.get("required") and definition["name"] not in values:
                raise ValueError(f"/{command}: option {definition['name']!r} is required")
        container.setdefault("options", []).extend(built)
        if not container["options"]:
            container.pop("options")
        if resolved:
            data["resolved"] = resolved
        return data

    def _option(
        self, definition: Payload, value: Any, resolved: Payload, *, focused: bool
    ) -> Payload:
        kind = definition["type"]
        option: Payload = {"name": definition["name"], "type": kind}
        if focused:
            option.update(value=str(value), focused=True)
            return option
        choices = definition.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ValueError(
                f"option {definition['name']!r}: {value!r} is not one of the "
                f"choices {[c['value'] for c in choices]}"
            )
        if isinstance(value, (User, Channel)):
            value = self._resolve(value, resolved)
        elif kind == INTEGER:
            value = int(value)
        elif kind == NUMBER:
            value = float(value)
        elif kind == BOOLEAN:
            value = bool(value)
        elif kind == STRING:
            value = str(value)
        option["value"] = value
        return option

    def _resolve(self, value: object, resolved: Payload) -> str:
        """A user's or channel's id, with its data added to ``resolved`` as Discord sends it."""
        if isinstance(value, User):
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            guild = next(iter(self.s.world.guilds.values()), None)
            if guild is not None and value.id in guild.members:
                permissions = guild.permissions_of(value.id)
                member = guild.members[value.id].payload(permissions=permissions)
                del member["user"]
                resolved.setdefault("members", {})[str(value.id)] = member
            return str(value.id)
        if isinstance(value, Channel):
            channel_data = value.payload()
            channel_data["permissions"] = str((1 << 41) - 1)
            resolved.setdefault("channels", {})[str(value.id)] = channel_data
            return str(value.id)
        raise TypeError(f"expected a User or Channel, got {value!r}")

    # Components and modals -------------------------------------------------------------------

    def _usable(self, message: Message) -> None:
        if not self.s.world.sees(self.user.id, message):
            raise PermissionError(f"{self.user.username} cannot see message {message.id}")

    async def click(self, message: Message, button: str) -> InteractionResult:
        """Click the button labelled (or with custom_id) ``button`` on ``message``."""
        self._usable(message)
        found = message.button(button)
        if found.get("disabled"):
            raise PermissionError(f"button {button!r} is disabled")
        if "custom_id" not in found:
            raise ValueError(f"button {button!r} is a link button; it opens {found.get('url')}")
        data = {"custom_id": found["custom_id"], "component_type": 2}
        return await self._run(
            InteractionType.MESSAGE_COMPONENT,
            self.s.world.channels[message.channel_id],
            data,
            source=message,
        )

    async def select(
        self, message: Message, select: str, values: list[str | User | Channel]
    ) -> InteractionResult:
        """Pick ``values`` in the select menu with custom_id or placeholder ``select``.

        String selects take option values; user and channel selects take ``User`` and
        ``Channel`` objects, sent as ids with their ``resolved`` data as Discord does.
        """
        self._usable(message)
        menu = next(
            (c for c in message.selects() if select in (c.get("custom_id"), c.get("placeholder"))),
            None,
        )
        if menu is None:
            raise LookupError(f"no select {select!r} on message {message.id}")
        if menu.get("disabled"):
            raise PermissionError(f"select {select!r} is disabled")
        low, high = menu.get("min_values", 1), menu.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ValueError(f"select {select!r} takes {low} to {high} values, got {len(values)}")
        data: Payload = {"custom_id": menu["custom_id"], "component_type": menu["type"]}
        if menu.get("type") == 3:
            offered = [o["value"] for o in menu.get("options") or []]
            unknown = [v for v in values if v not in offered]
            if unknown:
                raise ValueError(f"select {select!r} does not offer {unknown}; offers {offered}")
            data["values"] = values
        else:
            resolved: Payload = {}
            data["values"] = [self._resolve(v, resolved) for v in values]
            data["resolved"] = resolved
        return await self._run(
            InteractionType.MESSAGE_COMPONENT,
            self.s.world.channels[message.channel_id],
            data,
            source=message,
        )

    async def submit_modal(
        self, shown: InteractionResult, values: Mapping[str, str]
    ) -> InteractionResult:
        """Fill in the modal the bot opened for ``shown`` (custom_id → text) and submit it."""
        modal = shown.modal
        if modal is None:
            raise ValueError("the bot did not open a modal for that interaction")
        components = [self._fill(c, values) for c in modal.get("components") or []]
        unknown = set(values) - {i["custom_id"] for i in _inputs(modal.get("components") or [])}
        if unknown:
            raise LookupError(f"the modal has no field(s) {sorted(unknown)}")
        data = {"custom_id": modal["custom_id"], "components": components}
        origin = shown.interaction
        return await self._run(
            InteractionType.MODAL_SUBMIT, origin.channel, data, source=origin.source
        )

    def _fill(self, component: Payload, values: Mapping[str, str]) -> Payload:
        kind = component.get("type")
        if kind == 1:
            return {
                "type": 1,
                "components": [self._fill(c, values) for c in component.get("components") or []],
            }
        if kind == 18:
            return {"type": 18, "component": self._fill(component["component"], values)}
        custom_id = str(component.get("custom_id"))
        if kind == 4:
            value = values.get(custom_id, component.get("value") or "")
            if component.get("required", True) and not value:
                raise ValueError(f"modal field {custom_id!r} is required")
            return {"type": 4, "custom_id": custom_id, "value": value}
        if kind == 3:
            chosen = values.get(custom_id)
            return {
                "type": 3,
                "custom_id": custom_id,
                "values": [chosen] if isinstance(chosen, str) else list(chosen or []),
            }
        return {"type": kind, "id": component.get("id")}

    # Waiting for the answer ------------------------------------------------------------------

    async def _run(
        self,
        kind: InteractionType,
        channel: Channel,
        data: Payload,
        *,
        source: Message | None = None,
    ) -> InteractionResult:
        standin = self.s
        if not standin.world.can_see(self.user.id, channel):
            raise PermissionError(f"{self.user.username} cannot see {channel.name or 'that DM'}")
        interaction = standin.interactions.start(
            kind, self.user, channel, data, source=source, locale=self.locale
        )
        await standin.wait_for(
            lambda: interaction.response is not None or interaction.failed,
            timeout=standin.response_deadline + 1.0,
        )
        return InteractionResult(standin, interaction)


def _inputs(components: list[Payload]) -> list[Payload]:
    found = []
    for component in components:
        if component.get("type") in (1,):
            found += _inputs(component.get("components") or [])
        elif component.get("type") == 18:
            found += _inputs([component["component"]])
        elif "custom_id" in component:
            found.append(component)
    return found
