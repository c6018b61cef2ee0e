"""The chaos run's own PostgreSQL and Redis (amigos.bench.services): they come up on their own
ports, a restart takes each down and brings it back (PostgreSQL with its data, Redis empty, as a
Redis that saves nothing), and closing removes everything. The machine's own services are never
touched."""

from __future__ import annotations

import os

import psycopg
import pytest
import redis

from amigos.bench import services


def test_a_run_restarts_services_of_its_own_and_leaves_nothing_behind() -> None:
    why = services.available()
    if why is not None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(why)
        pytest.skip(why)
    with services.OwnServices() as own:
        assert {own.pg_port, own.redis_port}.isdisjoint({5432, 6379})
        where = own.pg_dir
        assert where is not None and where.exists()
        with psycopg.connect(own.database_url("postgres"), autocommit=True) as connection:
            connection.execute("CREATE TABLE kept (n int)")
            connection.execute("INSERT INTO kept VALUES (7)")
        store = redis.Redis.from_url(own.redis_url(14))
        store.set("gone", "1")
        own.stop_postgres()
        with pytest.raises(psycopg.OperationalError):
            psycopg.connect(own.database_url("postgres"), connect_timeout=2).close()
        own.start_postgres()
        with psycopg.connect(own.database_url("postgres")) as connection:
            assert connection.execute("SELECT n FROM kept").fetchone() == (7,)
        own.stop_redis()
        own.start_redis()
        assert redis.Redis.from_url(own.redis_url(14)).get("gone") is None
    assert not where.exists()
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(own.database_url("postgres"), connect_timeout=2).close()
