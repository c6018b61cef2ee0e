"""A short chaos run across two hosts (bench/chaos.py, issue 40): while four tables play with
their seats spread over both hosts, one host is killed with SIGKILL and started again, and Redis
is stopped and started again, empty (the seeded schedule of `--quick`). Then every log and record
is read back: no acknowledged play lost or doubled, no table stuck, no seat shown another's
tiles, every match record replays.

The hosts are real `amigos serve` processes, each in its own network namespace where this machine
allows it (root), sharing PostgreSQL and Redis through HAProxy; that PostgreSQL and Redis are the
run's own (`amigos.bench.services`), so the machine's are never restarted. Nothing here depends
on how fast the machine is: the run lasts its fixed time and the checks count, never time.
"""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
from pathlib import Path

import pytest

from tests.web.bench_hosts import REDIS_URL, bench_command, bench_env, own_database, require_hosts
from tests.web.conftest import in_ci

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow, pytest.mark.alone]

CHAOS_URL = own_database("amigos_chaos_test")


def test_a_short_chaos_run_across_two_hosts_loses_nothing() -> None:
    require_hosts()
    done = subprocess.run(
        bench_command(
            "chaos.py", "--quick", "--seed", "3", "--json", "--database", CHAOS_URL, "--redis", REDIS_URL
        ),
        capture_output=True, text=True, env=bench_env(), timeout=600, check=False,
    )  # fmt: skip
    assert done.stdout.strip(), done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    if in_ci():  # Redis restarted for real: the run's own server, never the machine's
        assert result["services"] == "own", result["services"]
    assert [fault["kind"] for fault in result["faults"]] == ["kill", "redis"] or [
        fault["kind"] for fault in result["faults"]
    ] == ["redis", "kill"]
    assert result["acked"] > 0  # plays went on
    assert result["lost"] == 0
    assert result["duplicated"] == 0
    assert result["stuck"] == 0, result["stuck_tables"]
    assert result["leaked"] == 0, result["leaks"]
    assert result["records_replayed"] > 0 and result["replay_failed"] == 0
    assert all(fault["recovery_s"] is not None for fault in result["faults"])  # every table played again
    assert done.returncode == 0, done.stderr[-3000:]


HOSTS_URL = own_database("amigos_hosts_test")


def _descendants(pid: int) -> set[int]:
    """Every process below ``pid`` now (children, theirs, and so on)."""
    found: set[int] = set()
    waiting = [pid]
    while waiting:
        parent = waiting.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            with contextlib.suppress(OSError):
                children = {int(text) for text in (task / "children").read_text().split()}
                waiting.extend(children - found)
                found |= children
    return found


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def test_the_hosts_stop_everything_they_started_on_an_interrupt() -> None:
    """Regression: started in the background by a shell script, a bench inherits SIGINT ignored,
    and Python leaves it ignored: an interrupt was lost and the hosts ran on. bench/hosts.py,
    started so, is interrupted once its hosts answer: it ends, and every process it started (the
    hosts, the proxies) and every namespace it made are gone. The timeout only bounds a hang."""
    require_hosts()
    bench = subprocess.Popen(
        bench_command("hosts.py", "--hosts", "2", "--database", HOSTS_URL, "--redis", REDIS_URL),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=bench_env(),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),  # as `command &` in a script
    )  # fmt: skip
    try:
        assert bench.stdout is not None
        lines: list[str] = []
        for line in bench.stdout:
            lines.append(line)
            if line.rstrip() == "}":
                break
        where = json.loads("".join(lines))
        started = _descendants(bench.pid)
        hosts = {host["pid"] for host in where["hosts"]}
        assert hosts <= started and len(started) > len(hosts)  # the hosts and their proxies
        namespaces = {host["namespace"] for host in where["hosts"]} - {None}
        bench.send_signal(signal.SIGINT)
        assert bench.wait(timeout=180) == 0, bench.stderr.read() if bench.stderr else ""
    finally:
        if bench.poll() is None:
            bench.kill()
            bench.wait()
    assert not [pid for pid in started if _running(pid)]
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=False).stdout
    assert not [name for name in namespaces if name in listed.split()]
