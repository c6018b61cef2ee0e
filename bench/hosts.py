"""The site as several hosts on this machine, until Ctrl+C (issue 40, item 1).

    python bench/hosts.py [--hosts N] [--bot-workers W] [--database URL] [--redis URL] [--loopback]
                          [--seconds S] [--quick]

Starts N server hosts (default 3) with ``amigos.bench.hosts``: each `amigos serve` in a network
namespace of its own (root, where `ip netns` is allowed; else each on its own loopback address,
and it says so), sharing one PostgreSQL and one Redis through HAProxy, with a HAProxy in front on
127.0.0.1 that spreads sockets over them (least connections, `/readyz` checked). With
``--bot-workers W`` the computer players think on a worker service of W processes in a namespace
of its own. The database named by --database is dropped, created again and migrated.

It prints where everything is (one JSON object) and waits: open the front's address in a browser
(an administrator: ``amigos createadmin`` with the same AMIGOS_DATABASE_URL), or point a bench at
the hosts. Ctrl+C (or --seconds, or SIGTERM) stops everything it started: hosts, workers, proxies,
namespaces. ``--quick`` starts 2 hosts, checks that each answers /readyz through the front, and stops.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from amigos.bench.hosts import Cluster, reset_database, stop_on_signals  # noqa: E402

DEFAULT_DATABASE = "postgresql://postgres@127.0.0.1:5432/amigos_hosts"
DEFAULT_REDIS = "redis://127.0.0.1:6379/14"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--hosts", type=int, default=3)
    parser.add_argument("--bot-workers", type=int, default=0)
    parser.add_argument("--database", default=DEFAULT_DATABASE, help="a database of its own: it is reset")
    parser.add_argument("--redis", default=DEFAULT_REDIS)
    parser.add_argument("--loopback", action="store_true", help="loopback addresses, no namespaces")
    parser.add_argument("--seconds", type=float, default=0, help="stop after this long (0: at Ctrl+C)")
    parser.add_argument("--quick", action="store_true", help="2 hosts, check each through the front, stop")
    args = parser.parse_args(argv)
    if args.quick:
        args.hosts = 2
    import lobby as lobby_bench

    reset_database(args.database)
    with tempfile.TemporaryDirectory(prefix="amigos-hosts-") as data_dir:
        env = lobby_bench.server_env(data_dir, args.database)
        env["PYTHONPATH"] = str(ROOT / "src")
        env["AMIGOS_LOG_LEVEL"] = "INFO"
        subprocess.run(
            [sys.executable, "-m", "amigos.cli", "manage", "migrate", "--noinput", "-v", "0"],
            env=env,
            check=True,
        )
        stop_on_signals()
        cluster = Cluster(
            args.hosts,
            args.database,
            args.redis,
            env,
            namespaces=False if args.loopback else None,
            front=True,
            bot_workers=args.bot_workers,
        )
        try:
            with cluster:
                front = f"http://127.0.0.1:{cluster.front_port}"
                print(
                    json.dumps(
                        {
                            "front": front,
                            "namespaces": cluster.namespaces,
                            "hosts": [
                                {
                                    "host": host.name,
                                    "url": host.url,
                                    "pid": host.pid,
                                    "namespace": host.namespace,
                                }
                                for host in cluster.hosts
                            ],
                            "postgres_proxy": "{}:{}".format(*cluster.proxies["postgres"].listen),
                            "redis_proxy": "{}:{}".format(*cluster.proxies["redis"].listen),
                            "bot_workers": args.bot_workers,
                        },
                        indent=2,
                    ),
                    flush=True,
                )
                if not cluster.namespaces:
                    print("network namespaces were not allowed here: each host is on a loopback address")
                if args.quick:
                    return check_front(front, args.hosts)
                deadline = time.monotonic() + args.seconds if args.seconds else None
                while deadline is None or time.monotonic() < deadline:
                    time.sleep(0.5)
                    for host in cluster.hosts:
                        if not host.alive():
                            print(f"host {host.name} ended (see above); stopping", file=sys.stderr)
                            return 1
        except KeyboardInterrupt:
            print("stopping every host, proxy and namespace", file=sys.stderr)
    return 0


def check_front(front: str, hosts: int) -> int:
    """Every host answers /readyz through the front (the front's own checks passed for each)."""
    answered = 0
    for _ in range(hosts * 4):
        try:
            with urllib.request.urlopen(f"{front}/readyz", timeout=10) as answer:  # noqa: S310
                answered += answer.status == 200
        except OSError as error:
            print(f"bench/hosts.py --quick: the front did not answer: {error}", file=sys.stderr)
            return 1
    print(json.dumps({"bench": "hosts", "quick": True, "ready_answers": answered, "asked": hosts * 4}))
    return 0 if answered == hosts * 4 else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    raise SystemExit(main())
