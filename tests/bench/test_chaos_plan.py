"""The chaos bench's seeded schedule of faults (amigos.bench.chaos_plan): repeatable, and every
fault where the runner can carry it out and undo it before the next one."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from amigos.bench.chaos_plan import HOST_KINDS, KINDS, Fault, schedule


@st.composite
def plans(draw: st.DrawFn) -> dict[str, object]:
    return {
        "seconds": draw(st.floats(min_value=0, max_value=3600)),
        "hosts": draw(st.integers(min_value=1, max_value=6)),
        "kinds": tuple(draw(st.lists(st.sampled_from(KINDS), min_size=1, unique=True))),
        "lease_s": draw(st.floats(min_value=1, max_value=30)),
        "recover_s": draw(st.floats(min_value=1, max_value=60)),
    }


@given(st.data())
def test_the_same_seed_gives_the_same_schedule(data: st.DataObject) -> None:
    seed = data.draw(st.randoms(use_true_random=False)).getrandbits(64)  # what --seed names
    plan = data.draw(plans())
    assert schedule(seed, **plan) == schedule(seed, **plan)  # type: ignore[arg-type]


@given(st.data())
def test_faults_follow_one_another_within_the_run_and_aim_where_they_can(data: st.DataObject) -> None:
    rng = data.draw(st.randoms(use_true_random=False))
    plan = data.draw(plans())
    faults = schedule(rng, **plan)  # type: ignore[arg-type]
    kinds: tuple[str, ...] = plan["kinds"]  # type: ignore[assignment]
    seconds, hosts = float(plan["seconds"]), int(plan["hosts"])  # type: ignore[arg-type]
    lease_s, recover_s = float(plan["lease_s"]), float(plan["recover_s"])  # type: ignore[arg-type]
    previous: Fault | None = None
    for fault in faults:
        assert fault.kind in kinds
        assert fault.ends_s + recover_s <= seconds + 0.1  # undone, and the tables given time, in the run
        if previous is not None:  # one at a time, each after the last one's recovery time
            assert fault.at_s >= previous.ends_s + recover_s - 0.1
        if fault.kind in HOST_KINDS:
            assert fault.host is not None and 0 <= fault.host < hosts
        else:
            assert fault.host is None
        if fault.kind == "freeze":  # outlasts the lease: the other hosts take the tables over
            assert fault.hold_s > lease_s
        if fault.kind == "cut":
            assert fault.hold_s == 10.0
        assert fault.hold_s > 0
        previous = fault
    # every kind once, in a shuffled order, before any kind comes twice
    first = [fault.kind for fault in faults[: len(kinds)]]
    assert len(first) == len(set(first))


@given(st.data())
def test_a_run_long_enough_sees_every_kind(data: st.DataObject) -> None:
    rng = data.draw(st.randoms(use_true_random=False))
    hosts = data.draw(st.integers(min_value=1, max_value=4))
    # the longest a fault holds is a freeze (lease + 5 s); seven of those with their recovery fit
    faults = schedule(rng, seconds=7 * (6 + 5 + 20) + 10, hosts=hosts, lease_s=6, recover_s=20)
    assert {fault.kind for fault in faults} == set(KINDS)


def test_a_seed_names_one_schedule() -> None:
    assert schedule(7, 600, 3) == schedule(7, 600, 3)
    assert schedule(7, 600, 3) != schedule(8, 600, 3)
