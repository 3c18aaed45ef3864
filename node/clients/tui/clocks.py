"""Every seat's clock as the status line shows it: the table event's ``clocks`` (``spec/client-api.md``)
counted down by the client's own clock since the event, the running one first through its turn
time and then through the grace the others wait before they may declare its seat absent."""

from __future__ import annotations


def clock_text(seconds: float) -> str:
    whole = int(seconds + 0.999)
    return f"{whole // 60}:{whole % 60:02d}"


def seat_clocks(update: dict, elapsed: float) -> list[str] | None:
    """One text per seat, in seat order, ``elapsed`` seconds after ``update`` arrived: ``1:00``
    for a seat not due (its turn time), ``▸0:42`` running, ``▸grace 0:25`` once its turn time
    ran out; None for a table without a turn timer."""
    clocks = update.get("clocks")
    if not isinstance(clocks, list):
        return None
    texts = []
    for clock in clocks:
        if not clock.get("running"):
            texts.append(clock_text(clock["turn"]))
            continue
        left = clock["turn"] - elapsed
        texts.append(f"▸{clock_text(left)}" if left > 0 else f"▸grace {clock_text(max(0.0, clock['grace'] + left))}")
    return texts
