"""``scopabot.ai`` stands on the engine alone (DESIGN.md: the layers)."""

from __future__ import annotations

import ast
from pathlib import Path

import scopabot.ai

AI = Path(scopabot.ai.__file__).parent


def test_ai_imports_only_the_engine() -> None:
    for path in AI.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                if name.startswith("scopabot"):
                    assert name.startswith("scopabot.engine"), f"{path.name} imports {name}"
                assert not name.startswith("discord"), f"{path.name} imports {name}"
