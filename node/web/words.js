// What a table event says, in words shared by the lobby, the table and the replay viewer.
export function outcome(result, seat) {
  if (!result) return null;
  const winners = result.winners || [];
  const why = result.reason ? ` (${result.reason})` : "";
  if (!winners.length) return result.reason === "disputed" ? "No winner: the game was disputed" : `Draw${why}`;
  const names = winners.map((w) => `seat ${w}`).join(", ");
  if (seat === null || seat === undefined) return `${names} won${why}`;
  return winners.includes(seat) ? `You won${why}` : `You lost${why}: ${names} won`;
}

export function seatName(seat, me) {
  return seat === me ? "you" : `seat ${seat}`;
}

export function violationText(violation) {
  const who = violation.seat === null ? `one of seats ${(violation.suspects || []).join(", ")}` : `seat ${violation.seat}`;
  return `envelope ${violation.index}: ${who} broke ${violation.rule}: ${violation.detail}`;
}
