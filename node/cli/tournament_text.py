"""A tournament's progress in words, from ``Progress.to_value()``: the same lines for
``fairtable tournament status`` (from the client API), ``fairtable verify`` on a bundle and
``fairtable demo --tournament``."""

from __future__ import annotations

from collections.abc import Sequence


def describe_table(table: dict, names: Sequence[str]) -> str:
    seats = " v ".join(names[p] for p in table["seats"])
    outcome = table["outcome"]
    if outcome is None:
        return f"{table['label']:<18} {seats}: playing"
    points = "-".join(str(s["points"]) for s in outcome["stats"])
    winners = ", ".join(names[table["seats"][s]] for s in outcome["winners"]) or "nobody"
    out = [names[table["seats"][s]] for s in outcome["out"]]
    left = f"; lost by leaving or cheating: {', '.join(out)}" if out else ""
    return f"{table['label']:<18} {seats}: {points}, won by {winners} ({outcome['note']}){left}"


def render(progress: dict, names: Sequence[str], me: int | None = None) -> list[str]:
    """Every round's tables, who plays whom now, the bracket, the standings and the prizes."""
    lines = []
    for number, round_ in enumerate(progress["rounds"]):
        lines.append(f"round {number}")
        lines += [f"  {describe_table(table, names)}" for table in round_]
    now = [t for t in (progress["rounds"][-1] if progress["rounds"] else []) if t["outcome"] is None]
    if now:
        lines.append("now playing")
        for table in now:
            mark = "  (you)" if me in table["seats"] else ""
            lines.append(f"  {table['label']}: {' v '.join(names[p] for p in table['seats'])}{mark}")
    if progress["bracket"]:
        lines.append("bracket")
        for round_ in progress["bracket"]:
            matches = [f"{_name(a, names, 'bye')} v {_name(b, names, 'bye')} -> {_name(w, names, '?')}" for a, b, w in round_]
            lines.append("  " + " | ".join(matches))
    lines.append("standings (place, name, reached, points, defences won, attacks won, tables)")
    for place, standing in enumerate(progress["standings"], start=1):
        out = "  out" if standing["out"] else ""
        lines.append(f"  {place:>2}. {names[standing['participant']]:<16} {standing['reached']:<14} {standing['points']:>4} "
                     f"{standing['defences_won']:>4} {standing['attacks_won']:>4} {standing['tables']:>3}{out}")
    if progress["finished"]:
        lines.append(f"champion       {names[progress['champion']]}")
        lines.append(f"best defender  {', '.join(names[p] for p in progress['best_defender'])}")
        lines.append(f"top attacker   {', '.join(names[p] for p in progress['top_attacker'])}")
    return lines


def _name(participant: int | None, names: Sequence[str], none: str) -> str:
    return none if participant is None else names[participant]
