"""The dependency direction of docs/design.md, read from every module's imports."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "scopabot"

# What each layer may import from the project, as docs/design.md draws it. ``bot`` and ``cli`` are
# the front ends: they reach the game, the computer players and the store through the service.
ALLOWED = {
    "engine": set(),
    "ai": {"engine"},
    "render": {"engine"},
    "store": {"engine"},
    "service": {"engine", "ai", "store"},
    "bot": {"service", "render"},
    "cli": {"service", "render"},
}
# Third-party packages that only some layers may touch.
FORBIDDEN_OUTSIDE = {
    "discord": {"bot"},
    "aiosqlite": {"store"},
    "sqlite3": {"store"},
}
PURE = {"engine"}
IMPURE_MODULES = {"asyncio", "socket", "os", "subprocess", "time", "threading", "aiohttp"}


def module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def type_checking_only(tree: ast.Module) -> set[ast.AST]:
    """The import statements under ``if TYPE_CHECKING:``: read by mypy, never run."""
    found: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in (
            "TYPE_CHECKING",
            "typing.TYPE_CHECKING",
        ):
            found.update(n for child in node.body for n in ast.walk(child))
    return found


def imports_of(path: Path, *, run_only: bool = False) -> set[str]:
    """Every module ``path`` imports, anywhere in it (a function's late import counts too),
    and, for ``from package import name``, the submodule ``package.name`` when there is one.
    With ``run_only``, not those under ``if TYPE_CHECKING:`` (they make no cycle when run);
    the layers count them all: a type from a layer out of reach is a dependency too."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found: set[str] = set()
    skipped = type_checking_only(tree) if run_only else set()
    for node in ast.walk(tree):
        if node in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            elif node.module:
                module = node.module
            else:
                continue
            found.add(module)
            for alias in node.names:
                sub = ROOT.joinpath(*module.split("."), alias.name)
                if sub.with_suffix(".py").is_file() or (sub / "__init__.py").is_file():
                    found.add(f"{module}.{alias.name}")
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


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every set of modules that import each other, directly or around a loop (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, set()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph.get(node, set()):
                cycles.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return cycles


def project_graph() -> dict[str, set[str]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {module_of(p) for p in paths}
    return {module_of(p): imports_of(p, run_only=True) & modules for p in paths}


def test_no_import_cycles() -> None:
    graph = project_graph()
    assert "scopabot.ai.factory" in graph["scopabot.ai"]
    assert not import_cycles(graph)


def test_import_cycles_are_seen() -> None:
    assert import_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert import_cycles({"a": {"a"}}) == [["a"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []


def test_imports_for_types_only_are_told_apart() -> None:
    # The bot's parts name the bot class for mypy only (the client imports every part): that
    # import is no cycle, but an import run at load time still is, and layers see both.
    path = PACKAGE / "bot" / "actions.py"
    assert "scopabot.bot.client" in imports_of(path)
    assert "scopabot.bot.client" not in imports_of(path, run_only=True)
    assert "scopabot.bot.ui" in imports_of(path, run_only=True)
    graph = project_graph()
    assert "scopabot.bot.client" not in graph["scopabot.bot.actions"]
    assert "scopabot.bot.actions" in graph["scopabot.bot.client"]


def test_no_package_shadows_discord_py() -> None:
    assert not (PACKAGE / "discord").exists()


def test_relative_imports_are_read_and_violations_seen() -> None:
    # The test above would be worthless if relative imports were misread or nothing flagged.
    found = imports_of(PACKAGE / "engine" / "match.py")
    assert "scopabot.engine.deal" in found and "random" in found
    assert problems_of("engine", {"scopabot.store.database"}) == ["imports scopabot.store.database"]
    assert problems_of("ai", {"discord.ui"}) == ["imports discord.ui"]
    assert problems_of("engine", {"asyncio"}) == ["(pure) imports asyncio"]
    assert problems_of("service", {"scopabot.store", "scopabot.ai.base"}) == []
    # The front ends reach the game through the service only.
    assert problems_of("cli", {"scopabot.service", "scopabot.render"}) == []
    assert problems_of("cli", {"scopabot.engine", "scopabot.ai", "scopabot.store"}) == [
        "imports scopabot.ai",
        "imports scopabot.engine",
        "imports scopabot.store",
    ]
    assert problems_of("bot", {"scopabot.engine.cards"}) == ["imports scopabot.engine.cards"]
    assert problems_of("ai", {"scopabot.service.arena"}) == ["imports scopabot.service.arena"]


def store_reaches(path: Path) -> list[int]:
    """Lines where a module reads an attribute named ``store`` (``bot.service.store``)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    return sorted(
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr == "store"
    )


def test_the_bot_reaches_the_store_only_through_the_service() -> None:
    # Importing the store is refused above; reading the service's own store is the same leak.
    found = {
        str(path.relative_to(ROOT)): lines
        for path in sorted((PACKAGE / "bot").rglob("*.py"))
        if (lines := store_reaches(path))
    }
    assert not found, found
    assert store_reaches(PACKAGE / "service" / "service.py"), "the check reads attributes"


# The engine's calls that play or judge a move. The store only stores what the service's live
# games decided (service/live.py): none of these may appear in it, not even a replay of a
# record (the store hands out the record; whoever needs the game replayed asks the engine).
# ``Game.restore(record, snapshot=...)`` reads a game back from its snapshot: serialisation.
PLAYING = {
    "play",
    "replay",
    "legal_moves",
    "legal_actions",
    "apply_action",
    "verify_move",
    "resolve_move",
    "resolve_move_choices",
    "is_legal",
    "playout",
}


def calls_named(path: Path, names: set[str]) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    return [
        f"{path.relative_to(ROOT)}:{node.lineno} .{node.func.attr}()"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in names
    ]


def test_the_store_never_plays_or_judges_a_move() -> None:
    from scopabot.engine import Game
    from scopabot.engine.match import Match

    assert all(hasattr(Game, n) or hasattr(Match, n) for n in PLAYING), "a name left the engine"
    found = [
        c for path in sorted((PACKAGE / "store").rglob("*.py")) for c in calls_named(path, PLAYING)
    ]
    assert not found, found
    assert calls_named(PACKAGE / "service" / "live.py", PLAYING), "the check reads calls"


def test_the_store_is_built_of_parts_not_mixins() -> None:
    # One topic per class, each on the one shared database: no mixin chain, no class grown
    # past 30 public methods, no class deriving from another of the store's classes.
    found = []
    classes = 0
    for path in sorted((PACKAGE / "store").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if not isinstance(node, ast.ClassDef):
                continue
            classes += 1
            public = [
                f.name
                for f in node.body
                if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
                and not f.name.startswith("_")
            ]
            where = f"{path.relative_to(ROOT)} {node.name}"
            if node.name.endswith("Mixin"):
                found.append(f"{where} is a mixin")
            if len(public) > 30:
                found.append(f"{where} has {len(public)} public methods")
            bases = [b.id for b in node.bases if isinstance(b, ast.Name)]
            if any(b.endswith("Store") or b == "Database" for b in bases):
                found.append(f"{where} derives from {bases}")
    assert classes > 10
    assert not found, found
