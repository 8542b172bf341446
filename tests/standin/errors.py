"""Discord's error bodies and codes, exactly as discord.py reads them.

discord.py only parses a body as JSON when the content type is exactly ``application/json``
(no charset), and builds ``HTTPException.code``/``.text`` from ``code``, ``message`` and the
nested ``errors`` tree; so every response of the stand-in goes through ``json_response``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from aiohttp import web

UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MESSAGE = 10008
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_APPLICATION_COMMAND = 10063
UNKNOWN_INTERACTION = 10062
ALREADY_ACKNOWLEDGED = 40060
CANNOT_SEND_TO_USER = 50007
EMPTY_MESSAGE = 50006
INVALID_WEBHOOK_TOKEN = 50027
INVALID_FORM_BODY = 50035
MISSING_PERMISSIONS = 50013
THREAD_ARCHIVED = 50083


def json_response(
    data: Any, *, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """A JSON response whose Content-Type is exactly ``application/json``."""
    all_headers = {"Content-Type": "application/json", **(headers or {})}
    return web.Response(body=json.dumps(data).encode(), status=status, headers=all_headers)


class DiscordError(Exception):
    """An error the way Discord reports it: HTTP status, JSON error code, message, details.

    The server records every one it returns as a violation; ``recorded`` says one more
    precise (naming the broken rule's field) is already recorded for it.
    """

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: dict[str, Any] | None = None,
        *,
        recorded: bool = False,
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.recorded = recorded

    def body(self) -> dict[str, Any]:
        data: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors
        return data

    def response(self) -> web.Response:
        return json_response(self.body(), status=self.status)


def not_found(code: int, what: str) -> DiscordError:
    return DiscordError(404, code, f"Unknown {what}")


def unknown_interaction() -> DiscordError:
    return not_found(UNKNOWN_INTERACTION, "interaction")


def already_acknowledged() -> DiscordError:
    return DiscordError(400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged.")


def empty_message() -> DiscordError:
    return DiscordError(400, EMPTY_MESSAGE, "Cannot send an empty message")


def invalid_webhook_token() -> DiscordError:
    return DiscordError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")


def cannot_send_to_user() -> DiscordError:
    return DiscordError(403, CANNOT_SEND_TO_USER, "Cannot send messages to this user")


_PATH_PART = re.compile(r"\[(\d+)\]|\.?([^.\[]+)")


def form_body_error(problems: list[tuple[str, str, str]]) -> DiscordError:
    """A 50035 "Invalid Form Body" with Discord's nested ``errors`` tree.

    ``problems`` holds ``(path, code, message)``; a path such as ``components[0].components``
    becomes ``{"components": {"0": {"components": {"_errors": [...]}}}}`` as Discord sends it.
    """
    tree: dict[str, Any] = {}
    for path, code, message in problems:
        node = tree
        for index, key in _PATH_PART.findall(path):
            node = node.setdefault(index or key, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return DiscordError(400, INVALID_FORM_BODY, "Invalid Form Body", tree)


def missing_permissions() -> DiscordError:
    return DiscordError(403, MISSING_PERMISSIONS, "Missing Permissions")


def thread_archived() -> DiscordError:
    """What Discord answers (400, not 403) to an edit or a send an archived thread refuses."""
    return DiscordError(400, THREAD_ARCHIVED, "Thread is archived")
