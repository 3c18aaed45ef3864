"""Plain-text rendering of a drachenherz view (``view.view``) for the terminal client, in 80x24.

Each move reads as words and ends with a short code a player can type instead of its number:
the kind's two letters, the values laid, and after a ``/`` the field taken where the play
chooses (``pr3/pd``: a princess of 3 taking the petrified dragons).
"""

from __future__ import annotations

import textwrap

from fairtable.games.drachenherz.catalogue import CARDS, FIELDS, KINDS, MARKS, SPECIAL, Kind, field_name, kind_of
from fairtable.games.lang import counted, named
from fairtable.games.people import player
from fairtable.games.results import reason_words

WIDTH = 80


def card_name(face: int) -> str:
    """A card as players read it: English kind and value (``dwarf 3``)."""
    return f"{named(kind_of(face))} {CARDS[face].value}"


def _code(field: str) -> str:
    return KINDS[field].code if field in KINDS else SPECIAL.code


def effect(kind: Kind) -> str:
    """What the field does, e.g. ``3rd takes fire dragons -> special``."""
    taken = "takes " + "/".join(map(field_name, kind.takes)) if kind.takes else ""
    if kind.slots is None:
        return taken or ("brings the dragon when taken" if kind.dragon else "")
    ordinal = {2: "2nd", 3: "3rd"}.get(kind.slots, f"{kind.slots}th")
    then = {"special": " -> special", "collect": f"collects the {kind.plural_en}", "out": ", out, +1 mark"}[kind.full or ""]
    return f"{ordinal} {taken}{then}"


def _cards(faces: list[int], room: int) -> str:
    """The values on a field, or their count and worth when they do not fit in ``room``."""
    listed = " ".join(str(CARDS[face].value) for face in faces)
    return listed if len(listed) <= room else f"{counted('card', len(faces))}, {counted('point', sum(CARDS[face].value for face in faces))}"


def move_line(view: dict, move: dict) -> str:
    """A legal move in words, e.g. ``play Princess 3, take the petrified dragons: pr3/pd``."""
    words, code = _words(view, move)
    if not move["play"]:
        return f"{words} (your hand is empty): {code}"
    return words if code is None else f"{words}: {code}"


def describe_move(before: dict, move: dict, after: dict) -> str:
    """A move as a transcript lists it: :func:`move_line`'s words without the code to type."""
    return _words(before, move)[0] + (" (timeout)" if move.get("timeout") else "")


def _words(view: dict, move: dict) -> tuple[str, str | None]:
    """The move's words and the code a player types for it (None for cards this view does not know)."""
    hand = {entry["handle"]: entry["card"] for entry in view["hand"] or ()}
    known = [hand.get(handle) for handle in move["play"]]
    if not known:
        return "pass", "pass"
    faces = sorted(face for face in known if face is not None)
    if len(faces) < len(known):
        return f"play cards {move['play']}", None
    kind = kind_of(faces[0])
    values = "".join(str(CARDS[face].value) for face in faces)
    take = move.get("take")
    words = f"play {' + '.join(card_name(face) for face in faces)}" + (f", take the {field_name(take)}" if take else "")
    return words, f"{kind.code}{values}" + (f"/{_code(take)}" if take else "")


def render(view: dict) -> str:
    """The score line, the board with its fields, the seat's hand, the last plays and whose turn it is."""
    seat = view["seat"]
    names = [player(index, seat) for index in range(2)]
    lines = [_title(view)]
    lines.append(f"{'':<14}" + "".join(f"{name[:32]:<33}" for name in names))
    lines.append(f"{'Collected':<14}" + "".join(f"{_collected(player):<33}" for player in view["players"]))
    lines.append(f"{'Hand / pile':<14}" + "".join(f"{_stock(player):<33}" for player in view["players"]))
    for field in FIELDS:
        faces = view["board"][field]
        if field in KINDS:
            kind = KINDS[field]
            slots = "" if kind.slots is None else f" {len(faces)}/{kind.slots}"
            label, does = f"{named(kind)}{slots}", effect(kind)
        else:
            label, does = named(SPECIAL), "taken by the 3rd ship"
        lines.append(f"  {label:<20}{does:<40}{_cards(faces, WIDTH - 62)}")
    if view["hand"] is not None:
        hand = ", ".join("?" if entry["card"] is None else card_name(entry["card"]) for entry in view["hand"]) or "empty"
        lines.extend(textwrap.wrap(f"Your hand: {hand}", WIDTH))
        if view["pile_top"]:
            lines.append("On top of your pile (put back): " + ", ".join(map(card_name, view["pile_top"])))
    lines.extend(_play_line(play, names) for play in view["recent"][-3:])
    lines.append(_status(view, names))
    return "\n".join(line.rstrip() for line in lines)


def standing(view: dict) -> str:
    """What the match's scores count, by name: ``games won: you 2, bob 1`` (a match to a number
    of wins), ``points: you 30, bob 25`` (a match summed), a single game's points otherwise."""
    match = view["match"]
    counted_by = {"match": ("games won", match["wins"]), "sumof": ("points", match["totals"])}
    label, scores = counted_by.get(match["mode"], ("points", [each["points"] for each in view["players"]]))
    return f"{label}: " + ", ".join(f"{player(seat, view['seat'])} {score}" for seat, score in enumerate(scores))


def _title(view: dict) -> str:
    match = view["match"]
    wins = "-".join(map(str, match["wins"]))
    totals = "-".join(map(str, match["totals"]))
    which = {"single": "one game", "match": f"game {match['game'] + 1}, first to {match['target']} wins ({wins})",
             "sumof": f"game {match['game'] + 1} of {match['target']}, totals {totals}"}[match["mode"]]
    left = "" if view["left"] is None else f" | turns left: {view['left']}"
    return f"Drachenherz: {which} | ship marks {view['marks']}/{MARKS}{left}"


def _collected(player: dict) -> str:
    count = player["collected"]
    dragon = " with the dragon" if player["dragon"] else ""
    return f"{counted('card', count)}, {counted('point', player['points'])}{dragon}"


def _stock(player: dict) -> str:
    known = f" ({player['returned']} known on top)" if player["returned"] else ""
    return f"{player['hand']} / {player['pile']}{known}"


def _play_line(play: dict, names: list[str]) -> str:
    laid = " + ".join(map(card_name, play["cards"]))
    count = len(play["taken"])
    took = f", took {count} ({counted('point', sum(CARDS[face].value for face in play['taken']))})" if count else ""
    chose = f" on the {field_name(play['take'])}" if play["take"] else ""
    dragon = " and the dragon" if play["dragon"] else ""
    timeout = " (timeout)" if play["timeout"] else ""
    return f"  {names[play['seat']]}: {laid or 'nothing'}{chose}{took}{dragon}{timeout}"[:WIDTH]


def _status(view: dict, names: list[str]) -> str:
    result = view["result"]
    if result is not None:
        winners = result["winners"]
        scores = "-".join(map(str, result["scores"]))
        return f"Over ({reason_words(result['reason'], 'drachenherz')}, {scores}): " + ("a draw" if not winners else f"{names[winners[0]]} won")
    if view["game_result"] is not None:
        game = view["game_result"]
        won = "a draw" if not game["winners"] else f"{names[game['winners'][0]]} won"
        return f"Game over ({reason_words(game['reason'], 'drachenherz')}, {'-'.join(map(str, game['scores']))}): {won}; the next game starts."
    turn = view["turn"]
    if view["phase"] != "play" or turn is None:
        return {"start": "Drawing who starts.", "shuffle": "Shuffling the piles.", "deal": "Dealing the hands.",
                "give": "The dragon changed hands: a random card goes back on its old owner's pile.",
                "draw": "Drawing cards."}.get(view["phase"], "Waiting.")
    late = view["players"][turn]["timeouts"]
    timeouts = f" ({late} timeouts in a row)" if late else ""
    doing = "lay one or more cards of one kind"
    return f"Your turn: {doing}{timeouts}." if turn == view["seat"] else f"Turn of {names[turn]}{timeouts}."
