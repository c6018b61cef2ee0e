"""Several server hosts on one machine, for the multi-host benches and tests (issue 40).

A `Cluster` starts N `amigos serve` processes that share one PostgreSQL and one Redis, each as if
on its own machine:

* **namespaces** (root, and `ip netns add` allowed): each host lives in its own network namespace
  (`ip netns`), joined to a bridge in the machine's own namespace by a veth pair, with its own
  address on a private /24 (``10.213.X.0/24``). The bridge has no route out and forwarding is not
  turned on, so a host reaches only the bridge's address (where the service proxies listen) and
  the other hosts: nothing leaves the machine. Cutting a host's network is taking its veth down.
* **loopback** (anything else, or ``namespaces=False``): each host listens on its own loopback
  address (``127.0.0.10``, ``127.0.0.11``, ...); a host's network cannot be cut.

PostgreSQL and Redis are reached through one HAProxy (Debian's ``haproxy``, TCP mode) each, which
this module starts and owns: killing one drops every connection to that service at once (what a
restart of the service looks like to the hosts), stopping it with SIGSTOP makes the service hang,
and the machine's real services are never touched. Optionally a third HAProxy (HTTP mode) in
front spreads browsers' sockets over the hosts (``front=True``).

Optionally the hard computer players' searches run on `bot_workers` processes of their own
(``amigos.web.bot_queue``), in a namespace of their own too, reached through Redis.

The cluster stops everything it started when it leaves its ``with`` block, whatever the reason
(Ctrl+C included): processes first, then the namespaces, the veths and the bridge.

Standard library only: the benches import it before Django is set up.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

#: The port every host serves on (each host has its own address, so they can all use the same).
HOST_PORT = 8000

#: How long a host may take to answer /readyz after it starts.
READY_SECONDS = 90.0


def _tool(name: str) -> str:
    """A system tool's full path (``ip``, ``haproxy``), or its bare name when it is missing."""
    return shutil.which(name) or name


def namespaces_allowed() -> bool:
    """Whether this process may make network namespaces (root, and the kernel lets it)."""
    if os.geteuid() != 0 or shutil.which("ip") is None:
        return False
    probe = f"amigos-probe-{os.getpid()}"
    made = subprocess.run([_tool("ip"), "netns", "add", probe], capture_output=True, check=False)
    if made.returncode != 0:
        return False
    subprocess.run([_tool("ip"), "netns", "del", probe], capture_output=True, check=False)
    return True


def free_port(address: str = "127.0.0.1") -> int:
    with socket.socket() as probe:
        probe.bind((address, 0))
        return int(probe.getsockname()[1])


def _ip(*args: str) -> None:
    subprocess.run([_tool("ip"), *args], check=True, capture_output=True)


def _quiet_ip(*args: str) -> None:
    subprocess.run([_tool("ip"), *args], check=False, capture_output=True)


@dataclass
class Host:
    """One server host: its address, its namespace (None on loopback) and its process."""

    index: int
    address: str
    port: int
    namespace: str | None
    veth: str | None
    process: subprocess.Popen[bytes] | None = None
    log: Path | None = None
    frozen: bool = False

    @property
    def name(self) -> str:
        return f"h{self.index}"

    @property
    def url(self) -> str:
        return f"http://{self.address}:{self.port}"

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None


@dataclass
class ServiceProxy:
    """One HAProxy in TCP mode between the hosts and a shared service (PostgreSQL or Redis)."""

    name: str
    listen: tuple[str, int]
    target: tuple[str, int]
    config: Path
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.config.write_text(
            "global\n  maxconn 4000\n"
            "defaults\n  mode tcp\n  timeout connect 5s\n  timeout client 24h\n  timeout server 24h\n"
            f"listen {self.name}\n  bind {self.listen[0]}:{self.listen[1]}\n"
            f"  server {self.name} {self.target[0]}:{self.target[1]}\n"
        )
        with self.config.with_suffix(".log").open("ab") as log:
            self.process = subprocess.Popen(
                [_tool("haproxy"), "-db", "-f", str(self.config)], stdout=log, stderr=log
            )
        wait_listening(self.listen, 10.0)

    def kill(self) -> None:
        """Every connection to the service drops at once, as when the service restarts."""
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signal.SIGCONT)
            self.process.kill()
            self.process.wait()
        self.process = None

    def freeze(self) -> None:
        """The service hangs: connections stay open and nothing is answered."""
        if self.process is not None:
            os.kill(self.process.pid, signal.SIGSTOP)

    def thaw(self) -> None:
        if self.process is not None:
            os.kill(self.process.pid, signal.SIGCONT)


def wait_listening(address: tuple[str, int], seconds: float) -> None:
    """Until something accepts connections at ``address`` (a RuntimeError after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(address, timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {address[0]}:{address[1]} after {seconds} s")


def _with_host(url: str, host: str, port: int, path: str | None = None) -> str:
    parts = urlsplit(url)
    netloc = f"{parts.username}@" if parts.username else ""
    netloc = netloc.replace("@", f":{parts.password}@") if parts.password else netloc
    return urlunsplit((parts.scheme, f"{netloc}{host}:{port}", path or parts.path, parts.query, ""))


@dataclass
class Cluster:
    """N hosts sharing ``database_url`` and ``redis_url`` through proxies (see the module doc).

    ``env`` is the hosts' environment (settings, secrets); the cluster adds the database, Redis,
    bus namespace and allowed hosts. Use as a context manager."""

    count: int
    database_url: str
    redis_url: str
    env: dict[str, str]
    namespaces: bool | None = None
    front: bool = False
    bot_workers: int = 0
    hosts: list[Host] = field(default_factory=list)
    proxies: dict[str, ServiceProxy] = field(default_factory=dict)
    front_proxy: subprocess.Popen[bytes] | None = None
    front_port: int = 0
    workers: subprocess.Popen[bytes] | None = None
    tag: str = ""
    bridge: str = ""
    gateway: str = "127.0.0.1"
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="amigos-hosts-")))
    workers_namespace: str | None = None
    keep_logs: bool = False

    def __enter__(self) -> Cluster:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # setting up

    def start(self) -> None:
        if shutil.which("haproxy") is None:
            raise RuntimeError("bench hosts need HAProxy (Debian: apt-get install haproxy)")
        if self.namespaces is None:
            self.namespaces = namespaces_allowed()
        self.tag = f"am{os.getpid() % 100000}"
        if self.namespaces:
            self._make_network()
        else:
            self.hosts = [
                Host(index, f"127.0.0.{10 + index}", HOST_PORT, None, None) for index in range(self.count)
            ]
        self._start_service_proxies()
        for host in self.hosts:
            self.start_host(host)
        if self.bot_workers:
            self.start_workers()
        for host in self.hosts:
            self.wait_ready(host)
        if self.front:
            self._start_front()

    def _make_network(self) -> None:
        """A bridge with the gateway address, and one namespace per host joined to it by a veth."""
        subnet = 20 + os.getpid() % 200
        self.bridge = f"{self.tag}b"
        self.gateway = f"10.213.{subnet}.1"
        _ip("link", "add", self.bridge, "type", "bridge")
        _ip("addr", "add", f"{self.gateway}/24", "dev", self.bridge)
        _ip("link", "set", self.bridge, "up")
        names = [f"{self.tag}-h{index}" for index in range(self.count)]
        if self.bot_workers:
            names.append(f"{self.tag}-w")
        for number, namespace in enumerate(names):
            outside, inside = f"{self.tag}o{number}", f"{self.tag}i{number}"
            address = f"10.213.{subnet}.{10 + number}"
            _ip("netns", "add", namespace)
            _ip("link", "add", outside, "type", "veth", "peer", "name", inside)
            _ip("link", "set", inside, "netns", namespace)
            _ip("link", "set", outside, "master", self.bridge)
            _ip("link", "set", outside, "up")
            _ip("-n", namespace, "link", "set", "lo", "up")
            _ip("-n", namespace, "addr", "add", f"{address}/24", "dev", inside)
            _ip("-n", namespace, "link", "set", inside, "up")
            if number < self.count:
                self.hosts.append(Host(number, address, HOST_PORT, namespace, outside))
            else:
                self.workers_namespace = namespace

    def _start_service_proxies(self) -> None:
        for name, url, default in (("postgres", self.database_url, 5432), ("redis", self.redis_url, 6379)):
            parts = urlsplit(url)
            target = (parts.hostname or "127.0.0.1", parts.port or default)
            proxy = ServiceProxy(
                name, (self.gateway, free_port(self.gateway)), target, self.workdir / f"{name}.cfg"
            )
            proxy.start()
            self.proxies[name] = proxy

    def host_env(self) -> dict[str, str]:
        """The environment of every host (and of the bot workers): the services through the proxies."""
        pg, redis = self.proxies["postgres"].listen, self.proxies["redis"].listen
        env = dict(self.env)
        env["AMIGOS_DATABASE_URL"] = _with_host(self.database_url, *pg)
        env["AMIGOS_REDIS_URL"] = _with_host(self.redis_url, *redis)
        env.setdefault("AMIGOS_BUS_NAMESPACE", f"hosts-{self.tag}")
        allowed = [host.address for host in self.hosts] + ["127.0.0.1", "localhost"]
        env["AMIGOS_ALLOWED_HOSTS"] = ",".join(allowed)
        if self.bot_workers:
            env["AMIGOS_BOT_SERVICE"] = "1"
        return env

    def _in_namespace(self, namespace: str | None, command: list[str]) -> list[str]:
        # `ip netns exec` enters the namespace and executes the command: the process keeps its pid
        return [_tool("ip"), "netns", "exec", namespace, *command] if namespace else command

    def start_host(self, host: Host) -> None:
        command = [
            sys.executable, "-m", "amigos.cli", "serve",
            "--host", host.address, "--port", str(host.port), "--log-level", "warning",
        ]  # fmt: skip
        host.log = self.workdir / f"{host.name}.log"
        with host.log.open("ab") as log:
            host.process = subprocess.Popen(
                self._in_namespace(host.namespace, command),
                env=self.host_env(),
                stdout=log,
                stderr=log,
                start_new_session=True,  # a Ctrl+C reaches the bench, which stops the hosts itself
            )
        host.frozen = False

    def wait_ready(self, host: Host, seconds: float = READY_SECONDS) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if not host.alive():
                raise RuntimeError(f"host {host.name} ended while starting; see {host.log}")
            try:
                with urllib.request.urlopen(f"{host.url}/readyz", timeout=2) as answer:  # noqa: S310
                    if answer.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"host {host.name} was not ready after {seconds} s; see {host.log}")

    def start_workers(self) -> None:
        command = [sys.executable, "-m", "amigos.web.bot_queue", "--processes", str(self.bot_workers)]
        log = self.workdir / "workers.log"
        with log.open("ab") as out:
            self.workers = subprocess.Popen(
                self._in_namespace(self.workers_namespace, command),
                env=self.host_env(),
                stdout=out,
                stderr=out,
                start_new_session=True,
            )

    def _start_front(self) -> None:
        """HAProxy in HTTP mode on 127.0.0.1: each new socket goes to the host with fewest."""
        self.front_port = free_port()
        servers = "".join(
            f"  server {host.name} {host.address}:{host.port} check inter 1s\n" for host in self.hosts
        )
        config = self.workdir / "front.cfg"
        config.write_text(
            # HAProxy wants two descriptors a connection: within a common 20,000 limit
            "global\n  maxconn 9000\n"
            "defaults\n  mode http\n  timeout connect 5s\n  timeout client 60s\n"
            "  timeout server 60s\n  timeout tunnel 1h\n"
            f"frontend site\n  bind 127.0.0.1:{self.front_port}\n  default_backend hosts\n"
            f"backend hosts\n  balance leastconn\n  option httpchk GET /readyz\n{servers}"
        )
        self.front_proxy = subprocess.Popen(
            [_tool("haproxy"), "-db", "-f", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        wait_listening(("127.0.0.1", self.front_port), 10.0)

    # faults

    def signal_host(self, host: Host, number: signal.Signals) -> None:
        if host.process is not None and host.process.poll() is None:
            os.kill(host.process.pid, number)

    def kill(self, host: Host) -> None:
        """SIGKILL: the host dies at once (its bot pool ends with it)."""
        self.signal_host(host, signal.SIGCONT)
        self.signal_host(host, signal.SIGKILL)
        if host.process is not None:
            host.process.wait()

    def terminate(self, host: Host, seconds: float = 60.0) -> None:
        """SIGTERM: a deploy's stop (the host drains, releases its leases, then ends)."""
        self.signal_host(host, signal.SIGTERM)
        if host.process is not None:
            try:
                host.process.wait(timeout=seconds)
            except subprocess.TimeoutExpired:
                self.kill(host)

    def freeze(self, host: Host) -> None:
        self.signal_host(host, signal.SIGSTOP)
        host.frozen = True

    def thaw(self, host: Host) -> None:
        self.signal_host(host, signal.SIGCONT)
        host.frozen = False

    def cut(self, host: Host) -> bool:
        """Take the host's network down (False where it cannot be cut: the loopback mode)."""
        if host.veth is None:
            return False
        _ip("link", "set", host.veth, "down")
        return True

    def mend(self, host: Host) -> None:
        if host.veth is not None:
            _ip("link", "set", host.veth, "up")

    def restart(self, host: Host) -> None:
        self.start_host(host)
        self.wait_ready(host)

    # stopping

    def stop(self) -> None:
        """Stop everything this cluster started, whatever state it is in."""
        for host in self.hosts:
            if host.veth is not None:  # a cut host stops cleanly (leases released) only when reachable
                _quiet_ip("link", "set", host.veth, "up")
            if host.alive():
                self.thaw(host)
                self.terminate(host, seconds=20.0)
        if self.workers is not None and self.workers.poll() is None:
            self.workers.terminate()
            try:
                self.workers.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.workers.kill()
                self.workers.wait()
        if self.front_proxy is not None and self.front_proxy.poll() is None:
            self.front_proxy.kill()
            self.front_proxy.wait()
        for proxy in self.proxies.values():
            proxy.kill()
        if self.namespaces and self.tag:
            for number in range(self.count + 1):
                _quiet_ip("link", "del", f"{self.tag}o{number}")
                _quiet_ip("netns", "del", f"{self.tag}-h{number}")
            _quiet_ip("netns", "del", f"{self.tag}-w")
            if self.bridge:
                _quiet_ip("link", "del", self.bridge)
        if self.keep_logs:
            print(f"the hosts' logs are in {self.workdir}", file=sys.stderr)
        else:
            shutil.rmtree(self.workdir, ignore_errors=True)

    # reading

    def resident_kb(self, host: Host) -> int:
        """The host's resident memory (with its bot pool's processes, children of it)."""
        if host.pid is None:
            return 0
        total = 0
        for pid in [host.pid, *_children(host.pid)]:
            with contextlib.suppress(OSError):
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        return total


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(part) for part in text.split()]


def _interrupted(*_: object) -> None:
    raise KeyboardInterrupt


def stop_on_signals() -> None:
    """SIGTERM and SIGINT both stop a run as Ctrl+C does (raising `KeyboardInterrupt`), so that a
    cluster's ``with`` block undoes everything it started. Why SIGINT too: a process started in
    the background by a shell script inherits SIGINT *ignored*, and Python then leaves it so; a
    `timeout -s INT` or a runner's interrupt would otherwise be lost and the run go on to its end."""
    signal.signal(signal.SIGTERM, _interrupted)
    signal.signal(signal.SIGINT, _interrupted)


def reset_database(url: str) -> None:
    """Drop and create the bench's own database (the name in ``url``), empty."""
    import psycopg  # the bench's own dependency, installed with the site

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if not name or name in {"postgres", "template0", "template1"}:
        raise ValueError(f"refusing to reset the database {name!r}")
    admin = urlunsplit((parts.scheme, parts.netloc, "/postgres", parts.query, ""))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')
