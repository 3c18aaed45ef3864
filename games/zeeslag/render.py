"""Plain-text rendering of a zeeslag view (``Zeeslag.view``) for the terminal client."""

from __future__ import annotations

from fairtable.games.zeeslag.fleet import FLEETS, Fleet
from fairtable.games.zeeslag.sea import ROW_LETTERS, SEA

LEGEND = "S ship, X hit, # sunk, o miss, ~ water (ring), . unknown"
GAP = "    "


def move_line(view: dict, move: dict) -> str:
    """A legal move in words: ``shoot B7`` or the answer to a hit, ``sunk: yes``."""
    if "shoot" in move:
        return f"shoot {SEA.name(move['shoot'])}" + (" (timer)" if move.get("timeout") else "")
    return f"sunk: {'yes' if move.get('sunk') else 'no'}"


def describe_move(before: dict, move: dict, after: dict) -> str:
    """A move as a transcript lists it: ``B7: hit`` (its outcome read from ``after``, the view once
    the target answered), or the target's answer, ``B7: sunk, Kruiser (Cruiser)`` or ``B7: not sunk``."""
    if "shoot" in move:
        cell, shooter = move["shoot"], before["seat"]
        shot = next((shot for shot in reversed(after["recent"]) if shot["cell"] == cell and shot["seat"] == shooter), None)
        outcome = "?" if shot is None or shot["hit"] is None else "hit" if shot["hit"] else "miss"
        target = f" at seat {shot['target']}" if shot is not None and len(after["seas"]) > 2 else ""
        return f"{SEA.name(cell)}{target}: {outcome}" + (" (timeout)" if move.get("timeout") else "")
    cell = SEA.name(before["aim"])
    if not move.get("sunk"):
        return f"{cell}: not sunk"
    sunk = [entry["ship"] for entry in after["seas"][before["seat"]]["sunk"]]
    ship = FLEETS[after["fleet"]].ships[sunk[-1]] if sunk else None
    return f"{cell}: sunk" + ("" if ship is None else f", {ship.name} ({ship.name_en})")


def render(view: dict) -> str:
    """Both seas, the fleets' state, the last shots and whose turn it is, as lines of text."""
    seat = view["seat"]
    fleet = FLEETS[view["fleet"]]
    seas = view["seas"]
    names = [f"seat {index}" if seat is None else "you" if index == seat else "enemy" for index in range(len(seas))]
    order = list(range(len(seas))) if seat is None else [seat] + [index for index in range(len(seas)) if index != seat]
    titles = [f"Seat {index}" if seat is None else f"{'Your fleet' if index == seat else 'Enemy waters'} (seat {index})" for index in order]
    grids = [_grid(seas[index]) for index in order]
    width = len(grids[0][0])
    lines = [
        f"Zeeslag {view['variant']}, fleet {fleet.name} ({fleet.name_en}), water ring {'on' if view['water_ring'] else 'off'}",
        GAP.join(f"{title:<{width}}" for title in titles).rstrip(),
        *(GAP.join(grid[row] for grid in grids) for row in range(len(grids[0]))),
        f"Legend: {LEGEND}",
    ]
    lines.extend(_fleet_line(fleet, seas[index], "Your fleet" if index == seat else f"Fleet of {names[index]}") for index in order)
    if view["recent"]:
        lines.append("Last shots:")
        lines.extend(f"  {_shot_line(shot, fleet, names)}" for shot in view["recent"])
    lines.append(_status(view, names))
    return "\n".join(lines)


def _grid(sea: dict) -> list[str]:
    """The sea as text rows: a header with column numbers, then one row per letter."""
    marks = ["."] * SEA.size
    if sea["layout"] is not None:
        for cell, ship in enumerate(sea["layout"]):
            if ship:
                marks[cell] = "S"
    for cell in sea["water"]:
        marks[cell] = "~"
    for cell in sea["shots"]:
        marks[cell] = "o"
    for cell in sea["hits"]:
        marks[cell] = "X"
    for sunk in sea["sunk"]:
        for cell in sunk["cells"]:
            marks[cell] = "#"
    header = "  " + "".join(f"{x + 1:>3}" for x in range(SEA.width))
    rows = [f"{ROW_LETTERS[y]:<2}" + "".join(f"{marks[SEA.cell(x, y)]:>3}" for x in range(SEA.width)) for y in range(SEA.height)]
    return [header, *rows]


def _fleet_line(fleet: Fleet, sea: dict, title: str) -> str:
    sunk = {entry["ship"] for entry in sea["sunk"]}
    afloat = len(fleet.ships) - len(sunk)
    ships = ", ".join(f"{ship.name} ({ship.length}) {'sunk' if ship.index in sunk else 'afloat'}" for ship in fleet.ships)
    return f"{title}: {afloat} of {len(fleet.ships)} afloat: {ships}"


def _shot_line(shot: dict, fleet: Fleet, names: list[str]) -> str:
    outcome = "?" if shot["hit"] is None else "hit" if shot["hit"] else "miss"
    if shot["sunk"] is not None:
        outcome += f", {fleet.ships[shot['sunk']].name} sunk"
    late = " (timeout)" if shot["timeout"] else ""
    return f"{names[shot['seat']]} shot {SEA.name(shot['cell'])}: {outcome}{late}"


def _status(view: dict, names: list[str]) -> str:
    phase, turn, result = view["phase"], view["turn"], view["result"]
    if result is not None:
        winners = result["winners"]
        who = "draw" if not winners else f"{names[winners[0]]} won"
        done = f"Game over ({result['reason']}): {who}"
        return done + ("; the fleets are being opened." if phase == "opening" else "")
    if phase == "placement":
        return "Place your fleet." if view["seat"] is not None else "The fleets are being placed."
    if phase == "start":
        return "Drawing who shoots first."
    if phase == "shoot":
        timeouts = view["timeouts"][turn]
        late = f" ({timeouts} timeouts in a row)" if timeouts else ""
        return f"Your turn: shoot{late}." if turn == view["seat"] else f"Turn of {names[turn]}: shoot{late}."
    target, cell = names[1 - turn], SEA.name(view["aim"])
    doing = {
        "open_shot": f"open {cell}: hit or miss",
        "answer": f"answer whether the hit at {cell} sank a ship",
        "open_ship": f"prove the sink at {cell}",
        "open_ring": f"open the water around the ship sunk at {cell}",
    }[phase]
    return f"You must {doing}." if 1 - turn == view["seat"] else f"Waiting for {target} to {doing}."
