"""Plain-text rendering of a zeeslag view (``Zeeslag.view``) for the terminal client, within 80×24.

Two own seas side by side in full size; three or more as small grids, six to a band; the
shared sea as one wide grid (two bands of four blocks for eight seats). Salvos are too many
to list as moves, so they are typed: :func:`parse_move` reads ``"1:B7 2:C3"`` (enemy seat,
colon, cells), and :func:`move_hint` says what is due.
"""

from __future__ import annotations

from fairtable.games.zeeslag.fleet import FLEETS, Fleet
from fairtable.games.zeeslag.sea import ROW_LETTERS, Grid
from fairtable.games.zeeslag.waters import BLOCK, OwnSeas, SharedSea

LEGEND = "S ship, X hit, ? owner unknown, # sunk, o miss, ~ ring water, . unknown"
GAP = "    "
WIDTH = 80
BAND = 6
"""Small grids of own seas per band."""


def _grid_of(view: dict, index: int) -> Grid:
    sea = view["seas"][index]
    return Grid(sea["width"], sea["height"])


def _layout(view: dict) -> OwnSeas | SharedSea:
    return SharedSea(view["seats"]) if view["variant"] == "shared" else OwnSeas(view["seats"])


def move_line(view: dict, move: dict) -> str:
    """A legal move in words: ``shoot B7``, ``sunk: A1 A2``, ``salvo: 1:B7 2:C3``."""
    name = _grid_of(view, 0).name if view.get("seas") else Grid(10, 10).name
    if "shoot" in move:
        return f"shoot {name(move['shoot'])}" + (" (timer)" if move.get("timeout") else "")
    if "pass" in move:
        return "pass (every target left holds your own ship)"
    if "salvo" in move:
        return "salvo: " + (" ".join(f"{foe}:{name(cell)}" for foe, cell in move["salvo"]) or "no shots")
    if "timeout" in move:
        return "salvo fired by the timer"
    ships = move.get("sunk") or []
    return "sunk: " + ("; ".join(" ".join(map(name, ship)) for ship in ships) if ships else "none")


def move_hint(view: dict) -> str | None:
    """What to type for a salvo due now, or None."""
    due = [(foe, count) for foe, count in view.get("due", []) if count]
    if not due:
        return None
    foes = ", ".join(str(foe) for foe, _ in due)
    example = f"e.g. '{due[0][0]}: B7 C3'"
    if view["salvo"] == "focus":
        return f"Type {max(count for _, count in due)} shots, all at one of seats {foes}, {example}"
    counts = {count for _, count in due}
    if len(counts) == 1:
        return f"Type {counts.pop()} shots at each of seats {foes}, {example}"
    return "Type shots " + ", ".join(f"{count} at {foe}" for foe, count in due) + f", {example}"


def parse_move(view: dict, text: str) -> dict | None:
    """The salvo a player typed: ``seat:cell`` tokens, or cells after a ``seat:`` (which then
    applies until the next one); in the shared sea a bare cell goes at the first seat due
    whose waters hold it. None if it cannot be read (the node judges the rest)."""
    due = {foe: count for foe, count in view.get("due", [])}
    if not due:
        return None
    layout, grid = _layout(view), _grid_of(view, 0)
    current, pairs = None, []
    for token in text.replace(",", " ").split():
        head, colon, tail = token.partition(":")
        if colon:
            if not head.isdecimal() or int(head) not in due:
                return None
            current, token = int(head), tail
            if not token:
                continue
        try:
            cell = grid.parse(token)
        except ValueError:
            return None
        foe = current
        if foe is None:
            fits = [f for f in due if isinstance(layout, SharedSea) and layout.to_board(f, cell) is not None]
            if not fits:
                return None
            foe = fits[0]
        pairs.append([foe, cell])
    return {"salvo": sorted(pairs)} if pairs else None


# ------------------------------------------------------------------ the picture


def describe_move(before: dict, move: dict, after: dict) -> str:
    """A move as a transcript lists it: ``B7: hit`` (its outcome read from ``after``, the view once
    the target answered; `` at seat T`` with several own seas), the target's answer ``sunk: Kruiser
    (Cruiser) at A1 A2 A3`` or ``not sunk``; anything else as :func:`move_line` says it."""
    name = _grid_of(after, 0).name
    if "shoot" in move:
        shot = next((shot for shot in reversed(after["recent"]) if shot["cell"] == move["shoot"] and shot["seat"] == before["seat"]), None)
        hit = None if shot is None else shot["hit"]
        outcome = "?" if hit is None else ("hit" if hit == 1 else f"{hit} ships hit") if hit else "miss"
        at = f" at seat {shot['target']}" if shot is not None and after["seats"] > 2 and after["variant"] != "shared" else ""
        return f"{name(move['shoot'])}{at}: {outcome}" + (" (timeout)" if move.get("timeout") else "")
    if "sunk" in move and not move.get("timeout"):
        ships = move["sunk"] or []
        if not ships:
            return "not sunk"
        fleet = FLEETS[after["fleet"]]
        sunk = {tuple(entry["cells"]): fleet.ships[entry["ship"]] for sea in after["seas"] for entry in sea["sunk"]}
        words = []
        for cells in ships:
            ship = sunk.get(tuple(cells))
            words.append((f"{ship.name} ({ship.name_en}) at " if ship else "") + " ".join(map(name, cells)))
        return "sunk: " + "; ".join(words)
    return move_line(before, move)


def render(view: dict) -> str:
    """The seas, the fleets, the last shots and what happens now, as lines of text."""
    fleet = FLEETS[view["fleet"]]
    names = _names(view)
    if view["variant"] == "shared":
        body = _shared(view)
    elif view["seats"] == 2:
        body = _pair(view)
    else:
        body = _bands(view)
    title = _title(view, fleet)
    hint = move_hint(view)
    tail = [_status(view, names) if hint is None else hint + "."]
    lines = ([title] if len(body) + len(tail) < 24 else []) + body
    extra = [f"Legend: {LEGEND}"]
    if view["seats"] == 2:
        seat = view["seat"]
        order = [0, 1] if seat is None else [seat, 1 - seat]
        extra += [_fleet_line(fleet, view["fleets"][index], "Your fleet" if index == seat else f"Fleet of {names[index]}") for index in order]
    else:
        extra.append("Ships afloat: " + ", ".join(_afloat(view, index) for index in range(view["seats"])))
    room = 24 - len(lines) - len(tail)
    extra = extra[: max(room, 0)]
    shots = [f"  {_shot_line(shot, fleet, names, view)}" for shot in view["recent"]]
    room -= len(extra) + 1
    if shots and room > 0:
        extra += ["Last shots:", *shots[-room:]]
    return "\n".join(lines + extra + tail)


def _title(view: dict, fleet: Fleet) -> str:
    """The game and its options in one line; shorter forms when it would not fit (the labels
    over the grids show partners too)."""
    ring = [] if view["variant"] == "shared" else [f"water ring {'on' if view['water_ring'] else 'off'}"]
    salvo = [f"salvo {view['salvo']} {view['shots']}"] if view["seats"] > 2 else []
    teams = ["teams " + " / ".join("+".join(map(str, team)) for team in view["teams"])] if view["teams"] else []
    marks = ["* you, + mate, x out"] if view["variant"] == "shared" and BLOCK * view["seats"] + 2 > WIDTH else []
    for name, extra in ((f"{fleet.name} ({fleet.name_en})", teams), (fleet.name, teams), (fleet.name, [])):
        title = ", ".join([f"Zeeslag {view['variant']}", f"fleet {name}", *ring, *salvo, *extra, *marks])
        if len(title) <= WIDTH:
            break
    return title


def _names(view: dict) -> list[str]:
    seat = view["seat"]
    if seat is not None and view["seats"] == 2:
        return ["you" if index == seat else "enemy" for index in range(2)]
    return ["you" if index == seat else f"seat {index}" for index in range(view["seats"])]


def _marks(view: dict, index: int) -> list[str]:
    """One character per cell of sea ``index``."""
    sea = view["seas"][index]
    marks = ["."] * (sea["width"] * sea["height"])
    for fleet in view["fleets"]:
        if fleet["sea"] == index and fleet["layout"] is not None:
            for cell, _ in fleet["layout"]:
                marks[cell] = "S"
    for cell in sea["water"]:
        marks[cell] = "~"
    for cell in sea["shots"]:
        marks[cell] = "o"
    for cell in sea["hits"]:
        marks[cell] = "X"
    for cell in sea["unknown"]:
        marks[cell] = "?"
    for sunk in sea["sunk"]:
        for cell in sunk["cells"]:
            marks[cell] = "#"
    return marks


def _pair(view: dict) -> list[str]:
    """Two own seas side by side, three characters a cell."""
    seat = view["seat"]
    order = [0, 1] if seat is None else [seat, 1 - seat]
    titles = [f"Seat {index}" if seat is None else f"{'Your fleet' if index == seat else 'Enemy waters'} (seat {index})" for index in order]
    grids = []
    for index in order:
        grid, marks = _grid_of(view, index), _marks(view, index)
        header = "  " + "".join(f"{x + 1:>3}" for x in range(grid.width))
        rows = [f"{ROW_LETTERS[y]:<2}" + "".join(f"{marks[grid.cell(x, y)]:>3}" for x in range(grid.width)) for y in range(grid.height)]
        grids.append([header, *rows])
    width = len(grids[0][0])
    return [GAP.join(f"{title:<{width}}" for title in titles).rstrip(), *(GAP.join(grid[row] for grid in grids) for row in range(len(grids[0])))]


def _small(view: dict, index: int) -> list[str]:
    grid, marks = _grid_of(view, index), _marks(view, index)
    return [f"{ROW_LETTERS[y]} " + "".join(marks[grid.cell(x, y)] for x in range(grid.width)) for y in range(grid.height)]


def _bands(view: dict) -> list[str]:
    """Own seas of three or more seats as small grids, six to a band; the column numbers once."""
    seats = view["seats"]
    per = BAND if seats <= BAND else (seats + 1) // 2
    lines = []
    for start in range(0, seats, per):
        indices = list(range(start, min(start + per, seats)))
        grids = [_small(view, index) for index in indices]
        lines.append(" ".join(f"{_label(view, index):<12}" for index in indices).rstrip())
        if start == 0:
            lines.append(" ".join("  " + "".join(str((x + 1) % 10) for x in range(10)) for _ in indices))
        lines.extend(" ".join(grid[row] for grid in grids) for row in range(len(grids[0])))
    return lines


def _label(view: dict, index: int) -> str:
    """``s3 mate 4``: the seat, whether it is you or your partner, and its ships afloat (or ``out``)."""
    fleet = view["fleets"][index]
    who = "you" if index == view["seat"] else ("mate" if _mate(view, index) else "")
    state = "out" if fleet["out"] else str(fleet["afloat"])
    return " ".join(part for part in (f"s{index}", who, state) if part)


def _mate(view: dict, index: int) -> bool:
    seat = view["seat"]
    return seat is not None and index != seat and any(seat in team and index in team for team in view["teams"])


def _shared(view: dict) -> list[str]:
    """The shared sea: block labels over their columns, one character a cell."""
    grid, marks = _grid_of(view, 0), _marks(view, 0)
    seats = view["seats"]
    per = seats if BLOCK * seats + 2 <= WIDTH else (seats + 1) // 2
    lines = []
    for start in range(0, seats, per):
        blocks = range(start, min(start + per, seats))
        if per == seats:
            lines.append("  " + "".join(f"{_block_label(view, b, False):<{BLOCK}}" for b in blocks).rstrip())
            lines.append("  " + "".join(str((x + 1) % 10) for x in range(BLOCK * len(blocks))))
        else:
            lines.append("  " + "".join(f"{_block_label(view, b, True):<{BLOCK}}" for b in blocks).rstrip())
        for y in range(grid.height):
            lines.append(f"{ROW_LETTERS[y]} " + "".join(marks[grid.cell(x, y)] for b in blocks for x in range(BLOCK * b, BLOCK * (b + 1))))
    return lines


def _block_label(view: dict, block: int, columns: bool) -> str:
    """A block's label; without the digits line (eight seats) its columns instead, marked
    ``*`` you, ``+`` your partner, ``x`` out (the title says so)."""
    if not columns:
        return _label(view, block)
    mark = "*" if block == view["seat"] else "+" if _mate(view, block) else "x" if view["fleets"][block]["out"] else " "
    return f"s{block}{mark}{BLOCK * block + 1}-{BLOCK * (block + 1)}"


def _afloat(view: dict, index: int) -> str:
    fleet = view["fleets"][index]
    return f"{'you' if index == view['seat'] else f's{index}'} {'out' if fleet['out'] else fleet['afloat']}"


def _fleet_line(fleet: Fleet, entry: dict, title: str) -> str:
    """``Fleet of enemy: 4 of 5 afloat (5 4 3 3), sunk: Torpedobootjager`` within a line."""
    sunk = set(entry["sunk"])
    afloat = " ".join(str(ship.length) for ship in fleet.ships if ship.index not in sunk)
    line = f"{title}: {entry['afloat']} of {len(fleet.ships)} afloat ({afloat})"
    if sunk:
        line += ", sunk: " + ", ".join(ship.name for ship in fleet.ships if ship.index in sunk)
    return line if len(line) <= WIDTH else line[: WIDTH - 3] + "..."


def _shot_line(shot: dict, fleet: Fleet, names: list[str], view: dict) -> str:
    outcome = "being opened" if shot["hit"] is None else ("hit" if shot["hit"] == 1 else f"{shot['hit']} ships hit") if shot["hit"] else "miss"
    for seat, ship in shot["sunk"]:
        owner = "" if view["seats"] == 2 else f" of {names[seat]}"
        outcome += f", {fleet.ships[ship].name}{owner} sunk"
    late = " (timer)" if shot["timer"] else ""
    at = "" if view["variant"] == "shared" or view["seats"] == 2 else f" at {names[shot['target']]}"
    return f"{names[shot['seat']]} shot {_grid_of(view, 0).name(shot['cell'])}{at}: {outcome}{late}"


def _status(view: dict, names: list[str]) -> str:
    phase, seat, result = view["phase"], view["seat"], view["result"]
    if result is not None:
        winners = result["winners"]
        if not winners:
            who = "a draw"
        elif len(winners) > 1:
            who = f"{'your team' if seat in winners else 'team'} {'+'.join(map(str, winners))} won"
        else:
            who = f"{names[winners[0]]} won"
        done = f"Game over ({result['reason']}): {who}"
        return done + ("; the fleets are being opened." if phase == "opening" else "")
    if phase == "placement":
        return "Place your fleet." if seat is not None else "The fleets are being placed."
    if view["watching"]:
        return "You are out of the game: watching everything as it is opened."
    if phase == "start":
        return "Drawing who shoots first."
    if phase == "aim":
        if view["turn"] is None:
            return "Your salvo is due." if view["due"] else "The salvos are being aimed, all at once and in secret."
        turn = view["turn"]
        timeouts = view["timeouts"][turn]
        late = f" ({timeouts} timeouts in a row)" if timeouts else ""
        return f"Your turn: shoot{late}." if turn == seat else f"Turn of {names[turn]}: shoot{late}."
    if phase in ("pick", "fill"):
        return "The timer fires the late salvos at random targets."
    if phase == "open":
        return "The shots are being opened."
    doing = {"answer": "say which of its ships sank", "prove": "prove its sink", "ring": "open the water around its sunk ship"}[phase]
    answering = view["answering"]
    if answering == seat:
        return f"Your node must {doing.replace('its', 'your')}."
    return f"Waiting for {names[answering]} to {doing}."
