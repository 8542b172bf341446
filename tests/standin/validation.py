"""Checks every request body the bot sends, against Discord's OpenAPI spec and its hidden limits.

Two layers, because neither is enough alone:

* the official OpenAPI description (``specs/openapi.json`` of the public repository
  discord/discord-api-spec, read from ``<repo>/../shared/discord-api-spec/openapi.json`` or
  the file ``SCOPABOT_DISCORD_SPEC`` names), loaded and compiled once per process. It is
  adjusted where it is known to be looser or clumsier than Discord: snowflakes may be
  integers (discord.py sends ``recipient_id`` as an int), and unions discriminated by
  ``type`` are rewritten into ``if``/``then`` chains so a bad button reports the button's
  field rather than "not valid under any of the given schemas";
* hand-written limits the spec does not encode (``limits.py``): 2,000 characters of content,
  5 action rows of at most 5 buttons, a select alone in its row, unique custom_ids, 6,000
  characters of embeds, 25 autocomplete choices, the Components V2 rules, empty messages.

Each problem is a ``Problem(path, message)`` with a JSON-ish path such as
``data.components[0].components[5]`` so the failing test says which field was wrong.
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from jsonschema.exceptions import ValidationError, best_match  # type: ignore[import-untyped]
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from .models import Payload

REPO_ROOT = Path(__file__).resolve().parents[2]
SPEC_PATH = REPO_ROOT.parent / "shared" / "discord-api-spec" / "openapi.json"
_SPEC_URI = "urn:discord-openapi"


@dataclass(frozen=True)
class Problem:
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path or '<body>'}: {self.message}"


def join(prefix: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{prefix}[{key}]"
    return f"{prefix}.{key}" if prefix else key


# The OpenAPI layer ------------------------------------------------------------------------


class SpecValidator:
    """Validates request bodies against the operation's schema in Discord's OpenAPI file."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or Path(os.environ.get("SCOPABOT_DISCORD_SPEC", SPEC_PATH))
        self.skip_reason: str | None = None
        self.reported = False  # the stand-in warns of a missing spec once, not per fixture
        self._spec: Payload | None = None
        try:
            self._spec, self._registry = _load(str(self.path))
        except FileNotFoundError:
            self.skip_reason = (
                f"Discord OpenAPI spec not found at {self.path}: request bodies get the "
                "hand-written checks only and the 4 OpenAPI tests skip. Put specs/openapi.json "
                "of https://github.com/discord/discord-api-spec there, or point "
                "SCOPABOT_DISCORD_SPEC at it (docs/standin.md)"
            )

    @property
    def available(self) -> bool:
        return self._spec is not None

    def has_operation(self, method: str, route: str) -> bool:
        return self._operation_schema(method, route) is not None

    def check(self, method: str, route: str, body: Any) -> list[Problem]:
        """Problems of ``body`` for ``method route`` (``route`` as written in the spec)."""
        if self._spec is None or self._operation_schema(method, route) is None:
            return []
        validator = _validator(str(self.path), method.lower(), route)
        problems = []
        for error in sorted(validator.iter_errors(body), key=lambda e: list(map(str, e.path))):
            leaf = _leaf(error)
            problems.append(Problem(_error_path(leaf), _describe(leaf)))
        return problems

    def _operation_schema(self, method: str, route: str) -> Any:
        assert self._spec is not None
        operation = self._spec["paths"].get(route, {}).get(method.lower(), {})
        content = operation.get("requestBody", {}).get("content", {})
        return content.get("application/json", {}).get("schema")


@functools.cache
def _load(path: str) -> tuple[Payload, Registry[Any]]:
    with open(path, encoding="utf-8") as f:
        spec = json.load(f)
    _adjust(spec)
    resource = Resource.from_contents(spec, default_specification=DRAFT202012)
    return spec, Registry().with_resource(_SPEC_URI, resource)


@functools.cache
def _validator(path: str, method: str, route: str) -> Draft202012Validator:
    _, registry = _load(path)
    pointer = "/".join(
        p.replace("~", "~0").replace("/", "~1")
        for p in ("paths", route, method, "requestBody", "content", "application/json", "schema")
    )
    schema = {"$ref": f"{_SPEC_URI}#/{pointer}"}
    return Draft202012Validator(schema, registry=registry)


def _adjust(spec: Payload) -> None:
    """Fix the spec's known gaps in place (see the spec README)."""
    schemas = spec["components"]["schemas"]
    snowflake = schemas["SnowflakeType"]
    schemas["SnowflakeType"] = {
        "type": ["string", "integer"],
        "pattern": snowflake["pattern"],
        "minimum": 0,
    }

    def discriminator(branch: Any) -> list[int] | None:
        ref = branch.get("$ref", "") if isinstance(branch, dict) else ""
        if not ref.startswith("#/components/schemas/"):
            return None
        target = schemas.get(ref.rsplit("/", 1)[1], {})
        values = target.get("properties", {}).get("type", {}).get("enum")
        if isinstance(values, list) and all(isinstance(v, int) for v in values):
            return values
        return None

    def rewrite(node: Payload, key: str) -> None:
        branches = node[key]
        nullable = any(b == {"type": "null"} for b in branches)
        typed = [b for b in branches if b != {"type": "null"}]
        if nullable and len(typed) == 1:
            del node[key]
            node.setdefault("allOf", []).append({"if": {"type": "null"}, "else": typed[0]})
            return
        values = [discriminator(b) for b in typed]
        flat = [v for vs in values if vs for v in vs]
        if not typed or None in values or len(flat) != len(set(flat)):
            return
        chain: Payload = {
            "type": "object",
            "required": ["type"],
            "properties": {"type": {"enum": flat}},
            "allOf": [
                {
                    "if": {"properties": {"type": {"enum": vs}}, "required": ["type"]},
                    "then": {"$ref": b["$ref"]},
                }
                for b, vs in zip(typed, values, strict=True)
            ],
        }
        del node[key]
        node.pop("x-discord-union", None)
        rule = {"if": {"type": "null"}, "then": True, "else": chain} if nullable else chain
        node.setdefault("allOf", []).append(rule)

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for value in list(node.values()):
                walk(value)
            for key in ("oneOf", "anyOf"):
                if isinstance(node.get(key), list):
                    rewrite(node, key)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schemas)
    walk(spec["paths"])


def _leaf(error: ValidationError) -> ValidationError:
    """The most specific cause of an error inside anyOf/oneOf, so the path points at a field.

    Among the alternatives' errors, the deepest one names the field that is wrong; branches
    that only say "is not of type 'null'" are noise. If every alternative failed at the same
    place (an enum written as oneOf of consts), the parent error is clearer and is kept.
    """
    while error.context:
        candidates = [
            e for e in error.context if not (e.validator == "type" and e.validator_value == "null")
        ] or list(error.context)
        deepest = max(candidates, key=lambda e: len(e.absolute_path))
        if len(deepest.absolute_path) == len(error.absolute_path):
            if all(e.validator == "const" for e in candidates):
                allowed = [e.validator_value for e in candidates]
                error.message = f"{error.instance!r} is not one of {allowed}"
            else:
                best = best_match(candidates)
                error = best if best is not None else error
            break
        error = deepest
    return error


def _error_path(error: ValidationError) -> str:
    path = ""
    for part in error.absolute_path:
        path = join(path, part)
    return path


def _describe(error: ValidationError) -> str:
    """The error message with a long offending value shortened to what matters about it."""
    instance = error.instance
    if error.validator in ("maxLength", "minLength") and isinstance(instance, str):
        bound = "at most" if error.validator == "maxLength" else "at least"
        return f"must be {bound} {error.validator_value} characters long (got {len(instance)})"
    if error.validator in ("maxItems", "minItems") and isinstance(instance, list):
        bound = "at most" if error.validator == "maxItems" else "at least"
        return f"must have {bound} {error.validator_value} items (got {len(instance)})"
    message: str = error.message
    shown = repr(instance)
    if len(shown) > 60:
        kind = type(instance).__name__
        message = message.replace(
            shown, f"<{kind} of {len(instance)}>" if hasattr(instance, "__len__") else f"<{kind}>"
        )
    return message if len(message) <= 200 else message[:199] + "…"


@functools.cache
def shared_spec_validator() -> SpecValidator:
    """One validator per process, so the 1.2 MB spec is parsed and compiled once."""
    return SpecValidator()
