// The page's own words, from the node's message catalogue of the page's language (its page.* and
// plural.* entries, games/messages/en.json): what a table event says, shared by the lobby, the
// table and the replay viewer, and every text with a count.
import { words } from "./dom.js";

const said = await words();
const PLURAL = new Intl.PluralRules("en");

// Catalogue entry ``key`` with its ``{field}`` placeholders filled from ``fields``.
export function say(key, fields = {}) {
  return (said[key] ?? key).replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole));
}

// ``count`` things of message ``message`` in the plural form the count takes: "1 trick", "2 tricks".
export function counted(message, count) {
  return say(`plural.${message}.${PLURAL.select(count)}`, { count });
}

// A result's reason in words: the game's own, else the words every game shares, else its code.
export function reasonText(reason, game) {
  return said[`reason.${game}.${reason}`] ?? said[`reason.${reason}`] ?? reason;
}

export function outcome(result, seat, names, game) {
  if (!result) return null;
  const winners = result.winners || [];
  const why = result.reason ? say("page.why", { reason: reasonText(result.reason, game) }) : "";
  if (!winners.length) return result.reason === "disputed" ? say("page.disputed") : say("page.draw", { why });
  const others = listed(winners, null, names);
  if (seat === null || seat === undefined) return say("page.won_by", { names: others, why });
  return winners.includes(seat) ? say("page.you_won", { why }) : say("page.you_lost", { why, names: others });
}

// A player by name (`names`: the event's `seats`, the genesis's names, told apart by the node), "you"
// for this page's own seat; a seat number only when no name is known.
export function seatName(seat, me, names) {
  if (seat === me) return say("page.you");
  return names && names[seat] !== undefined ? names[seat] : say("page.seat", { seat });
}

function listed(seats, me, names) {
  const each = seats.map((seat) => seatName(seat, me, names));
  if (each.length > 1) return say("page.and", { most: each.slice(0, -1).join(", "), last: each[each.length - 1] });
  return each[0] || say("page.nobody");
}

export function violationText(violation, names) {
  const who = violation.seat === null ? say("page.suspects", { seats: listed(violation.suspects || [], null, names) }) : seatName(violation.seat, null, names);
  return say("page.violation", { index: violation.index, who, rule: violation.rule, detail: violation.detail });
}

// The seats whose latest move was made for them (the log's `latest` entries, client-api.md: a
// timer's default, a forced move), each with the words its board marks that move with.
export function playedFor(event) {
  const marks = new Map();
  for (const entry of event.log || []) {
    if (!entry.latest || entry.seat === null) continue;
    marks.set(entry.seat, entry.kind === "forced" ? say("page.played_forced") : say("page.played_timer", { who: seatName(entry.seat, event.seat, event.seats) }));
  }
  return marks;
}

// The seats whose latest move was made for them as their only legal one (the log's ``forced``
// entries still ``latest``; a node notes them for its own seat): zeeslag marks the answer to a hit.
export function forcedFor(event) {
  return new Set((event.log || []).filter((entry) => entry.latest && entry.kind === "forced" && entry.seat !== null).map((entry) => entry.seat));
}

// A table id as a person reads it (client-api.md): its first 12 hex digits.
export function tableId(table) {
  return table ? table.slice(0, 12) : "";
}
