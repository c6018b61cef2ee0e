"""A PostgreSQL cluster and a Redis server of a bench's own, so that a chaos run restarts them for
real (issue 40, item 4) and never touches the machine's shared ones.

`OwnServices` starts both on free loopback ports in temporary directories: the cluster with
`initdb` (trust authentication, as the machine's own; run as the ``postgres`` account when the
bench runs as root, which `initdb` refuses), Redis with nothing saved to disk (a restart empties
it, as a Redis without persistence does). `stop_postgres` / `start_postgres` and `stop_redis` /
`start_redis` take each down and bring it back; `close` removes everything.

Why not only drop the connections (killing the proxy in front, as the "block" fault still hangs
it): a restarted server is gone for a while and comes back empty of sessions, and a restarted
Redis comes back empty of keys and subscriptions, which dropped connections do not show.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from amigos.bench.hosts import free_port, wait_listening

#: How long a service may take to come up before the bench gives up (it never fails on time
#: otherwise: a machine that slow cannot run the bench).
READY_SECONDS = 60.0


def postgres_bin() -> Path | None:
    """The directory of the newest PostgreSQL server installed (Debian's layout), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda path: int(Path(path).parts[-3]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def available() -> str | None:
    """Why the bench cannot run its own services here (None: it can)."""
    if postgres_bin() is None:
        return "no PostgreSQL server programs (initdb, pg_ctl): apt-get install postgresql"
    if shutil.which("redis-server") is None:
        return "no redis-server: apt-get install redis-server"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "running as root without runuser to start PostgreSQL as its own account"
    return None


@dataclass
class OwnServices:
    """A private PostgreSQL cluster and Redis server; use as a context manager."""

    pg_port: int = field(default_factory=free_port)
    redis_port: int = field(default_factory=free_port)
    pg_dir: Path | None = None
    redis_process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> OwnServices:
        try:
            self._init_postgres()
            self.start_postgres()
            self.start_redis()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def database_url(self, name: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.pg_port}/{name}"

    def redis_url(self, number: int = 0) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/{number}"

    # PostgreSQL

    def _as_postgres(self, command: list[str]) -> list[str]:
        runuser = shutil.which("runuser") or "runuser"
        return [runuser, "-u", "postgres", "--", *command] if os.geteuid() == 0 else command

    def _pg(self, program: str, *args: str) -> None:
        binaries = postgres_bin()
        if binaries is None:
            raise RuntimeError(available() or "no PostgreSQL")
        subprocess.run(
            self._as_postgres([str(binaries / program), *args]),
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )

    def _init_postgres(self) -> None:
        self.pg_dir = Path(tempfile.mkdtemp(prefix="amigos-own-pg-"))
        if os.geteuid() == 0:
            shutil.chown(self.pg_dir, "postgres", "postgres")
        self._pg("initdb", "-D", str(self.pg_dir / "data"), "-U", "postgres", "-A", "trust", "-E", "UTF8")

    def start_postgres(self) -> None:
        assert self.pg_dir is not None
        options = f"-p {self.pg_port} -c listen_addresses=127.0.0.1 -k {self.pg_dir} -c fsync=off"
        self._pg(
            "pg_ctl", "-D", str(self.pg_dir / "data"), "-l", str(self.pg_dir / "log"),
            "-o", options, "-w", "-t", str(int(READY_SECONDS)), "start",
        )  # fmt: skip
        wait_listening(("127.0.0.1", self.pg_port), READY_SECONDS)

    def stop_postgres(self) -> None:
        """Down at once, as a crash or a failover does (the clients' sessions end with it)."""
        if self.pg_dir is not None and (self.pg_dir / "data" / "postmaster.pid").exists():
            self._pg("pg_ctl", "-D", str(self.pg_dir / "data"), "-m", "immediate", "-w", "stop")

    # Redis

    def start_redis(self) -> None:
        server = shutil.which("redis-server") or "redis-server"
        self.redis_process = subprocess.Popen(
            [server, "--port", str(self.redis_port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no", "--databases", "16"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        wait_listening(("127.0.0.1", self.redis_port), READY_SECONDS)

    def stop_redis(self) -> None:
        """Down at once; it comes back empty (nothing is saved)."""
        process, self.redis_process = self.redis_process, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGKILL)
            process.wait()

    def close(self) -> None:
        """Stop both and remove the cluster's files, whatever state they are in."""
        self.stop_redis()
        with contextlib.suppress(Exception):
            self.stop_postgres()
        if self.pg_dir is not None:
            shutil.rmtree(self.pg_dir, ignore_errors=True)
            self.pg_dir = None
