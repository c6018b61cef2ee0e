"""The Academy's heavy jobs: one per player at a time, a bounded site-wide queue whose place each
waiting player sees, and the "try" and "rest" pages computed in the workers, not in the web process."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings

from amigos.web.accounts.models import User
from amigos.web.archive import academy
from amigos.web.archive.models import ArchivedMatch
from amigos.web.archive.services import academy_jobs, archive_match
from amigos.web.archive.services.academy_jobs import JobRefused, JobRegistry
from amigos.web.workers import pool
from tests.web.archive.test_statistics import suits_record
from tests.web.conftest import SignedIn

START = datetime(2026, 5, 3, 21, 0, tzinfo=UTC)


class Gate:
    """A job that runs until the test opens the gate (so the queue can be looked at meanwhile)."""

    def __init__(self) -> None:
        self.opened = threading.Event()

    def job(self, value: int) -> int:
        if not self.opened.wait(timeout=60):
            raise TimeoutError("the test never opened the gate")
        return value


@pytest.fixture
def gate() -> Iterator[Gate]:
    gate = Gate()
    yield gate
    gate.opened.set()


def test_a_player_has_one_heavy_job_at_a_time(gate: Gate) -> None:
    registry = JobRegistry(lambda: ThreadPoolExecutor(max_workers=1), limit=10)
    first = registry.submit(user_id=1, key=("values", 1), run=gate.job, args=(1,))
    # The same request again is the same job; another one is refused with a code while it runs.
    assert registry.submit(user_id=1, key=("values", 1), run=gate.job, args=(1,)).id == first.id
    with pytest.raises(JobRefused) as refused:
        registry.submit(user_id=1, key=("try", 1), run=gate.job, args=(2,))
    assert refused.value.code == "job-running"
    other = registry.submit(user_id=2, key=("try", 1), run=gate.job, args=(2,))  # another player may
    gate.opened.set()
    assert first.future.result(timeout=60) == 1 and other.future.result(timeout=60) == 2
    # Once it is done, the player may ask for something else.
    again = registry.submit(user_id=1, key=("try", 1), run=gate.job, args=(3,))
    assert again.future.result(timeout=60) == 3


def test_the_queue_is_bounded_and_each_job_knows_its_place(gate: Gate) -> None:
    registry = JobRegistry(lambda: ThreadPoolExecutor(max_workers=1), limit=3)
    jobs = [
        registry.submit(user_id=user, key=("values", user), run=gate.job, args=(user,)) for user in (1, 2, 3)
    ]
    assert [job.ahead for job in jobs] == [0, 1, 2]
    assert [job.to_dict()["status"] for job in jobs] == ["running", "waiting", "waiting"]
    assert jobs[2].to_dict()["ahead"] == 2
    with pytest.raises(JobRefused) as refused:
        registry.submit(user_id=4, key=("values", 4), run=gate.job, args=(4,))
    assert refused.value.code == "queue-full"
    gate.opened.set()
    assert [job.future.result(timeout=60) for job in jobs] == [1, 2, 3]
    found = registry.get(jobs[2].id, user_id=3)
    assert found is not None and found.to_dict()["status"] == "done"
    # A place in the queue is free again.
    assert (
        registry.submit(user_id=4, key=("values", 4), run=gate.job, args=(4,)).future.result(timeout=60) == 4
    )


def test_with_two_workers_two_jobs_run_at_once(gate: Gate) -> None:
    registry = JobRegistry(lambda: ThreadPoolExecutor(max_workers=2), limit=5, workers=2)
    jobs = [
        registry.submit(user_id=user, key=("values", user), run=gate.job, args=(user,)) for user in (1, 2, 3)
    ]
    assert [job.ahead for job in jobs] == [0, 0, 1]
    assert [job.to_dict()["status"] for job in jobs] == ["running", "running", "waiting"]
    gate.opened.set()
    assert [job.future.result(timeout=60) for job in jobs] == [1, 2, 3]


# -- the pages -----------------------------------------------------------------------------------


@pytest.fixture
def table(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> tuple[SignedIn, ArchivedMatch]:
    beto = sign_in("Beto")
    players = [make_player("Ana"), beto.user, make_player("Caro"), make_player("Dani")]
    archive_match(
        source="table:3:match:1",
        record=suits_record(),
        seat_user_ids=[p.pk for p in players],
        table_name="Mesa",
        started_at=START,
        ended_at=START + timedelta(minutes=30),
    )
    return beto, ArchivedMatch.objects.get()


@pytest.mark.django_db
def test_a_second_request_while_one_runs_gets_a_translated_answer(
    table: tuple[SignedIn, ArchivedMatch], gate: Gate, monkeypatch: pytest.MonkeyPatch
) -> None:
    beto, match = table
    registry = JobRegistry(lambda: ThreadPoolExecutor(max_workers=1), limit=10)
    monkeypatch.setattr(academy_jobs, "registry", registry)
    monkeypatch.setattr("amigos.web.archive.replay_views.PAGE_WAIT_SECONDS", 0)
    registry.submit(user_id=beto.user.pk, key=("elsewhere",), run=gate.job, args=(0,))
    refused = beto.client.post(f"/stats/replay/{match.pk}/1/27/values/")
    assert refused.status_code == 429 and refused.json() == {"error": "job-running"}
    real = suits_record()["hands"][0]["moves"]
    page = beto.client.get(
        f"/stats/replay/{match.pk}/1/try/",
        {"moves": ".".join([*real[:16], "6-2@2"]), "at": 17},
    )
    assert page.status_code == 429 and b'data-code="job-running"' in page.content
    assert "Ya tienes un cálculo en marcha" in page.content.decode()
    replay = beto.client.get(f"/stats/replay/{match.pk}/1/0/").content.decode()
    assert "Ya tienes un cálculo en marcha" in replay and "demasiado grande" in replay


@pytest.mark.django_db
def test_a_page_shows_its_place_in_the_queue_while_it_waits(
    table: tuple[SignedIn, ArchivedMatch],
    gate: Gate,
    monkeypatch: pytest.MonkeyPatch,
    make_player: Callable[..., User],
) -> None:
    beto, match = table
    registry = JobRegistry(lambda: ThreadPoolExecutor(max_workers=1), limit=2)
    monkeypatch.setattr(academy_jobs, "registry", registry)
    monkeypatch.setattr("amigos.web.archive.replay_views.PAGE_WAIT_SECONDS", 0)
    registry.submit(user_id=make_player("Otro").pk, key=("elsewhere",), run=gate.job, args=(0,))
    real = suits_record()["hands"][0]["moves"]
    query = {"moves": ".".join([*real[:16], "6-2@2"]), "at": 17}
    beto.client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    waiting = beto.client.get(f"/stats/replay/{match.pk}/1/try/", query)
    assert waiting.status_code == 202 and waiting["Refresh"] == "1"
    assert 'data-ahead="1"' in waiting.content.decode()
    assert "1 calculation is ahead of yours" in waiting.content.decode()
    del beto.client.cookies[settings.LANGUAGE_COOKIE_NAME]  # Spanish, the site's first language
    spanish = beto.client.get(f"/stats/replay/{match.pk}/1/try/", query)
    assert "hay 1 cálculo antes del tuyo en la cola" in spanish.content.decode()
    gate.opened.set()
    for job in list(registry._jobs.values()):
        job.future.result(timeout=60)
    done = beto.client.get(f"/stats/replay/{match.pk}/1/try/", query)
    assert done.status_code == 200 and "6-2@2" in done.content.decode()
    values = beto.client.post(f"/stats/replay/{match.pk}/1/27/values/")
    assert values.status_code == 202 and values.json()["ahead"] == 0


@pytest.mark.django_db
def test_the_queue_full_answer_over_http(
    table: tuple[SignedIn, ArchivedMatch], gate: Gate, monkeypatch: pytest.MonkeyPatch
) -> None:
    beto, match = table
    registry = JobRegistry(lambda: ThreadPoolExecutor(max_workers=1), limit=1)
    monkeypatch.setattr(academy_jobs, "registry", registry)
    registry.submit(user_id=beto.user.pk + 1000, key=("elsewhere",), run=gate.job, args=(0,))
    full = beto.client.post(f"/stats/replay/{match.pk}/1/27/values/")
    assert full.status_code == 503 and full.json() == {"error": "queue-full"}
    page = beto.client.get(f"/stats/replay/{match.pk}/1/rest/", {"moves": "6-6"})
    assert page.status_code == 503 and b'data-code="queue-full"' in page.content


@pytest.mark.django_db
def test_try_rest_and_values_never_play_on_in_the_web_process(
    table: tuple[SignedIn, ArchivedMatch], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: the "try" and "rest" pages played the hand (or the match) on with the computer
    players inside the web process, ~300 ms of its CPU each, and the values request did too."""
    beto, match = table

    def not_here(*args: object) -> None:
        raise AssertionError("the computer players played on in the web process")

    monkeypatch.setattr(academy, "_finish", not_here)  # this process only: the worker is spawned
    workers = pool(1, niceness=0, memory_mb=0)
    monkeypatch.setattr(academy_jobs, "registry", JobRegistry(lambda: workers))
    monkeypatch.setattr("amigos.web.archive.replay_views.PAGE_WAIT_SECONDS", 120)
    try:
        real = suits_record()["hands"][0]["moves"]
        moves = ".".join([*real[:16], "6-2@2"])
        tried = beto.client.get(f"/stats/replay/{match.pk}/1/try/", {"moves": moves, "at": 17})
        assert tried.status_code == 200 and "6-2@2" in tried.content.decode()
        rest = beto.client.get(f"/stats/replay/{match.pk}/1/rest/", {"moves": moves})
        assert rest.status_code == 200 and rest.content.decode().count("<tbody>") == 2
        started = beto.client.post(f"/stats/replay/{match.pk}/1/17/values/?moves={moves}")
        assert started.status_code == 202
        job = academy_jobs.registry.get(started.json()["job"], user_id=beto.user.pk)
        assert job is not None
        result = job.future.result(timeout=120)
        assert result["played"] is not None and result["exact"]
    finally:
        workers.shutdown(wait=True)
