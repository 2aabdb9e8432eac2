"""A simulation job spread over a Ray cluster (`pip install 'riffle[ray]'`).

    import ray, riffle.ray
    ray.init()                                  # or ray.init(address="auto") on a cluster
    records, summary = riffle.ray.simulate(job, workers=8, slice_size=200)

One actor per worker loads the content once and plays slices of the job's games (hundreds
per remote call, never a call per decision). Each actor checks that its content is the
driver's (the content hash): a worker whose files differ is refused rather than mixing two
versions of a card into one result. A slice whose worker dies is played again by another;
since a game depends only on the job and its index, the records are the same as one
process gives, and so is the summary.

On a real cluster, every node needs the same content at the same path (or give the job's
`paths` as they are on the nodes) and this package installed; see docs/simulation.md.
"""

import json

import ray

from . import _riffle

__all__ = ["simulate", "ContentMismatch"]


class ContentMismatch(RuntimeError):
    """A worker loaded other content than the driver."""


@ray.remote
class _Worker:
    def __init__(self, job_text, expected_hash):
        self.sim = _riffle.Simulator(job_text)
        if self.sim.content_hash != expected_hash:
            raise ContentMismatch(
                f"this worker's content hash is {self.sim.content_hash}, the driver's "
                f"{expected_hash}: give every node the same content"
            )

    def play(self, start, end):
        return self.sim.play(start, end)

    def pid(self):
        import os

        return os.getpid()


def simulate(job, workers=None, slice_size=100, max_retries=3, _on_submit=None):
    """Plays `job` (a dict, as `riffle.simulate`) on `workers` Ray actors (default: the
    cluster's CPUs); (records, summary) as `riffle.simulate` gives them."""
    text = json.dumps(job)
    local = _riffle.Simulator(text)
    total = local.total_games
    if workers is None:
        workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
    actors = [_Worker.remote(text, local.content_hash) for _ in range(workers)]
    slices = [(s, min(s + slice_size, total)) for s in range(0, total, slice_size)]
    done = {}
    pending = {}
    tries = {s: 0 for s in slices}
    free = list(actors)
    queue = list(slices)
    while queue or pending:
        while queue and free:
            actor = free.pop()
            s = queue.pop(0)
            tries[s] += 1
            ref = actor.play.remote(*s)
            pending[ref] = (s, actor)
            if _on_submit is not None:
                _on_submit(actor, s)
        ready, _ = ray.wait(list(pending), num_returns=1)
        ref = ready[0]
        s, actor = pending.pop(ref)
        try:
            done[s] = ray.get(ref)
            free.append(actor)
        except ray.exceptions.RayActorError:
            # The worker died: its slice goes to another (a new actor takes its place).
            if tries[s] > max_retries:
                raise
            queue.insert(0, s)
            free.append(_Worker.remote(text, local.content_hash))
    lines = [line for s in slices for line in done[s]]
    summary = local.summarize(lines)
    return [json.loads(line) for line in lines], json.loads(summary)
