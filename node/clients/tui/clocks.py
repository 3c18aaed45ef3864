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


NAME_WIDTHS = (None, 8, 4)
"""Seat names in full, then cut to 8 and to 4 letters, as the status line needs room."""


def status_line(update: dict, clocks: list[str] | None, turn: str, named: str | None, width: int) -> str:
    """The game, whose turn it is (``named``: the decision due here, else ``turn``), and every seat
    with its clock, in the first form that fits ``width``: names cut shorter, then the variant left
    out (names in full again, then cut), then only the running clock kept; then all of that again
    with ``turn`` for ``named``, and the shortest form if none fits."""
    seats, me = list(update.get("seats") or ()), update.get("seat")
    game = update["game"]
    line = ""
    for say in dict.fromkeys((named or turn, turn)):
        heads = (f"{game} {update['variant']} · {say} · ", f"{game} · {say} · ")
        for head, cut, every in [(head, cut, True) for head in heads for cut in NAME_WIDTHS] + [(heads[1], 4, False)]:
            parts = []
            for index, name in enumerate(seats):
                label = f"{name[:cut]} (you)" if index == me else name[:cut]
                clock = "" if clocks is None else clocks[index]
                if clocks is None and cut is None:
                    clock = "-"
                parts.append(f"{label} {clock if every or clock.startswith('▸') else ''}".rstrip())
            line = head + " │ ".join(parts)
            if len(line) <= width:
                return line
    return line
