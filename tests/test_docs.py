"""README and docs/: a clone is complete (every link lands inside it), and CI runs exactly the
test command README gives."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\]\(([^)\s]+)\)")
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_every_link_of_readme_and_docs_lands_in_the_repository() -> None:
    for page in PAGES:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if target.startswith(("http://", "https://", "mailto:")):
                continue
            path = target.partition("#")[0]
            if not path:
                continue  # an anchor on the same page
            resolved = (page.parent / path).resolve()
            assert resolved.is_relative_to(ROOT), f"{page.name} links outside: {target}"
            assert resolved.exists(), f"{page.name} links to a missing {target}"


def test_no_page_sends_the_reader_outside_the_clone() -> None:
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for line in text.splitlines():
            # The stand-in's optional OpenAPI file is the one thing looked for next to a clone.
            if "../shared/" in line and "discord-api-spec" not in line:
                raise AssertionError(f"{page.name}: {line}")


def test_readme_has_two_commands_and_ci_runs_its_test_command_exactly() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)\n```", readme, re.S)
    run_bot, run_tests = blocks[0].strip(), blocks[1].strip()
    assert run_bot.endswith(".venv/bin/python bot.py") and "pip install -e ." in run_bot
    assert run_tests.endswith("-m pytest") and "'.[dev]'" in run_tests
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert run_tests in ci


def test_the_license_pyproject_names_is_there() -> None:
    assert 'license = { text = "MIT" }' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
