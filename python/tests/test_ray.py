"""riffle.ray on a local two-CPU cluster (issue #29 item 4): the same records and summary as
one process; a killed worker's slice is played again with the same result; a worker with
other content is refused."""

import os

import pytest

ray = pytest.importorskip("ray")

import riffle  # noqa: E402
import riffle.ray as rray  # noqa: E402

JOB = {"game": "gundam", "games": 12, "seed": 21}


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_two_workers_give_what_one_process_gives(cluster):
    local_records, local_summary = riffle.simulate(JOB, threads=2)
    records, summary = rray.simulate(JOB, workers=2, slice_size=4)
    assert [r["log_hash"] for r in records] == [r["log_hash"] for r in local_records]
    assert summary == local_summary


def test_a_killed_workers_slice_is_played_again(cluster):
    killed = []

    def kill_first(actor, s):
        if not killed:
            killed.append(s)
            ray.kill(actor, no_restart=True)

    records, summary = rray.simulate(JOB, workers=2, slice_size=4, _on_submit=kill_first)
    local_records, local_summary = riffle.simulate(JOB, threads=1)
    assert killed, "a worker was killed"
    assert records == local_records and summary == local_summary


def test_a_worker_with_other_content_is_refused(cluster):
    text = __import__("json").dumps(JOB)
    w = rray._Worker.remote(text, "not-the-drivers-hash")
    with pytest.raises(ray.exceptions.RayActorError, match="content hash"):
        ray.get(w.pid.remote())
