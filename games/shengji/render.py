"""Plain-text rendering of a shengji view (``Shengji.view``) for the terminal client, within 80x24.

Cards are written as codes: suit letter (C clubs, D diamonds, H hearts, S spades) and rank
(2..10, J, Q, K, A), ``BJ`` the black (small) joker, ``RJ`` the red (big) one. A move's last
word is its cards' codes run together (``H10``, ``SKSK``), so a player can type it.
"""

from __future__ import annotations

from fairtable.games.lang import counted
from fairtable.games.people import player, players
from fairtable.games.results import reason_words
from fairtable.games.shengji.catalogue import CARDS, SMALL_JOKER, SUITS, level_name

STRENGTHS = {1: "a level card", 2: "a level pair", 3: "a small-joker pair", 4: "a big-joker pair"}
WIDTH = 78


def code(face: int | None) -> str:
    """The code players type for a face (``H10``, ``RJ``), ``??`` for a face the viewer does not know."""
    return "??" if face is None else CARDS[face].code


def codes(faces: list) -> str:
    """Faces as their codes, space-separated."""
    return " ".join(code(face) for face in faces)


def _hand_faces(view: dict, handles: list[int]) -> list[int | None]:
    cards = {entry["handle"]: entry["card"] for entry in view["hand"] or ()}
    return [cards.get(handle) for handle in handles]


def move_line(view: dict, move: dict) -> str:
    """A legal move in words, e.g. ``lead pair HKHK``, ``play H10``, ``declare H2``, ``bury S3``, ``pass``."""
    if "pass" in move:
        return "pass"
    kind = next(key for key in ("declare", "bury", "lead", "play") if key in move)
    handles = move[kind] if isinstance(move[kind], list) else [move[kind]]
    faces = _hand_faces(view, handles)
    word = "".join(code(face) for face in faces)
    if kind == "lead" and len(handles) > 1:
        return f"lead {'pair' if len(handles) == 2 else f'tractor of {len(handles) // 2} pairs'} {word}"
    if kind == "declare" and faces[0] is not None:
        card = CARDS[faces[0]]
        trump = "no trump suit" if card.joker else f"{card.suit} trump"
        strength = (3 if card.rank == SMALL_JOKER else 4) if card.joker else len(handles)
        return f"declare ({STRENGTHS[strength]}, {trump}) {word}"
    return f"{kind} {word}"


def describe_move(before: dict, move: dict, after: dict) -> str:
    """A move as a transcript lists it: the same words as :func:`move_line`, from the mover's view."""
    return move_line(before, move)


def _name(view: dict, seat: int) -> str:
    me = view["seat"]
    name = player(seat, me)
    return f"{name} (partner)" if me is not None and seat != me and seat % 2 == me % 2 else name


def standing(view: dict) -> str:
    """What the result's scores count: each team's level, by its players (``levels: you and carol A, bob and dave 9``)."""
    return "levels: " + ", ".join(f"{players(team, view['seat'])} {level_name(view['levels'][index])}"
                                  for index, team in enumerate(view["teams"]))


def _team(view: dict, seat: int) -> list[int]:
    """The seats of ``seat``'s team, as the view lists the teams."""
    return next(team for team in view["teams"] if seat in team)


def _wrap(label: str, text: str) -> list[str]:
    lines, line = [], label
    for word in text.split():
        if len(line) + 1 + len(word) > WIDTH:
            lines.append(line)
            line = " " * len(label)
        line += " " + word
    lines.append(line)
    return lines


def render(view: dict) -> str:
    """Levels, trump, the declaration, the trick, the last trick, points and the hand by suit."""
    levels = view["levels"]
    teams = "; ".join(f"{players(team, view['seat'])} at {level_name(levels[index])}" for index, team in enumerate(view["teams"]))
    lines = [
        f"Deal {view['deal'] + 1}: level {level_name(view['level'])} (first past {level_name(view['options']['target'])} wins)",
        *_wrap("Teams:", teams),
        _trump_line(view),
    ]
    if view["dealer"] is not None:
        attackers = view["attackers"]
        lines.append((f"Dealer {_name(view, view['dealer'])}; {players(_team(view, attackers), view['seat'])} "
                      f"attack: {view['points'][attackers]} points, 80 take over, {counted('trick', view['tricks'])}")[:WIDTH])
    counts = ", ".join(f"{_name(view, seat)} {count}" for seat, count in enumerate(view["cards"]))
    lines.append(f"Cards: {counts}")
    if isinstance(view["kitty"], list) and view["step"] in ("kitty", "trump", "bury"):
        lines.extend(_wrap("Kitty:", codes(view["kitty"])))
    if isinstance(view["buried"], list) and view["buried"]:
        lines.extend(_wrap("Buried:", codes(view["buried"])))
    if view["last"] is not None:
        plays = ", ".join(f"{_name(view, play['seat'])} {codes(play['cards'])}" for play in view["last"]["plays"])
        lines.extend(_wrap("Last trick:", f"{plays}; won by {_name(view, view['last']['winner'])}"))
    if view["trick"]:
        plays = ", ".join(f"{_name(view, play['seat'])} {codes(play['cards'])}" for play in view["trick"])
        lines.extend(_wrap(f"Trick ({view['need']} each):", plays))
    if view["hand"] is not None:
        lines.extend(_hand_lines(view))
    lines.append(_status(view))
    return "\n".join(lines)


def _trump_line(view: dict) -> str:
    declaration = view["declaration"]
    trump = view["trump"]
    suit = f"{trump} trump" if trump else "no trump suit" if view["trump_fixed"] else "trump not declared yet"
    if declaration is None:
        return f"Trump: {suit}" + (" (from the kitty)" if view["trump_fixed"] else f"; {view['passes']} passes")
    who = _name(view, declaration["seat"])
    fixed = "" if view["trump_fixed"] or view["step"] == "kitty" else f"; {view['passes']} passes since"
    return f"Trump: {suit}, declared by {who} with {codes(declaration['cards'])}{fixed}"


def _hand_lines(view: dict) -> list[str]:
    """The hand grouped as the view sorts it: plain suits, then trump."""
    trump, level = view["trump"], view["level"]
    groups: dict[str, list[str]] = {}
    for entry in view["hand"]:
        card = CARDS[entry["card"]] if entry["card"] is not None else None
        if card is None:
            group = "?"
        elif card.joker or card.rank == level or card.suit == trump:
            group = "trump"
        else:
            group = card.suit
        groups.setdefault(group, []).append(code(entry["card"]))
    lines = []
    for group in (*SUITS, "trump", "?"):
        if group in groups:
            lines.extend(_wrap(f"  {group:>8}:", " ".join(groups[group])))
    return ["Your hand:", *lines]


def _status(view: dict) -> str:
    result = view["result"]
    if result is not None:
        winners = result["winners"]
        who = "nobody won" if not winners else f"{_name(view, winners[0])} and {_name(view, winners[0] + 2)} won"
        return "\n".join(_wrap("Match over:", f"{who} ({reason_words(result['reason'], 'shengji')})"))
    deal = view["deal_result"]
    if deal is not None:
        return f"Deal over: {deal['reason']}"
    turn = view["turn"]
    if turn is None:
        return "Waiting for the cards."
    buried = view["buried"] if isinstance(view["buried"], int) else len(view["buried"])
    doing = {"declare": "declare trump or pass", "bury": f"bury a card ({8 - buried} to go)",
             "play": "lead" if not view["trick"] else "play a card"}[view["step"]]
    return f"Your turn: {doing}." if turn == view["seat"] else f"Turn of {_name(view, turn)}: {doing}."
