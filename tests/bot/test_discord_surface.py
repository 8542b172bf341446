"""The parts of discord.py the bot reaches that its documentation does not promise.

discord.py offers no public way for these (``client.use_endpoints`` and the top of
``messages.py`` say why each is needed): a new discord.py that renames or reshapes one must
fail here, by name, rather than as a bot that cannot reach Discord or open a thread.
"""

from __future__ import annotations

import inspect

import discord
import discord.gateway
import discord.http
import yarl

from scopabot.bot import client


def test_the_endpoints_the_stand_in_needs_are_where_the_bot_sets_them() -> None:
    base, gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    try:
        client.use_endpoints(api_base="http://127.0.0.1:1/api/v10/", gateway="ws://127.0.0.1:1/")
        route = discord.http.Route("GET", "/channels/{channel_id}", channel_id=5)
        assert route.url == "http://127.0.0.1:1/api/v10/channels/5"
        assert yarl.URL("ws://127.0.0.1:1/") == discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    finally:
        discord.http.Route.BASE = base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway
    assert isinstance(gateway, yarl.URL)  # what discord.py connects to when nothing is set


def test_the_rest_calls_the_bot_makes_through_the_http_client_keep_their_shape() -> None:
    used = {
        "start_thread_with_message": {"channel_id", "message_id", "name", "auto_archive_duration"},
        "start_thread_without_message": {"channel_id", "name", "auto_archive_duration", "type"},
        "edit_channel": {"channel_id"},
    }
    for name, params in used.items():
        method = getattr(discord.http.HTTPClient, name)
        assert inspect.iscoroutinefunction(method) or callable(method), name
        signature = inspect.signature(method).parameters
        assert params <= set(signature), (name, sorted(signature))
    # ``edit_channel`` takes its fields as keywords; ``archived`` is one Discord reads.
    edit = inspect.signature(discord.http.HTTPClient.edit_channel).parameters
    assert any(p.kind is p.VAR_KEYWORD for p in edit.values())
    assert "archived" in inspect.getsource(discord.http.HTTPClient.edit_channel)


def test_the_bot_never_reads_a_private_attribute_of_discord_py() -> None:
    # ``_x`` on anything but the bot's own objects (``self._x``) is discord.py's private state.
    import ast
    from pathlib import Path

    found = []
    for path in sorted(Path(client.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
            ):
                found.append(f"{path.name}:{node.lineno} {ast.unparse(node)}")
    # os._exit is the standard library's (a picture worker outliving its bot ends at once).
    assert [f for f in found if not f.endswith(" os._exit")] == [], found


def test_a_nonce_given_to_send_goes_with_enforce_nonce() -> None:
    """The bot's hand DMs and deal counts rely on Discord giving back the message a nonce
    made (``messages.Messages.send``): discord.py sends ``enforce_nonce`` with every nonce
    and has no parameter for it, so a new discord.py that stopped would send copies again."""
    with discord.http.handle_message_parameters(content="conta", nonce="count-1-1") as params:
        payload = params.payload
    assert payload is not None
    assert payload["nonce"] == "count-1-1" and payload["enforce_nonce"] is True
    assert "nonce" in inspect.signature(discord.abc.Messageable.send).parameters
