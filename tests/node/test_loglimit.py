"""Rate-limited, summarised log lines: a flood of connections writes a few lines, not one each."""

import logging

import trio

from fairtable.node.loglimit import LogLimiter

log = logging.getLogger("test.loglimit")


def lines(caplog) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.name == log.name]


async def test_repeated_lines_are_summarised_per_subject_at_the_end_of_the_window(autojump_clock, caplog):
    caplog.set_level(logging.INFO, logger=log.name)
    quiet = LogLimiter(log, window=10, per_subject=2)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(quiet.run)
        for n in range(1236):
            quiet.log(logging.WARNING, "peer 192.0.2.7", "connections refused", f"192.0.2.7:{n}: refused")
        quiet.log(logging.WARNING, "peer 192.0.2.8", "connections refused", "192.0.2.8:1: refused")
        await trio.sleep(11)
        assert lines(caplog) == [
            "peer 192.0.2.7: 192.0.2.7:0: refused",
            "peer 192.0.2.7: 192.0.2.7:1: refused",
            "peer 192.0.2.8: 192.0.2.8:1: refused",
            "peer 192.0.2.7: 1,234 more connections refused in the last 10 s",
        ]
        quiet.log(logging.WARNING, "peer 192.0.2.7", "connections refused", "again")
        assert lines(caplog)[-1] == "peer 192.0.2.7: again"
        nursery.cancel_scope.cancel()


async def test_twenty_thousand_lines_about_many_subjects_stay_a_few_dozen(autojump_clock, caplog):
    caplog.set_level(logging.INFO, logger=log.name)
    quiet = LogLimiter(log)
    for n in range(20_000):
        quiet.log(logging.WARNING, f"peer 10.0.{n // 256}.{n % 256}", "failed handshakes", "handshake timeout")
    await trio.sleep(10)
    quiet.flush()
    written = lines(caplog)
    assert len(written) <= 60
    assert written[-1].startswith("19,950 more lines like these") and "in the last 10 s" in written[-1]


async def test_lines_below_the_logger_level_cost_nothing_and_are_not_counted(autojump_clock, caplog):
    caplog.set_level(logging.WARNING, logger=log.name)
    quiet = LogLimiter(log)
    for _ in range(100):
        quiet.log(logging.INFO, "peer x", "links", "ended")
    await trio.sleep(10)
    quiet.flush()
    assert lines(caplog) == []
