"""Connection budgets and the accept loop that survives running out of descriptors."""

import errno
import logging

import trio

from fairtable.node import admission
from fairtable.node.admission import Budget, serve
from fairtable.node.loglimit import LogLimiter


def admit(budget: Budget, group, **kwargs):
    return budget.admit(group, trio.CancelScope(), **kwargs)


def test_a_full_budget_evicts_the_oldest_of_the_fullest_group():
    budget = Budget(total=4, per_group=3)
    flood = [admit(budget, "flooder") for _ in range(3)]
    peer = admit(budget, "peer")
    newcomer = admit(budget, "other")
    assert flood[0].evicted and flood[0].scope.cancel_called
    assert not any(t.evicted for t in (*flood[1:], peer, newcomer)) and budget.count == 4
    more = [admit(budget, "flooder") for _ in range(10)]  # one address never exceeds its own limit
    assert sum(not t.evicted for t in (*flood, *more)) == 2 and not peer.evicted and not newcomer.evicted
    assert budget.count == 4


def test_a_group_limit_can_be_set_per_group_and_release_gives_the_slot_back():
    budget = Budget(total=None)
    first, second = admit(budget, "key", per_group=2), admit(budget, "key", per_group=2)
    third = admit(budget, "key", per_group=2)
    assert first.evicted and not second.evicted and not third.evicted and budget.count == 2
    second.release()
    second.release()
    assert budget.count == 1
    with admit(budget, "key", per_group=2):
        assert budget.count == 2
    assert budget.count == 1


def test_try_admit_refuses_when_full_and_evicts_nobody():
    budget = Budget(total=2)
    held = [budget.try_admit(trio.CancelScope()) for _ in range(2)]
    assert budget.try_admit(trio.CancelScope()) is None and not any(t.evicted for t in held)
    held[0].release()
    assert budget.try_admit(trio.CancelScope()) is not None


class Exhausted(trio.abc.Listener):
    """A listener whose accept fails ``failures`` times with EMFILE, then hands out ``streams``."""

    def __init__(self, failures: int, streams: list) -> None:
        self.failures = failures
        self.streams = streams

    async def accept(self):
        await trio.lowlevel.checkpoint()
        if self.failures:
            self.failures -= 1
            raise OSError(errno.EMFILE, "Too many open files")
        if not self.streams:
            await trio.sleep_forever()
        return self.streams.pop(0)

    async def aclose(self) -> None:
        pass


class Stream:
    closed = False

    async def aclose(self) -> None:
        self.closed = True


async def test_accept_failing_for_lack_of_descriptors_is_logged_once_and_serving_goes_on(autojump_clock, caplog, monkeypatch):
    caplog.set_level(logging.INFO, logger="fairtable.node")
    monkeypatch.setattr(admission, "_ACCEPT_FAILURES", LogLimiter(logging.getLogger("fairtable.node"), per_subject=1))
    streams = [Stream(), Stream()]
    handled = []

    async def handler(stream):
        handled.append(stream)

    listener = Exhausted(300, list(streams))  # and no connection can give way: back off
    start = trio.current_time()
    async with trio.open_nursery() as nursery:
        await nursery.start(serve, [listener], handler)
        with trio.fail_after(600):
            while len(handled) < 2:
                await trio.sleep(1)
        nursery.cancel_scope.cancel()
    windows = (trio.current_time() - start) / 10 + 1
    assert handled == streams and all(stream.closed for stream in streams) and listener.failures == 0
    lines = [r.getMessage() for r in caplog.records]
    assert lines[0] == "node: cannot accept a connection (Too many open files); retrying with back-off"
    assert len(lines) <= 2 * windows and any("more failed accepts in the last 10 s" in line for line in lines)


async def test_when_a_connection_can_give_way_accept_closes_it_and_is_retried_at_once(autojump_clock):
    handled = []

    async def handler(stream):
        handled.append(stream)

    pending = Budget(None, evictable=True)
    strangers = [admit(pending, f"10.0.0.{n % 3}") for n in range(50)]
    unrelated = admit(Budget(None), "peer")
    async with trio.open_nursery() as nursery:
        start = trio.current_time()
        await nursery.start(serve, [Exhausted(50, [Stream()])], handler)
        while not handled:
            await trio.sleep(0.001)
        assert trio.current_time() - start < 0.01
        nursery.cancel_scope.cancel()
    assert all(t.evicted for t in strangers) and not unrelated.evicted and pending.count == 0
