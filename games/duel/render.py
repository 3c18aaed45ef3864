"""Plain-text rendering of a duel view (``DuelGame.view``) for the terminal client, within 80x24.

A legal move reads as words ending in one word to type instead of its number: the card's name
in the language in use without spaces (``greatwhiteshark``, in Dutch ``wittehaai``), in a
free-for-all with the target seat (``greatwhiteshark@2``).
"""

from __future__ import annotations

import textwrap

from fairtable.games.duel.catalogue import BONUS, CARDS, beats
from fairtable.games.duel.decks import DECK_SIZE
from fairtable.games.lang import counted, named, term
from fairtable.games.people import player
from fairtable.games.results import reason_words

LABEL, COLUMN = 14, 10
WIDTH = 80
"""The widest line of a board."""
SHOWN_DUELS = 4


def slug(card: int) -> str:
    """The card's name in the language in use, lower case without spaces: the word a player types for it."""
    return "".join(named(CARDS[card]).lower().split())


def short(card: int | None) -> str:
    """A card with its type and values, as the board lists it; ``no card`` for None (a defender with no card)."""
    if card is None:
        return "no card"
    c = CARDS[card]
    return f"{named(c)} ({term('duel', c.type)} {c.attack}/{c.defence})"


def _hand_card(view: dict, handle: int) -> int | None:
    return next((entry["card"] for entry in view["hand_cards"] or () if entry["handle"] == handle), None)


def move_line(view: dict, move: dict) -> str:
    """One legal move as the client lists it: its words, then the word to type for it."""
    return f"{describe_move(view, move, view)}: {_token(view, move)}"


def describe_move(before: dict, move: dict, after: dict) -> str:
    """A move as a transcript lists it: :func:`move_line`'s words without the word to type."""
    if "pick" in move:
        return f"pick {short(move['pick'])}"
    kind = "attack" if "attack" in move else "defend"
    card = _hand_card(before, move[kind])
    words = "?" if card is None else short(card)
    if kind == "defend":
        facing = "" if before["attack"] is None else f" against {_attack_value(before['attack'], card)}"
        return f"defend with {words}{facing}" + "".join(f"; {line}" for line in [describe_reveal(before, after)] if line)
    if "target" in move:
        return f"attack {player(move['target'], before['seat'])} with {words}"
    return f"attack with {words}"


def describe_reveal(before: dict, after: dict) -> str | None:
    """The duel that cards turned over (or a defence) decided, as the board's last duels list it;
    None when nothing was decided."""
    if not after["recent"] or after["recent"] == before["recent"]:
        return None
    return duel_line(after["recent"][-1], [player(seat) for seat in range(len(after["players"]))])


def _token(view: dict, move: dict) -> str:
    if "pick" in move:
        return slug(move["pick"])
    card = _hand_card(view, move["attack"] if "attack" in move else move["defend"])
    token = "?" if card is None else slug(card)
    return f"{token}@{move['target']}" if "target" in move else token


def _attack_value(attack: int, defence: int | None) -> str:
    """``210`` or ``210+50`` when the attacker's type beats the defending card's."""
    bonus = defence is not None and beats(CARDS[attack], CARDS[defence])
    return f"{CARDS[attack].attack}+{BONUS}" if bonus else str(CARDS[attack].attack)


def render(view: dict) -> str:
    """The whole board for ``view`` as plain text within 80×24: table, hand or draft, last duels, status."""
    players = view["players"]
    names = [_name(view, index) for index in range(len(players))]
    lines = [title(view)]
    lines.append(" " * LABEL + "".join(f"{name:>{COLUMN}}" for name in names))
    rows = [
        ("Points", lambda p: str(p["points"])),
        ("This round", lambda p: str(p["round_points"])),
        ("Won att/def", lambda p: f"{p['attacks_won']}/{p['defences_won']}"),
        ("Hand/deck", lambda p: "out" if p["out"] else f"{p['hand']}/{p['deck']}"),
    ]
    if view["variant"] != "ffa":
        rows.insert(2, ("Rounds won", lambda p: str(p["rounds_won"])))
    for label, cell in rows:
        note = drawn(view) if label == "Rounds won" else ""
        lines.append(f"{label:<{LABEL}}" + "".join(f"{cell(player):>{COLUMN}}" for player in players) + note)
    if view["draft"] is not None and view["step"] == "draft":
        lines.extend(_draft_lines(view, names))
    elif view["hand_cards"]:
        blind = view["variant"] == "blind"
        lines.append("Your cards, face down (nobody knows them):" if blind else "Your hand:")
        if blind:
            lines.append("  " + " ".join("[?]" for _ in view["hand_cards"]))
        else:
            lines.extend(f"  {short(entry['card'])}" for entry in view["hand_cards"])
    if view["attack"] is not None:
        lines.append(f"On the table: {names[view['attacker']]} attack{'s' if names[view['attacker']] != 'you' else ''} "
                     f"{names[view['defender']]} with {short(view['attack'])}")
    if view["recent"]:
        lines.append("Last duels:")
        lines.extend(f"  {duel_line(duel, names)}" for duel in view["recent"][-SHOWN_DUELS:])
    if view["result"] is not None:
        lines.append(f"Final {standing(view)}"[:WIDTH])
    lines.append(_status(view, names))
    return "\n".join(lines)


def _name(view: dict, index: int) -> str:
    return player(index, view["seat"])


def title(view: dict) -> str:
    """The board's first line: variant, draft, and where the match stands (round or cycle, tie rule)."""
    options = view["options"]
    if view["variant"] == "ffa":
        where = f"cycle {min(view['cycle'], options['cycles'])} of {options['cycles']}"
    else:
        where = f"tie-break {view['tiebreaks']} after {counted('round', options['rounds'])}" if view["tiebreaks"] \
            else f"round {max(view['round'], 1)} of {options['rounds']}"
        where += f", tie: {options['tie']}"
    draft = ", draft" if options["draft"] else ""
    return f"Duel {view['variant']}{draft}: {where}"


def triangle(view: dict) -> str:
    """The view's type triangle and bonus in the language in use: ``Sea beats Land beats Air beats Sea (+50 attack)``."""
    beats = view["beats"]
    first = next(iter(beats))
    chain, kind = [first], beats[first]
    while kind != first:
        chain.append(kind)
        kind = beats[kind]
    return " beats ".join(term("duel", kind) for kind in [*chain, first]) + f" (+{view['bonus']} attack)"


def _draft_lines(view: dict, names: list[str]) -> list[str]:
    draft = view["draft"]
    made = sum(len(picks) for picks in draft["picks"])
    lines = [f"Draft: {counted('card', len(draft['pool']))} in the pool, {made} of {DECK_SIZE * len(names)} picked"]
    if view["seat"] is not None:
        mine = ", ".join(named(CARDS[card]) for card in draft["picks"][view["seat"]])
        lines.extend(textwrap.wrap(f"Your picks: {mine or 'none yet'}", 78, max_lines=3))
    return lines


def duel_line(duel: dict, names: list[str]) -> str:
    """One finished duel as the board lists it, from the viewer's side (``you``, ``enemy``, ``seat n``)."""
    attack = f"{named(CARDS[duel['attack']])} {_attack_value(duel['attack'], duel['defence'])}"
    defence = "no card" if duel["defence"] is None else f"{named(CARDS[duel['defence']])} {CARDS[duel['defence']].defence}"
    a, d = duel["points"]
    tag = "playoff" if duel["playoff"] else f"r{duel['round']}"
    return f"{tag} {names[duel['attacker']]}: {attack} vs {names[duel['defender']]}: {defence}  {a}-{d}"


def drawn(view: dict) -> str:
    """``  1 round drawn`` after the rounds won when a round ended level (nobody won it), else empty."""
    return f"  {counted('drawn', view['rounds_drawn'])}" if view["rounds_drawn"] else ""


def standing(view: dict) -> str:
    """How the match stands, in seat order: ``points 18–20, rounds won 1–1, 1 round drawn`` (a
    free-for-all: the points only), so a result says how it was reached."""
    players = view["players"]
    said = "points " + "–".join(str(player["points"]) for player in players)
    if view["variant"] != "ffa":
        said += ", rounds won " + "–".join(str(player["rounds_won"]) for player in players)
        said += f", {counted('drawn', view['rounds_drawn'])}" if view["rounds_drawn"] else ""
    return said


def _status(view: dict, names: list[str]) -> str:
    result = view["result"]
    if result is not None:
        winners = result["winners"]
        who = "a draw" if not winners else " and ".join(names[w] for w in winners) + " won"
        return f"Match over: {who}: {reason_words(result['reason'], 'duel')}."[:WIDTH]
    step = view["step"]
    if step in ("order", "start", "dice"):
        return "Drawing who begins."
    if step == "prepare":
        return "Building decks and drawing cards."
    if step in ("pick", "reveal"):
        attacker = names[view["attacker"]]
        return f"{attacker} attack{'' if attacker == 'you' else 's'} {names[view['defender']]}: a random face-down card of each is turned over."
    due = {"draft": view["draft"]["next"] if view["draft"] else None, "attack": view["attacker"], "defend": view["defender"]}[step]
    doing = {"draft": "pick a card from the pool", "attack": "attack", "defend": "defend"}[step]
    if due == view["seat"]:
        return f"Your turn: {doing}."
    return f"Waiting for {names[due]} to {doing}."
