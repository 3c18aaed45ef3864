"""Plain-text rendering of a zeeslag view (``Zeeslag.view``) for the terminal client, within 80×24.

Two own seas side by side in full size; three or more as small grids, six to a band; the
shared sea as one wide grid (two bands of four blocks for eight seats); the space battle's
20×10 star fields one character a cell, up to three to a band. Salvos are too many to list as
moves, so they are typed: :func:`parse_move` reads ``"bob:B7 carol:C3"`` (an enemy by name, or a
unique beginning of it, colon, cells; seat numbers stay on the wire) and, in the space battle,
one ability for one enemy (``"scan bob:C4"``, ``"laser bob:A5"``, ``"nuke bob:C4"``,
``"reserve"``); :func:`move_hint` says what is due.
"""

from __future__ import annotations

from typing import Any

from fairtable.games.lang import choose, counted, named
from fairtable.games.people import player, players
from fairtable.games.results import reason_words
from fairtable.games.zeeslag.fleet import FLEETS, Fleet
from fairtable.games.zeeslag.sea import ROW_LETTERS, Grid
from fairtable.games.zeeslag.starships import ABILITIES, CATALOGUE, SPACE
from fairtable.games.zeeslag.waters import BLOCK

LEGEND = "S ship, X hit, ? owner unknown, # sunk, o miss, ~ ring water, . unknown"
SPACE_LEGEND = "S ship, F fighter, X hit, # sunk, * scanned, o miss, ~ water, . unknown"
GAP = "    "
WIDTH = 80
BAND = 6
"""Small grids of own seas per band."""


def _grid_of(view: dict, index: int) -> Grid:
    sea = view["seas"][index]
    return Grid(sea["width"], sea["height"])


def _fleet(view: dict) -> Fleet:
    return SPACE if view["variant"] == "space" else FLEETS[view["fleet"]]


def _ship_name(view: dict, ship: int) -> str:
    """A ship's name in the language in use (a reserve fighter's too)."""
    return CATALOGUE.ship_name(ship) if view["variant"] == "space" else named(_fleet(view).ships[ship])


def move_line(view: dict, move: dict) -> str:
    """A legal move in words: ``shoot B7``, ``sunk: A1 A2``, ``salvo: 1:B7 2:C3``; in the space
    battle also ``laser A5``, ``scan C4``, ``nuke C4``, ``reserve``, ``salvo: 1:B7 + scan 2:C4``,
    ``beam hits C5`` and ``declare 12 ships``."""
    name = _grid_of(view, 0).name if view.get("seas") else Grid(10, 10).name
    if "shoot" in move:
        return f"shoot {name(move['shoot'])}" + (" (timer)" if move.get("timeout") else "")
    if "pass" in move:
        return "pass (every target left holds your own ship)"
    if "salvo" in move:
        shots = " ".join(f"{_typed_name(foe)}:{name(cell)}" for foe, cell in move["salvo"])
        ability = _ability_words(move["ability"], name) if "ability" in move else ""
        return "salvo: " + (" + ".join(part for part in (shots, ability) if part) or "no shots")
    if "timeout" in move:
        return "salvo fired by the timer"
    if any(key in move for key in ABILITIES):
        return _ability_words(move, name)
    if "beam" in move:
        return "beam hits nothing" if move["beam"] == -1 else f"beam hits {name(move['beam'])}"
    if "ships" in move:
        return f"declare {counted('ship', move['ships'])}"
    ships = move.get("sunk") or []
    return "sunk: " + ("; ".join(" ".join(map(name, ship)) for ship in ships) if ships else "none")


def _ability_words(ability: dict, name: Any) -> str:
    """``laser bob:A5`` (in a salvo, at bob) or ``laser A5``; ``reserve``."""
    kind = next(key for key in ABILITIES if key in ability)
    at = f"{_typed_name(ability['at'])}:" if "at" in ability else ""
    if kind == "reserve":
        return "reserve" + (f" (instead of the shots at {player(ability['at'])})" if at else "")
    return f"{kind} {at}{name(ability[kind])}"


def _typed_name(seat: int) -> str:
    """An enemy as a salvo is typed: its name without spaces (``bot#2``), so a token holds it."""
    return "".join(player(seat).split())


def _enemy(due: dict, typed: str) -> int | None:
    """The due enemy a typed name names: the name (spaces left out, case aside), else the one
    name it begins; None for no or several (``you`` is never due: one does not shoot oneself)."""
    key = typed.casefold()
    names = {foe: _typed_name(foe).casefold() for foe in due}
    found = [foe for foe, name in names.items() if name == key] or [foe for foe, name in names.items() if key and name.startswith(key)]
    return found[0] if len(found) == 1 else None


def move_hint(view: dict) -> str | None:
    """What to type for a salvo due now (the enemies by name), or None."""
    due = [(foe, count) for foe, count in view.get("due", []) if count]
    if not due:
        return None
    example = f"e.g. '{_typed_name(due[0][0])}: B7 C3'"
    for foes in (", ".join(player(foe) for foe, _ in due), f"{len(due)} enemies"):  # the names while they fit
        if view["salvo"] == "focus":
            hint = f"Type {max(count for _, count in due)} shots, all at one of {foes}, {example}"
        elif len(counts := {count for _, count in due}) == 1:
            hint = f"Type {counts.pop()} shots at each of {foes}, {example}"
        else:
            hint = "Type shots " + ", ".join(f"{count} at {player(foe)}" for foe, count in due) + f", {example}"
        if len(hint) < WIDTH:
            break
    ready = ready_abilities(view)
    if ready:
        target = "" if ready[0] == "reserve" else f" {_typed_name(due[0][0])}:" + ("A5" if ready[0] == "laser" else "C4")
        extra = f" or '{ready[0]}{target}'"
        hint += extra if len(hint) + len(extra) < WIDTH else ""
    return hint


def ready_abilities(view: dict) -> list[str]:
    """The abilities this seat may use in the round it chooses now (space battle), as far as it
    knows: the view's ``ready`` (its cycle allows it) with a ship of its kind afloat."""
    seat = view["seat"]
    if view["variant"] != "space" or seat is None:
        return []
    return [entry["ability"] for entry in view["fleets"][seat]["abilities"] if entry["afloat"] and entry["ready"]]


def own_round(view: dict) -> int:
    """The own round this seat chooses for now (space battle), as the view counts it."""
    return int(view["fleets"][view["seat"]]["round"])


def parse_move(view: dict, text: str) -> dict | None:
    """The salvo a player typed: ``name:cell`` tokens, or cells after a ``name:`` (which then
    applies until the next one); in the shared sea a bare cell goes at the first enemy the view's
    ``targets`` give for it. None if it cannot be read (the node judges the rest)."""
    due = {foe: count for foe, count in view.get("due", [])}
    if not due:
        return None
    grid = _grid_of(view, 0)
    shared = {cell: foes for sea, cell, foes in view.get("targets", ())} if view["variant"] == "shared" else {}
    current, pairs = None, []
    tokens = text.replace(",", " ").split()
    ability = None
    if view["variant"] == "space":
        found = [index for index, token in enumerate(tokens) if token.lower() in ABILITIES]
        if len(found) > 1:
            return None
        if found:
            typed = _typed_ability(view, grid, tokens[found[0]:found[0] + 2], due)
            if typed is None:
                return None
            ability, used = typed
            tokens = tokens[:found[0]] + tokens[found[0] + used:]
    for token in tokens:
        head, colon, tail = token.partition(":")
        if colon:
            current, token = _enemy(due, head), tail
            if current is None:
                return None
            if not token:
                continue
        try:
            cell = grid.parse(token)
        except ValueError:
            return None
        foe = current
        if foe is None:
            fits = [f for f in shared.get(cell, ()) if f in due]
            if not fits:
                return None
            foe = fits[0]
        pairs.append([foe, cell])
    if ability is not None:
        return {"salvo": sorted(pairs), "ability": ability}
    return {"salvo": sorted(pairs)} if pairs else None


def _typed_ability(view: dict, grid: Grid, tokens: list[str], due: dict) -> tuple[dict, int] | None:
    """The ability of a typed salvo and how many tokens it took: ``laser bob:A5`` (its name, then
    enemy and cell), or ``reserve`` (in a spread salvo ``reserve bob`` spares bob, by default the
    first due)."""
    kind = tokens[0].lower()
    if kind == "reserve":
        if view["salvo"] == "focus":
            return {"reserve": True}, 1
        named = _enemy(due, tokens[1]) if len(tokens) > 1 else None
        spared = min(due) if named is None else named
        return {"reserve": True, "at": spared}, 1 if named is None else 2
    head, colon, tail = tokens[1].partition(":") if len(tokens) > 1 else ("", "", "")
    at = _enemy(due, head) if colon else None
    if at is None:
        return None
    try:
        return {kind: grid.parse(tail), "at": at}, 2
    except ValueError:
        return None


# ------------------------------------------------------------------ the picture


def describe_move(before: dict, move: dict, after: dict) -> str:
    """A move as a transcript lists it: ``B7: hit`` (its outcome read from ``after``, the view once
    the target answered; `` at T``, the target by name, with several own seas), the target's answer ``sunk: Kruiser
    (Cruiser) at A1 A2 A3`` or ``not sunk``; anything else as :func:`move_line` says it."""
    name = _grid_of(after, 0).name
    if "shoot" in move:
        shot = next((shot for shot in reversed(after["recent"]) if shot["cell"] == move["shoot"] and shot["seat"] == before["seat"]), None)
        hit = None if shot is None else shot["hit"]
        outcome = "?" if hit is None else counted("ships_hit", hit) if hit else "miss"
        at = f" at {player(shot['target'])}" if shot is not None and after["seats"] > 2 and after["variant"] != "shared" else ""
        return f"{name(move['shoot'])}{at}: {outcome}" + (" (timeout)" if move.get("timeout") else "")
    if "sunk" in move and not move.get("timeout"):
        ships = move["sunk"] or []
        if not ships:
            return "not sunk"
        sunk = {tuple(entry["cells"]): entry["ship"] for sea in after["seas"] for entry in sea["sunk"]}
        words = []
        for cells in ships:
            ship = sunk.get(tuple(cells))
            label = "" if ship is None else f"{_ship_name(after, ship)} at "
            words.append(label + " ".join(map(name, cells)))
        return "sunk: " + "; ".join(words)
    return move_line(before, move)


def render(view: dict) -> str:
    """The seas, the fleets, the last shots and what happens now, as lines of text."""
    if view["variant"] == "space":
        return _space(view)
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
        extra.append(_afloat(view))
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
    teams = ["teams " + " / ".join(players(team, view["seat"]) for team in view["teams"])] if view["teams"] else []
    marks = ["* you, + mate, x out"] if view["variant"] == "shared" and BLOCK * view["seats"] + 2 > WIDTH else []
    name = named(fleet)
    for extra in (teams, []):
        title = ", ".join([f"Zeeslag {view['variant']}", f"fleet {name}", *ring, *salvo, *extra, *marks])
        if len(title) <= WIDTH:
            break
    return title


def standing(view: dict) -> str:
    """What the result's scores count, by name: the enemy ships each seat helped to sink."""
    return "enemy ships sunk: " + ", ".join(f"{player(seat, view['seat'])} {count}" for seat, count in enumerate(view["sank"]))


def _names(view: dict) -> list[str]:
    return [player(index, view["seat"]) for index in range(view["seats"])]


def _marks(view: dict, index: int) -> list[str]:
    """One character per cell of sea ``index``."""
    sea = view["seas"][index]
    marks = ["."] * (sea["width"] * sea["height"])
    for fleet in view["fleets"]:
        if fleet["sea"] == index and fleet["layout"] is not None:
            for cell, _ in fleet["layout"]:
                marks[cell] = "S"
        if fleet["sea"] == index and fleet.get("fighters"):
            for cell, _ in fleet["fighters"]:
                marks[cell] = "F"
    for cell in sea.get("seen", ()):
        marks[cell] = "*"
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
    titles = [player(index) if seat is None else "Your fleet" if index == seat else f"Waters of {player(index)}" for index in order]
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
    """``bob+ 4``: the player by name (``you``; ``+`` your partner), and its ships afloat (or
    ``out``), within the small grid's 12 columns."""
    fleet = view["fleets"][index]
    state = "out" if fleet["out"] else str(fleet["afloat"])
    who = player(index, view["seat"])[:10 - len(state)] + ("+" if _mate(view, index) else "")
    return f"{who} {state}"


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
    return f"{player(block, view['seat'])[:3]}{mark}{BLOCK * block + 1}-{BLOCK * (block + 1)}"


def _afloat(view: dict) -> str:
    """``Ships afloat: you 5, bob out, …``, the names cut short where the line would not fit."""
    for cut in (10, 3):
        line = "Ships afloat: " + ", ".join(f"{player(index, view['seat'])[:cut]} {'out' if fleet['out'] else fleet['afloat']}"
                                            for index, fleet in enumerate(view["fleets"]))
        if len(line) <= WIDTH:
            break
    return line[:WIDTH]


def _fleet_line(fleet: Fleet, entry: dict, title: str) -> str:
    """``Fleet of enemy: 4 of 5 afloat (5 4 3 3), sunk: Destroyer`` within a line."""
    sunk = set(entry["sunk"])
    afloat = " ".join(str(ship.length) for ship in fleet.ships if ship.index not in sunk)
    line = f"{title}: {entry['afloat']} of {len(fleet.ships)} afloat ({afloat})"
    if sunk:
        line += ", sunk: " + ", ".join(named(ship) for ship in fleet.ships if ship.index in sunk)
    return line if len(line) <= WIDTH else line[: WIDTH - 3] + "..."


def _shot_line(shot: dict, fleet: Fleet, names: list[str], view: dict) -> str:
    outcome = "being opened" if shot["hit"] is None else counted("ships_hit", shot["hit"]) if shot["hit"] else "miss"
    for seat, ship in shot["sunk"]:
        owner = "" if view["seats"] == 2 else f" of {names[seat]}"
        outcome += f", {_ship_name(view, ship)}{owner} sunk"
    late = " (timer)" if shot["timer"] else ""
    at = "" if view["variant"] == "shared" or view["seats"] == 2 else f" at {names[shot['target']]}"
    where = _grid_of(view, 0).name(shot["cell"]) if shot["cell"] >= 0 else ""
    kind = shot.get("kind", "shot")
    if kind == "reserve":
        return f"{names[shot['seat']]} landed a reserve squadron"
    if kind == "scan":
        return f"{names[shot['seat']]} scanned {where}{at}: {shot['hit']} ship cells found"
    if kind == "laser" and not shot["hit"]:
        return f"{names[shot['seat']]} fired a laser from {where}{at}: it met no ship"
    verb = {"shot": "shot", "nuke": "nuked", "blast": "blasted", "laser": "lasered"}[kind]
    return f"{names[shot['seat']]} {verb} {where}{at}: {outcome}{late}"


def _status(view: dict, names: list[str]) -> str:
    phase, seat, result = view["phase"], view["seat"], view["result"]
    if result is not None:
        winners = result["winners"]
        if not winners:
            who = "a draw"
        elif len(winners) > 1:
            who = "your team won" if seat in winners else f"the team of {names[winners[0]]} won"
        else:
            who = f"{names[winners[0]]} won"
        done = f"Game over ({reason_words(result['reason'], 'zeeslag')}): {who}"
        return (done + ("; the fleets are being opened." if phase == "opening" else ""))[:WIDTH]
    if phase == "placement":
        if view["variant"] == "space":
            return f"Buy and place your fleet ({view['money']} to spend)." if seat is not None else "The fleets are being bought and placed."
        return "Place your fleet." if seat is not None else "The fleets are being placed."
    if phase == "muster":
        return "Each node declares how many ships its seat bought."
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
        if view["variant"] == "space":
            action = f", action {view['actions'] + 1} of 3" if view["actions"] else ""
            return (f"Your turn: shoot or use an ability{action}{late}." if turn == seat
                    else f"Turn of {names[turn]}{action}{late}.")
        return f"Your turn: shoot{late}." if turn == seat else f"Turn of {names[turn]}: shoot{late}."
    if phase in ("pick", "fill"):
        return "The timer fires the late salvos at random targets."
    if phase == "open":
        return "The shots are being opened."
    doing = {"answer": "say which of its ships sank", "prove": "prove its sink", "ring": "open the water around its sunk ship",
             "land": "land its reserve", "beam": "say where the laser meets its ships", "trace": "open the laser's path",
             "scan": "open the scanned cells"}[phase]
    answering = view["answering"]
    if answering == seat:
        return f"Your node must {doing.replace('its', 'your')}."
    return f"Waiting for {names[answering]} to {doing}."


# ------------------------------------------------------------------ the space battle


def _space(view: dict) -> str:
    """Star fields one character a cell, up to three to a band (two bands from four seats,
    which leaves room for the status line only); below them the fleets, abilities and last shots."""
    names = _names(view)
    seat, seats = view["seat"], view["seats"]
    order = list(range(seats)) if seat is None else [seat, *(index for index in range(seats) if index != seat)]
    per = 3 if seats <= 3 else (seats + 1) // 2
    body = []
    for start in range(0, seats, per):
        indices = order[start:start + per]
        body.append(GAP.join(f"{_field_label(view, index, names):<22}" for index in indices).rstrip())
        if start == 0:
            body.append(GAP.join("  " + ticks(_grid_of(view, index).width) for index in indices))
        grids = [_small(view, view["fleets"][index]["sea"]) for index in indices]
        body.extend(GAP.join(grid[row] for grid in grids) for row in range(len(grids[0])))
    hint = move_hint(view)
    tail = [_status(view, names) if hint is None else hint + "."]
    title = f"Zeeslag space, money {view['money']}, water ring {'on' if view['water_ring'] else 'off'}"
    title += f", salvo {view['salvo']} {view['shots']}" if seats > 2 else ""
    lines = ([title] if len(body) + len(tail) < 24 else []) + body
    extra = [f"Legend: {SPACE_LEGEND}"]
    if seat is not None and view["fleets"][seat]["layout"] is not None:
        extra += [_own_fleet_line(view, seat), _abilities_line(view, seat)]
    extra += [_enemy_fleet_line(view, index, names) for index in order if index != seat]
    room = 24 - len(lines) - len(tail)
    extra = extra[: max(room, 0)]
    shots = [f"  {_shot_line(shot, SPACE, names, view)}"[:WIDTH] for shot in view["recent"]]
    room -= len(extra) + 1
    if shots and room > 0:
        extra += ["Last shots:", *shots[-room:]]
    return "\n".join(lines + extra + tail)


def ticks(width: int) -> str:
    """Column numbers 1, 5, 10, 15, 20 over their columns, one character a column."""
    line = [" "] * width
    for x in range(1, width + 1):
        if x == 1 or x % 5 == 0:
            label = str(x)
            line[x - len(label):x] = label
    return "".join(line)


def _field_label(view: dict, index: int, names: list[str]) -> str:
    """``bob 11/13``: whose field, its ships afloat of all it has (``?`` before it declared), or ``out``."""
    fleet = view["fleets"][index]
    who = "you" if index == view["seat"] else names[index]
    if fleet["out"]:
        return f"{who} out"
    count = "?" if fleet["ships"] is None else f"{fleet['afloat']}/{fleet['ships']}"
    return f"{who} {count}"


def kinds(ships: list[int]) -> str:
    """``Scout 3, Lancer 2``: counts by kind in catalogue order (fighters last), in the language in use."""
    counts: dict[str, int] = {}
    for ship in sorted(ships):
        kind = CATALOGUE.kind_of(ship)
        label = choose(CATALOGUE.fighter_name_en, CATALOGUE.fighter_name) if kind is None else named(kind)
        counts[label] = counts.get(label, 0) + 1
    return ", ".join(f"{label} {count}" for label, count in counts.items())


def _own_fleet_line(view: dict, seat: int) -> str:
    fleet = view["fleets"][seat]
    ships = {value - 1 for _, value in fleet["layout"]} | {ship for _, ship in fleet["fighters"] or ()}
    afloat = sorted(ships - set(fleet["sunk"]))
    return f"Afloat: {kinds(afloat) or 'nothing'}"[:WIDTH]


def _abilities_line(view: dict, seat: int) -> str:
    """When each ability of your afloat ships is ready: ``laser ready, scan at 6`` (own rounds)."""
    fleet = view["fleets"][seat]
    ready = ready_abilities(view)
    parts = [entry["ability"] + (" ready" if entry["ability"] in ready else f" at {entry['next']}")
             for entry in fleet["abilities"] if entry["afloat"]]
    return f"Abilities, your round {fleet['rounds']}: " + (", ".join(parts) or "none")


def _enemy_fleet_line(view: dict, index: int, names: list[str]) -> str:
    fleet = view["fleets"][index]
    who = names[index]
    line = f"Fleet of {who}: {'? ships' if fleet['ships'] is None else counted('ship', fleet['ships'])}"
    if fleet["squadrons"]:
        line += f" ({counted('squadron', fleet['squadrons'])})"
    if fleet["sunk"]:
        line += f", sunk: {kinds(fleet['sunk'])}"
    return line if len(line) <= WIDTH else line[: WIDTH - 3] + "..."
