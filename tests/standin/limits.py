"""The limits Discord enforces that its OpenAPI description does not encode.

2,000 characters of content, 5 action rows of at most 5 buttons, a select alone in its row,
unique custom_ids, 6,000 characters of embeds, 25 autocomplete choices, 5 modal rows, the
Components V2 rules (flag 1<<15 kept once set, no content, embeds or poll, 40 components in
all, 4,000 characters of text displays), attachments (10 a message, 10 MiB a file, every
``attachment://`` a component shows naming one of the message's files) and the empty
message Discord refuses with 50006.
Each problem names the field (``data.components[0].components[5]``) so the failing test says
what was wrong.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .models import IS_COMPONENTS_V2, Message, Payload
from .validation import Problem, join

MAX_CONTENT = 2000
MAX_EMBED_CHARS = 6000
MAX_ACTION_ROWS = 5
MAX_ROW_ITEMS = 5
MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000
MAX_CHOICES = 25
MAX_MODAL_COMPONENTS = 5
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
TEXT_DISPLAY = 10
MAX_ATTACHMENTS = 10
MAX_FILE_BYTES = 10 * 1024 * 1024  # a bot's upload limit without server boosts
ATTACHMENT_SCHEME = "attachment://"


def check_message(body: Payload, prefix: str = "", *, current_flags: int = 0) -> list[Problem]:
    """Limits Discord enforces on a message body (create, edit, interaction reply, webhook)."""
    problems: list[Problem] = []
    flags = body.get("flags")
    flags = current_flags if flags is None else flags
    v2 = bool(flags & IS_COMPONENTS_V2)
    content = body.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        problems.append(
            Problem(
                join(prefix, "content"),
                f"must be {MAX_CONTENT} or fewer in length (got {len(content)})",
            )
        )
    embeds = body.get("embeds") or []
    total = sum(_embed_length(e) for e in embeds if isinstance(e, dict))
    if total > MAX_EMBED_CHARS:
        problems.append(
            Problem(
                join(prefix, "embeds"),
                f"embeds total {total} characters; the limit is {MAX_EMBED_CHARS}",
            )
        )
    components = body.get("components")
    if isinstance(components, list):
        problems += _check_components(components, join(prefix, "components"), v2=v2)
    if current_flags & IS_COMPONENTS_V2 and body.get("flags") is not None and not v2:
        problems.append(
            Problem(
                join(prefix, "flags"),
                "IS_COMPONENTS_V2 (1<<15) cannot be removed from a message sent with it",
            )
        )
    if v2:
        for key in ("content", "embeds", "poll"):
            if body.get(key):
                problems.append(
                    Problem(
                        join(prefix, key),
                        "cannot be used with IS_COMPONENTS_V2 (flags "
                        "1<<15); put text in a TextDisplay",
                    )
                )
    return problems


def check_files(
    body: Payload, files: list[Payload], prefix: str = "", *, current: Message | None = None
) -> list[Problem]:
    """Attachments: at most 10 a message and 10 MiB a file, and each ``attachment://`` a
    component shows (a gallery item, a thumbnail, a file) names a file the message has after
    this request (uploaded with it, or kept from ``current``): else it shows a broken image."""
    problems: list[Problem] = []
    wanted = body.get("attachments")
    count = max(len(files), len(wanted) if isinstance(wanted, list) else 0)
    if count > MAX_ATTACHMENTS:
        problems.append(
            Problem(
                join(prefix, "attachments"),
                f"{count} attachments; a message allows {MAX_ATTACHMENTS}",
            )
        )
    for f in files:
        if int(f.get("size") or 0) > MAX_FILE_BYTES:
            problems.append(
                Problem(
                    f"files[{f.get('index')}]",
                    f"{f.get('filename')!r} is {f['size']} bytes; the limit is {MAX_FILE_BYTES}",
                )
            )
    components = body.get("components")
    if isinstance(components, list):
        names = _attached_names(body, files, current)
        for path, url in _media_urls(components, join(prefix, "components")):
            if url.startswith(ATTACHMENT_SCHEME) and url[len(ATTACHMENT_SCHEME) :] not in names:
                problems.append(
                    Problem(path, f"{url!r} names no attachment of the message ({sorted(names)})")
                )
    return problems


def _attached_names(body: Payload, files: list[Payload], current: Message | None) -> set[str]:
    kept = {str(a["id"]): a.get("filename") for a in (current.attachments if current else [])}
    wanted = body.get("attachments")
    if not isinstance(wanted, list):
        return {str(n) for n in kept.values()} | {str(f["filename"]) for f in files}
    uploads = {str(f["index"]): f["filename"] for f in files if f.get("index") is not None}
    names = {str(f["filename"]) for f in files if f.get("index") is None}
    for item in wanted:
        if not isinstance(item, dict):
            continue
        key = str(item.get("id"))
        if key in kept:
            names.add(str(kept[key]))
        elif key in uploads:
            names.add(str(item.get("filename") or uploads[key]))
    return names


def _media_urls(components: list[Any], prefix: str) -> Iterator[tuple[str, str]]:
    """The media URLs of gallery items (12), thumbnails (11) and files (13)."""
    for path, component in _walk(components, prefix):
        kind = component.get("type")
        if kind == 12:
            for i, item in enumerate(component.get("items") or []):
                url = ((item or {}).get("media") or {}).get("url")
                if isinstance(url, str):
                    yield f"{path}.items[{i}].media.url", url
        elif kind in (11, 13):
            key = "media" if kind == 11 else "file"
            url = (component.get(key) or {}).get("url")
            if isinstance(url, str):
                yield f"{path}.{key}.url", url


def _check_components(components: list[Any], prefix: str, *, v2: bool) -> list[Problem]:
    problems: list[Problem] = []
    if v2:
        count = sum(1 for _ in _walk(components, prefix))
        if count > MAX_V2_COMPONENTS:
            problems.append(
                Problem(
                    prefix,
                    f"{count} components in all; a Components V2 message allows "
                    f"{MAX_V2_COMPONENTS}",
                )
            )
        text = sum(
            len(c["content"])
            for _, c in _walk(components, prefix)
            if c.get("type") == TEXT_DISPLAY and isinstance(c.get("content"), str)
        )
        if text > MAX_V2_TEXT:
            problems.append(
                Problem(
                    prefix,
                    f"text displays total {text} characters; a Components V2 message allows "
                    f"{MAX_V2_TEXT}",
                )
            )
    else:
        if len(components) > MAX_ACTION_ROWS:
            problems.append(
                Problem(prefix, f"{len(components)} action rows; the limit is {MAX_ACTION_ROWS}")
            )
        for i, top in enumerate(components):
            if isinstance(top, dict) and top.get("type") != 1:
                problems.append(
                    Problem(
                        join(prefix, i),
                        f"component type {top.get('type')} at top level "
                        "needs the IS_COMPONENTS_V2 flag (1<<15); classic messages take "
                        "action rows only",
                    )
                )
    seen: dict[str, str] = {}
    for path, component in _walk(components, prefix):
        if component.get("type") == 1:
            problems += _check_row(component.get("components") or [], join(path, "components"))
        custom_id = component.get("custom_id")
        if isinstance(custom_id, str):
            if custom_id in seen:
                problems.append(
                    Problem(
                        join(path, "custom_id"),
                        f"duplicate custom_id {custom_id!r} (also at {seen[custom_id]})",
                    )
                )
            else:
                seen[custom_id] = join(path, "custom_id")
    return problems


def _check_row(children: list[Any], prefix: str) -> list[Problem]:
    problems: list[Problem] = []
    kinds = [c.get("type") for c in children if isinstance(c, dict)]
    selects = [i for i, kind in enumerate(kinds) if kind in SELECT_TYPES]
    if selects and len(kinds) > 1:
        problems.append(
            Problem(
                join(prefix, selects[0]),
                f"a select menu must be alone in its action row "
                f"(this row has {len(kinds)} components)",
            )
        )
    if len(kinds) > MAX_ROW_ITEMS:
        problems.append(
            Problem(
                prefix, f"{len(kinds)} components in one action row; the limit is {MAX_ROW_ITEMS}"
            )
        )
    return problems


def _walk(components: list[Any], prefix: str) -> Iterator[tuple[str, Payload]]:
    for i, component in enumerate(components):
        if not isinstance(component, dict):
            continue
        path = join(prefix, i)
        yield path, component
        yield from _walk(component.get("components") or [], join(path, "components"))
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                yield from _walk([component[key]], path + f".{key}")


def _embed_length(embed: Payload) -> int:
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    for f in embed.get("fields") or []:
        total += len(f.get("name") or "") + len(f.get("value") or "")
    return total


def empty_after(body: Payload, files: list[Payload], current: Message | None) -> bool:
    """Whether the message ``body`` makes (or leaves ``current`` as) shows nothing at all.

    Discord refuses such a message with 50006 "Cannot send an empty message"; whitespace is
    not content.
    """

    content = body.get("content", current.content if current else "")
    embeds = body.get("embeds", current.embeds if current else []) or body.get("embed")
    components = body.get("components", current.components if current else [])
    attachments = body.get("attachments", current.attachments if current else [])
    poll = body.get("poll", current.poll if current else None)
    shown = (
        (content or "").strip(),
        embeds,
        components,
        attachments,
        files,
        poll,
        body.get("sticker_ids"),
    )
    return not any(shown)


def check_callback(body: Payload, *, current_flags: int = 0) -> list[Problem]:
    """Limits on an interaction callback: its message, choices or modal, by callback type."""
    kind = body.get("type")
    data = body.get("data") or {}
    if not isinstance(data, dict):
        return []
    if kind in (4, 5):  # a new message: the flags of the one whose button was used don't apply
        return check_message(data, "data")
    if kind == 7:
        return check_message(data, "data", current_flags=current_flags)
    if kind == 8:
        choices = data.get("choices") or []
        if len(choices) > MAX_CHOICES:
            return [
                Problem(
                    "data.choices",
                    f"{len(choices)} autocomplete choices; the limit is {MAX_CHOICES}",
                )
            ]
    if kind == 9:
        components = data.get("components") or []
        problems = []
        if len(components) > MAX_MODAL_COMPONENTS:
            problems.append(
                Problem(
                    "data.components",
                    f"{len(components)} components in a modal; the limit is {MAX_MODAL_COMPONENTS}",
                )
            )
        seen: set[str] = set()
        for path, component in _walk(components, "data.components"):
            custom_id = component.get("custom_id")
            if isinstance(custom_id, str):
                if custom_id in seen:
                    problems.append(
                        Problem(join(path, "custom_id"), f"duplicate custom_id {custom_id!r}")
                    )
                seen.add(custom_id)
        return problems
    return []
