"""Interactions: what the bot receives, and the rules Discord holds its answers to.

An interaction is created by the user-side API, sent to the bot as INTERACTION_CREATE, and
then answered through two webhook-style routes that need no bot token:

* ``POST /interactions/{id}/{token}/callback`` — the one initial response, within the
  deadline (3 s on Discord; ``DiscordStandIn(response_deadline=…)``), else 10062; a second
  one gets 40060. With ``?with_response=1`` (discord.py always asks) the answer is the
  ``{interaction, resource}`` object, the resource carrying the message for types 4 and 7.
* ``/webhooks/{application_id}/{token}`` — follow-ups and ``@original`` edits, valid for 15
  minutes of the world clock. The first follow-up after a deferral (type 5) replaces the
  "thinking" message instead of posting a new one, as Discord does.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from . import errors
from .errors import DiscordError, form_body_error, not_found
from .interaction_data import (
    ALLOWED,
    Callback,
    Interaction,
    InteractionType,
    callback_response,
    create_payload,
    metadata,
)
from .models import EPHEMERAL, LOADING, Channel, Message, Payload, User, strings_in
from .violations import Violation

if TYPE_CHECKING:
    from .dispatch import Call, Reply
    from .rest import RouteSpec
    from .server import DiscordStandIn


class Interactions:
    def __init__(self, standin: DiscordStandIn) -> None:
        self.s = standin
        self.world = standin.world
        self.by_id: dict[int, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}

    def routes(self) -> list[RouteSpec]:
        hook = "/webhooks/{webhook_id}/{webhook_token}"
        return [
            (
                "POST",
                "/interactions/{interaction_id}/{interaction_token}/callback",
                self.callback,
                False,
            ),
            ("POST", hook, self.followup, False),
            ("GET", f"{hook}/messages/@original", self.get_message, False),
            ("PATCH", f"{hook}/messages/@original", self.edit_message, False),
            ("DELETE", f"{hook}/messages/@original", self.delete_message, False),
            ("GET", f"{hook}/messages/{{message_id}}", self.get_message, False),
            ("PATCH", f"{hook}/messages/{{message_id}}", self.edit_message, False),
            ("DELETE", f"{hook}/messages/{{message_id}}", self.delete_message, False),
        ]

    # Starting an interaction (the user side calls this) -------------------------------------

    def start(
        self,
        kind: InteractionType,
        user: User,
        channel: Channel,
        data: Payload,
        *,
        source: Message | None = None,
        locale: str = "it",
    ) -> Interaction:
        if self.s.gateway.current is None:
            raise RuntimeError("no bot is connected to the stand-in")
        interaction = Interaction(
            id=self.world.ids.next(),
            token="aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48),
            type=kind,
            user=user,
            channel=channel,
            data=data,
            created_at=self.world.clock.now(),
            locale=locale,
            source=source,
        )
        self.by_id[interaction.id] = interaction
        self.by_token[interaction.token] = interaction
        interaction.timer = asyncio.get_running_loop().call_later(
            self.s.response_deadline, self._deadline_passed, interaction
        )
        self.s.gateway.dispatch(
            "INTERACTION_CREATE", create_payload(interaction, self.world, self.s.messages)
        )
        return interaction

    def _deadline_passed(self, interaction: Interaction) -> None:
        if interaction.response is None:
            self._fail(interaction)

    def _fail(self, it: Interaction) -> None:
        """The user saw "This interaction failed": a violation, recorded once."""
        if it.failed:
            return
        it.failed = True
        deadline = self.s.response_deadline
        self.s.violate(
            Violation(
                "failed",
                str(it),
                "",
                f'no answer within {deadline:g} s: {it.user.username} saw "This interaction '
                'failed"',
                code=errors.UNKNOWN_INTERACTION,
            )
        )

    def cancel_timers(self) -> None:
        for interaction in self.by_id.values():
            if interaction.timer is not None:
                interaction.timer.cancel()

    # The initial response ------------------------------------------------------------------------

    async def callback(self, call: Call) -> Reply | None:
        from .dispatch import Reply

        it = self.by_id.get(call.snowflake("interaction_id"))
        if it is None or it.token != call.params["interaction_token"]:
            raise errors.unknown_interaction()
        if it.failed or self.world.clock.now() - it.created_at > self.s.response_deadline:
            self._fail(it)
            raise errors.unknown_interaction()
        if it.response is not None:
            raise errors.already_acknowledged()
        body = call.body or {}
        try:
            kind = Callback(int(body.get("type", 0)))
        except ValueError:
            raise form_body_error(
                [
                    (
                        "type",
                        "BASE_TYPE_CHOICES",
                        f"Value must be one of {[int(c) for c in Callback]}.",
                    )
                ]
            ) from None
        if kind not in ALLOWED[it.type] or (
            kind in (Callback.DEFERRED_UPDATE_MESSAGE, Callback.UPDATE_MESSAGE)
            and it.source is None
        ):
            problem = (
                f"callback type {kind.name} ({int(kind)}) is not valid for a "
                f"{it.type.name} interaction"
            )
            self.s.violate(
                Violation(
                    "limit",
                    f"{call.method} {call.route} ({it})",
                    "type",
                    problem,
                    code=errors.INVALID_FORM_BODY,
                )
            )
            error = form_body_error([("type", "INTERACTION_RESPONSE_TYPE_INVALID", problem)])
            error.recorded = True
            raise error
        data = body.get("data") or {}
        self._respond(it, kind, data, call.files)
        if it.timer is not None:
            it.timer.cancel()
        self.world.touch()
        if call.query.get("with_response", "").lower() not in ("1", "true"):
            return None
        return Reply(callback_response(it, kind, self.s.messages))

    def _respond(
        self, it: Interaction, kind: Callback, data: Payload, files: list[Payload]
    ) -> None:
        app_id = self.world.application_id
        ephemeral_to = it.user.id if int(data.get("flags") or 0) & EPHEMERAL else None
        message_type = 20 if it.type is InteractionType.APPLICATION_COMMAND else 0
        it.response = kind
        if kind is Callback.CHANNEL_MESSAGE:
            it.original = self.s.messages.create(
                it.channel,
                self.world.bot,
                data,
                files=files,
                ephemeral_to=ephemeral_to,
                webhook_id=app_id,
                application_id=app_id,
                type=message_type,
                interaction_metadata=metadata(it),
            )
        elif kind is Callback.DEFERRED_CHANNEL_MESSAGE:
            it.original = self.s.messages.create(
                it.channel,
                self.world.bot,
                {"flags": data.get("flags")},
                ephemeral_to=ephemeral_to,
                webhook_id=app_id,
                application_id=app_id,
                type=message_type,
                interaction_metadata=metadata(it),
                flags=LOADING,
            )
        elif kind is Callback.DEFERRED_UPDATE_MESSAGE:
            it.original = it.source
        elif kind is Callback.UPDATE_MESSAGE:
            assert it.source is not None
            it.original = self.s.messages.edit(it.source, data, files=files)
        elif kind is Callback.AUTOCOMPLETE_RESULT:
            it.choices = list(data.get("choices") or [])
            self._check_privacy(it, f"the choices of {it}", strings_in(it.choices, "choices"))
        elif kind is Callback.MODAL:
            it.modal = data
            self._check_privacy(it, f"the modal for {it}", strings_in(data, "data"))

    def _check_privacy(self, it: Interaction, what: str, received: Iterable[Any]) -> None:
        """Modals and choices are seen by the person who used the command, and only them."""
        privacy = self.s.privacy
        for leak in privacy.check_shown(what, list(received), [it.user], channel_id=it.channel.id):
            self.s.leaked(leak)

    # Follow-ups and edits through the interaction webhook ------------------------------------

    def _by_token(self, call: Call) -> Interaction:
        if call.snowflake("webhook_id") != self.world.application_id:
            raise not_found(errors.UNKNOWN_WEBHOOK, "Webhook")
        it = self.by_token.get(call.params["webhook_token"])
        if it is None or it.response is None:
            raise not_found(errors.UNKNOWN_WEBHOOK, "Webhook")
        if self.world.clock.now() - it.created_at > self.s.token_lifetime:
            raise errors.invalid_webhook_token()
        return it

    def _target(self, call: Call, it: Interaction) -> Message:
        if "message_id" not in call.params:
            message = it.original
        else:
            wanted = call.snowflake("message_id")
            message = next((m for m in [it.original, *it.followups] if m and m.id == wanted), None)
        if message is None or message.deleted:
            raise not_found(errors.UNKNOWN_MESSAGE, "Message")
        return message

    async def followup(self, call: Call) -> Payload | None:
        it = self._by_token(call)
        body = call.body or {}
        original = it.original
        if (
            it.response is Callback.DEFERRED_CHANNEL_MESSAGE
            and original is not None
            and original.loading
            and not original.deleted
        ):
            message = self.s.messages.edit(original, body, files=call.files, finish_loading=True)
        else:
            ephemeral_to = it.user.id if int(body.get("flags") or 0) & EPHEMERAL else None
            app_id = self.world.application_id
            message = self.s.messages.create(
                it.channel,
                self.world.bot,
                body,
                files=call.files,
                ephemeral_to=ephemeral_to,
                webhook_id=app_id,
                application_id=app_id,
                interaction_metadata=metadata(it),
            )
            it.followups.append(message)
        if call.query.get("wait", "").lower() not in ("1", "true"):
            return None
        return self.s.messages.payload(message)

    async def get_message(self, call: Call) -> Payload:
        return self.s.messages.payload(self._target(call, self._by_token(call)))

    async def edit_message(self, call: Call) -> Payload:
        message = self._target(call, self._by_token(call))
        edited = self.s.messages.edit(
            message, call.body or {}, files=call.files, finish_loading=True
        )
        return self.s.messages.payload(edited)

    async def delete_message(self, call: Call) -> None:
        self.s.messages.delete(self._target(call, self._by_token(call)))

    # Context for the request validator (must not raise) --------------------------------------

    def message_for_edit(self, call: Call) -> Message | None:
        try:
            if "webhook_token" in call.params:
                return self._target(call, self._by_token(call))
            return self.world.messages.get(int(call.params["message_id"]))
        except (DiscordError, ValueError, KeyError):
            return None

    def source_message(self, call: Call) -> Message | None:
        raw = call.params.get("interaction_id", "")
        it = self.by_id.get(int(raw)) if raw.isdigit() else None
        return it.source if it is not None else None

    def describe_request(self, route: str | None, path: str) -> str | None:
        """The interaction a request answers (for naming a refused answer), if any."""
        parts = path.strip("/").split("/")
        it: Interaction | None = None
        if route and route.startswith("/interactions/") and parts[1].isdigit():
            it = self.by_id.get(int(parts[1]))
        elif route and route.startswith("/webhooks/") and len(parts) > 2:
            it = self.by_token.get(parts[2])
        return f"answering {it}" if it is not None else None

    def find(self, **conditions: Any) -> list[Interaction]:
        return [
            it
            for it in self.by_id.values()
            if all(getattr(it, k) == v for k, v in conditions.items())
        ]
