"""The bot's settings: which database it opens."""

from __future__ import annotations

from pathlib import Path

import pytest

from scopabot.bot.config import BadSetting, Config


def test_without_a_database_url_the_sqlite_file_is_opened(tmp_path: Path) -> None:
    config = Config.from_env({"DISCORD_TOKEN": "t", "SCOPABOT_DB": "games.db"}, home=tmp_path)
    assert config.database_url is None
    assert config.database == str(tmp_path / "games.db")
    blank = Config.from_env({"DISCORD_TOKEN": "t", "SCOPABOT_DATABASE_URL": "  "})
    assert blank.database == "scopabot.db"


def test_a_postgresql_url_is_opened_instead_of_the_file() -> None:
    url = "postgresql://scopa:secret@db:5432/scopabot"
    config = Config.from_env({"DISCORD_TOKEN": "t", "SCOPABOT_DATABASE_URL": url})
    assert config.database == url
    short = Config.from_env({"DISCORD_TOKEN": "t", "SCOPABOT_DATABASE_URL": "postgres://db/x"})
    assert short.database == "postgres://db/x"


@pytest.mark.parametrize(
    "url", ["mysql://scopa:secret@db/scopabot", "scopabot.db", "sqlite:///secret.db"]
)
def test_another_kind_of_url_is_refused_without_repeating_it(url: str) -> None:
    with pytest.raises(BadSetting) as caught:
        Config.from_env({"DISCORD_TOKEN": "t", "SCOPABOT_DATABASE_URL": url})
    message = str(caught.value)
    assert "SCOPABOT_DATABASE_URL" in message and "postgresql://" in message
    assert "secret" not in message
