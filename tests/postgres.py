"""A throwaway PostgreSQL server for the tests: a temporary data directory, a loopback port.

The PostgreSQL tests read the server's URL from ``SCOPABOT_TEST_DATABASE_URL`` and make a
database of their own on it for each test; without it they are skipped. This script starts a
server that needs nothing set up beforehand (only PostgreSQL's programs: Debian's
``postgresql`` package, or any ``pg_ctl`` on the PATH), so a developer runs the whole suite
with::

    python3 tests/postgres.py run -- .venv/bin/python -m pytest

``run`` starts the server, runs the command with the variable set, and stops the server and
removes its directory whatever the command did. ``.ci/run`` uses ``start`` (print the shell
lines that set the variables) and ``stop DIR`` instead, so that README's test command runs
unchanged between them.

PostgreSQL refuses to run as root; started by root, the server runs as the ``postgres`` user
Debian's package makes (or a ``scopabot-pg`` system user made here when there is none).
Durability is switched off (``fsync=off``): a test server's data is thrown away anyway.

Standard library only: it runs before the project's virtualenv exists.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import os
import pwd
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

URL_VARIABLE = "SCOPABOT_TEST_DATABASE_URL"
DIR_VARIABLE = "SCOPABOT_TEST_POSTGRES_DIR"
HOW_TO_RUN = (
    f"PostgreSQL tests need a server: set {URL_VARIABLE}=postgresql://... or run "
    "`python3 tests/postgres.py run -- .venv/bin/python -m pytest`"
)
_ROLE = "scopabot"
_SYSTEM_USER = "scopabot-pg"


def bin_dir() -> Path:
    """The folder of ``pg_ctl``: on the PATH, else the newest of Debian's versioned folders."""
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    if not candidates:
        raise SystemExit(
            "PostgreSQL's programs (pg_ctl, initdb) were not found: install PostgreSQL "
            "(Debian/Ubuntu: apt-get install postgresql) or put its bin folder on the PATH"
        )
    return Path(candidates[-1]).parent


def _server_user() -> str | None:
    """Whom the server runs as when we are root (None: as ourselves)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", _SYSTEM_USER):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    subprocess.run(
        ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", _SYSTEM_USER],
        check=True,
    )
    return _SYSTEM_USER


def _as(user: str | None, argv: list[str]) -> list[str]:
    if user is None:
        return argv
    if shutil.which("runuser"):
        return ["runuser", "-u", user, "--", *argv]
    return ["su", "-s", "/bin/sh", user, "-c", shlex.join(argv)]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start(directory: Path | None = None) -> tuple[str, Path]:
    """Start a server; return its URL and its directory (give that to :func:`stop`)."""
    pg = bin_dir()
    user = _server_user()
    root = Path(tempfile.mkdtemp(prefix="scopabot-pg-")) if directory is None else directory
    data, sockets = root / "data", root / "socket"
    sockets.mkdir(parents=True, exist_ok=True)
    if user is not None:
        entry = pwd.getpwnam(user)
        for path in (root, sockets):
            os.chown(path, entry.pw_uid, entry.pw_gid)
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE, "text": True}
    done = subprocess.run(
        _as(
            user,
            [
                str(pg / "initdb"),
                "-D",
                str(data),
                "-U",
                _ROLE,
                "--auth=trust",
                "-E",
                "UTF8",
                "--locale=C.UTF-8",
                "--no-sync",
            ],
        ),
        check=False,
        **quiet,  # type: ignore[call-overload]
    )
    if done.returncode != 0:  # a system without the C.UTF-8 locale
        shutil.rmtree(data, ignore_errors=True)
        done = subprocess.run(
            _as(
                user,
                [
                    str(pg / "initdb"),
                    "-D",
                    str(data),
                    "-U",
                    _ROLE,
                    "--auth=trust",
                    "-E",
                    "UTF8",
                    "--locale=C",
                    "--no-sync",
                ],
            ),
            check=False,
            **quiet,  # type: ignore[call-overload]
        )
    if done.returncode != 0:
        raise SystemExit(f"initdb failed:\n{done.stderr}")
    port = _free_port()
    options = (
        f"-c listen_addresses=127.0.0.1 -p {port} -k {sockets} -c fsync=off "
        "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
    )
    done = subprocess.run(
        _as(
            user,
            [
                str(pg / "pg_ctl"),
                "-D",
                str(data),
                "-l",
                str(root / "server.log"),
                "-o",
                options,
                "-w",
                "-t",
                "60",
                "start",
            ],
        ),
        check=False,
        **quiet,  # type: ignore[call-overload]
    )
    if done.returncode != 0:
        log = (
            (root / "server.log").read_text(errors="replace")
            if (root / "server.log").exists()
            else ""
        )
        raise SystemExit(f"the PostgreSQL server did not start:\n{done.stderr}\n{log}")
    return f"postgresql://{_ROLE}@127.0.0.1:{port}/postgres", root


def stop(root: Path) -> None:
    """Stop the server of ``root`` (fast: its data is thrown away) and remove the folder."""
    data = root / "data"
    if (data / "postmaster.pid").exists():
        subprocess.run(
            _as(
                _server_user(),
                [str(bin_dir() / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
            ),
            check=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    shutil.rmtree(root, ignore_errors=True)


@contextlib.contextmanager
def server() -> Iterator[str]:
    """A server for the length of a ``with`` block; yields its URL."""
    url, root = start()
    try:
        yield url
    finally:
        stop(root)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    run = sub.add_parser("run", help="start a server, run a command with its URL, stop it")
    run.add_argument("command", nargs=argparse.REMAINDER)
    sub.add_parser("start", help="start a server; print the shell lines that export its URL")
    halt = sub.add_parser("stop", help="stop the server started in DIR and remove DIR")
    halt.add_argument("directory", type=Path)
    args = parser.parse_args(argv)
    if args.what == "start":
        url, root = start()
        print(f"export {URL_VARIABLE}={shlex.quote(url)} {DIR_VARIABLE}={shlex.quote(str(root))}")
        return 0
    if args.what == "stop":
        stop(args.directory)
        return 0
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("run needs a command, e.g. run -- .venv/bin/python -m pytest")
    with server() as url:
        print(f"{URL_VARIABLE}={url}", file=sys.stderr)
        return subprocess.run(
            command, env={**os.environ, URL_VARIABLE: url}, check=False
        ).returncode


if __name__ == "__main__":
    sys.exit(main())
