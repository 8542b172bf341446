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


def shards(**env: str) -> Config:
    return Config.from_env({"DISCORD_TOKEN": "t", **env})


def test_without_shard_settings_the_process_runs_every_shard() -> None:
    config = shards()
    assert (config.shard_ids, config.shard_count, config.shards_text) == (None, None, None)
    assert config.owns(None) and config.owns(1 << 40)


def test_a_slice_of_the_shards_owns_the_guilds_discord_sends_it() -> None:
    config = shards(SCOPABOT_SHARDS="0-3, 6", SCOPABOT_SHARD_COUNT="8")
    assert config.shard_ids == (0, 1, 2, 3, 6) and config.shard_count == 8
    assert config.shards_text == "0-3,6 of 8"
    assert config.owns(None)  # DMs are shard 0's
    assert config.owns(6 << 22) and config.owns(14 << 22) and config.owns((3 << 22) | 12345)
    assert not config.owns(4 << 22) and not config.owns(7 << 22)
    other = shards(SCOPABOT_SHARDS="4-5,7", SCOPABOT_SHARD_COUNT="8")
    assert not other.owns(None)
    for guild_id in [(n << 22) | 99 for n in range(40)]:
        assert config.owns(guild_id) != other.owns(guild_id)  # each guild has one owner


def test_a_shard_count_alone_runs_all_its_shards() -> None:
    config = shards(SCOPABOT_SHARD_COUNT="3")
    assert config.shard_ids == (0, 1, 2) and config.shards_text == "0-2 of 3"


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"SCOPABOT_SHARDS": "0-3"}, "needs SCOPABOT_SHARD_COUNT"),
        ({"SCOPABOT_SHARDS": "0-8", "SCOPABOT_SHARD_COUNT": "8"}, "does not fit"),
        ({"SCOPABOT_SHARDS": "3-1", "SCOPABOT_SHARD_COUNT": "8"}, "does not fit"),
        ({"SCOPABOT_SHARDS": "a", "SCOPABOT_SHARD_COUNT": "8"}, "is not a list of shards"),
        ({"SCOPABOT_SHARDS": "1,,2", "SCOPABOT_SHARD_COUNT": "8"}, "is not a list of shards"),
        ({"SCOPABOT_SHARDS": "-1", "SCOPABOT_SHARD_COUNT": "8"}, "is not a list of shards"),
        ({"SCOPABOT_SHARD_COUNT": "0"}, "is not a number of shards"),
        ({"SCOPABOT_SHARD_COUNT": "eight"}, "is not a number of shards"),
    ],
)
def test_a_bad_shard_setting_is_refused_saying_how_to_write_it(
    env: dict[str, str], says: str
) -> None:
    with pytest.raises(BadSetting, match=says):
        shards(**env)
