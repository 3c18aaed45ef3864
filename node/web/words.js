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

export function outcome(result, seat) {
  if (!result) return null;
  const winners = result.winners || [];
  const why = result.reason ? say("page.why", { reason: result.reason }) : "";
  if (!winners.length) return result.reason === "disputed" ? say("page.disputed") : say("page.draw", { why });
  const names = winners.map((w) => say("page.seat", { seat: w })).join(", ");
  if (seat === null || seat === undefined) return say("page.won_by", { names, why });
  return winners.includes(seat) ? say("page.you_won", { why }) : say("page.you_lost", { why, names });
}

export function seatName(seat, me) {
  return seat === me ? say("page.you") : say("page.seat", { seat });
}

export function violationText(violation) {
  const who = violation.seat === null ? say("page.suspects", { seats: (violation.suspects || []).join(", ") }) : say("page.seat", { seat: violation.seat });
  return say("page.violation", { index: violation.index, who, rule: violation.rule, detail: violation.detail });
}
