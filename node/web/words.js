// What a table event says, in words shared by the lobby, the table and the replay viewer.
export function outcome(result, seat, names) {
  if (!result) return null;
  const winners = result.winners || [];
  const why = result.reason ? ` (${result.reason})` : "";
  if (!winners.length) return result.reason === "disputed" ? "No winner: the game was disputed" : `Draw${why}`;
  const others = listed(winners, null, names);
  if (seat === null || seat === undefined) return `${others} won${why}`;
  return winners.includes(seat) ? `You won${why}` : `You lost${why}: ${others} won`;
}

// A player by name (`names`: the event's `seats`, the genesis's names, told apart by the node), "you"
// for this page's own seat; a seat number only when no name is known.
export function seatName(seat, me, names) {
  if (seat === me) return "you";
  return names && names[seat] !== undefined ? names[seat] : `seat ${seat}`;
}

function listed(seats, me, names) {
  const said = seats.map((seat) => seatName(seat, me, names));
  return said.length > 1 ? `${said.slice(0, -1).join(", ")} and ${said[said.length - 1]}` : said[0] || "nobody";
}

export function violationText(violation, names) {
  const who = violation.seat === null ? `one of ${listed(violation.suspects || [], null, names)}` : seatName(violation.seat, null, names);
  return `envelope ${violation.index}: ${who} broke ${violation.rule}: ${violation.detail}`;
}

// The final score by name, e.g. "you 3, bob 5"; null for a game that keeps none or whose scores are
// not one per seat (duel's: its board's game-over line says them).
export function scoreText(result, seat, names) {
  const scores = (result && result.scores) || [];
  return scores.length && scores.length === names.length ? scores.map((points, index) => `${seatName(index, seat, names)} ${points}`).join(", ") : null;
}

// A table id as a person reads it (client-api.md): its first 12 hex digits.
export function tableId(table) {
  return table ? table.slice(0, 12) : "";
}
