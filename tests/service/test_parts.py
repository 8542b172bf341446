"""The service is a small root owning named parts, not a chain of mixins (issue #15).

Read from the source with ``ast``, so a class added later is held to it too: no class of the
service builds on another of its own classes except values (events, errors, views), none has
two bases, none has more than 30 public methods; and each part of the root is a plain object
of its own file.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

from scopabot.service import Event, GameService

SERVICE = Path(__file__).resolve().parents[2] / "scopabot" / "service"
MOST_PUBLIC_METHODS = 30
PARTS = {
    "tables": "tables",
    "games": "games",
    "deadlines": "scheduler",
    "people": "people",
    "settings": "settings",
    "boards": "ratings",
    "score_sheets": "score_keeping",
    "tournaments": "tournaments",
}


def classes() -> list[tuple[str, ast.ClassDef]]:
    found = []
    for path in sorted(SERVICE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [(path.name, node) for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    return found


def base_names(node: ast.ClassDef) -> list[str]:
    return [ast.unparse(base) for base in node.bases]


def test_no_class_of_the_service_is_a_mixin_or_has_two_bases() -> None:
    found = classes()
    assert len(found) > 20  # the walk saw the package
    for file, node in found:
        assert not node.name.endswith("Mixin"), (file, node.name)
        bases = [b for b in base_names(node) if b not in {"Protocol", "Generic"}]
        assert len(bases) <= 1, (file, node.name, bases)


def test_no_class_of_the_service_has_more_than_thirty_public_methods() -> None:
    for file, node in classes():
        public = [
            item.name
            for item in node.body
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
            and not item.name.startswith("_")
        ]
        assert len(public) <= MOST_PUBLIC_METHODS, (file, node.name, len(public))


def test_only_values_build_on_the_services_own_classes() -> None:
    """Events and errors may extend one of their own kind; nothing with behaviour inherits
    behaviour from another of the service's classes."""
    checked = 0
    for path in sorted(SERVICE.glob("*.py")):
        if path.stem == "__init__":
            continue
        module = importlib.import_module(f"scopabot.service.{path.stem}")
        for cls in vars(module).values():
            if not inspect.isclass(cls) or cls.__module__ != module.__name__:
                continue
            checked += 1
            for base in cls.__bases__:
                if base.__module__.startswith("scopabot.service"):
                    assert issubclass(base, Event | BaseException), (cls, base)
    assert checked > 20


async def test_the_root_owns_its_parts_each_a_plain_object_of_its_own_file(
    service: GameService,
) -> None:
    assert GameService.__mro__ == (GameService, object)
    public = [n for n, _ in inspect.getmembers(GameService) if not n.startswith("_")]
    assert len(public) <= 16, public  # a root: start, open, close, subscribe, settle, parts
    for name, module in PARTS.items():
        part = getattr(service, name)
        assert type(part).__mro__ == (type(part), object), name
        assert type(part).__module__ == f"scopabot.service.{module}", name
