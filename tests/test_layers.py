"""The dependency direction of DESIGN.md, read from every module's imports."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "scopabot"

# What each layer may import from the project. ``cli`` is a front end like ``bot``; it also
# runs the AI arena and admin tools (backup), so it may reach ``ai`` and ``store`` directly.
ALLOWED = {
    "engine": set(),
    "ai": {"engine"},
    "render": {"engine"},
    "store": {"engine"},
    "service": {"engine", "ai", "store"},
    "bot": {"service", "render", "engine"},
    "cli": {"service", "render", "engine", "ai", "store"},
}
# Third-party packages that only some layers may touch.
FORBIDDEN_OUTSIDE = {
    "discord": {"bot"},
    "aiosqlite": {"store"},
    "sqlite3": {"store"},
}
PURE = {"engine"}
IMPURE_MODULES = {"asyncio", "socket", "os", "subprocess", "time", "threading", "aiohttp"}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                found.add(".".join([*base, node.module] if node.module else base))
            elif node.module:
                found.add(node.module)
    return found


def layer_of(path: Path) -> str | None:
    parts = path.relative_to(PACKAGE).parts
    return parts[0] if len(parts) > 1 else None


def problems_of(layer: str, imports: set[str]) -> list[str]:
    found = []
    for name in sorted(imports):
        top = name.split(".")[0]
        if top == "scopabot":
            target = name.split(".")[1] if "." in name else ""
            if target and target != layer and target not in ALLOWED[layer]:
                found.append(f"imports {name}")
        elif top in FORBIDDEN_OUTSIDE and layer not in FORBIDDEN_OUTSIDE[top]:
            found.append(f"imports {name}")
        elif layer in PURE and top in IMPURE_MODULES:
            found.append(f"(pure) imports {name}")
    return found


def test_every_layer_imports_only_what_it_may() -> None:
    problems = []
    checked = 0
    for path in sorted(PACKAGE.rglob("*.py")):
        layer = layer_of(path)
        if layer is None:
            continue
        checked += 1
        problems += [f"{path.relative_to(ROOT)} {p}" for p in problems_of(layer, imports_of(path))]
    assert checked > 10
    assert not problems, "\n".join(problems)


def test_no_package_shadows_discord_py() -> None:
    assert not (PACKAGE / "discord").exists()


def test_relative_imports_are_read_and_violations_seen() -> None:
    # The test above would be worthless if relative imports were misread or nothing flagged.
    found = imports_of(PACKAGE / "engine" / "match.py")
    assert "scopabot.engine.deal" in found and "random" in found
    assert problems_of("engine", {"scopabot.store.base"}) == ["imports scopabot.store.base"]
    assert problems_of("ai", {"discord.ui"}) == ["imports discord.ui"]
    assert problems_of("engine", {"asyncio"}) == ["(pure) imports asyncio"]
    assert problems_of("service", {"scopabot.store", "scopabot.ai.base"}) == []
