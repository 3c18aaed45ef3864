// shengji: levels and trump, the trick around the table, the last trick, the hand by suit; select
// cards, then play one of the legal moves they make up.
import { catalogue, fill, h, moveButton, refusedMark, s } from "../dom.js";
import { counted, seatName } from "../words.js";

const SUIT = { clubs: "♣", diamonds: "♦", hearts: "♥", spades: "♠", joker: "★" };
const RANKS = { 11: "J", 12: "Q", 13: "K", 14: "A" };
const KINDS = ["declare", "bury", "lead", "play"];

const rankName = (rank) => RANKS[rank] || String(rank);
const handles = (move) => {
  const kind = KINDS.find((k) => k in move);
  return kind === undefined ? [] : Array.isArray(move[kind]) ? move[kind] : [move[kind]];
};

// The team (the view's teams) seat ``seat`` plays in.
const teamOf = (view, seat) => view.teams.find((team) => team.includes(seat)) || [seat];

export function card(cards, id, attrs = {}) {
  const known = id !== null && id !== undefined;
  const entry = known ? cards[id] : null;
  const red = entry && (entry.suit === "hearts" || entry.suit === "diamonds" || entry.code === "RJ");
  const rank = !entry ? "?" : entry.suit === "joker" ? "J" : rankName(entry.rank);
  return s("svg", { class: `playing-card${red ? " red" : ""}`, viewBox: "0 0 44 62", width: 44, height: 62, ...attrs },
    s("rect", { x: 1, y: 1, width: 42, height: 60, rx: 5, class: known ? "paper" : "back" }),
    known ? [s("text", { x: 5, y: 15, class: "rank" }, rank), s("text", { x: 22, y: 44, "text-anchor": "middle", class: "suit" }, SUIT[entry.suit]),
      s("title", {}, entry.name)] : null);
}

export async function render(ctx) {
  const cards = await catalogue("shengji", "cards");
  const view = ctx.view;
  const me = view.seat;
  const bottom = me === null ? 0 : me;
  const who = (seat) => (me !== null && seat !== me && teamOf(view, seat).includes(me) ? `${seatName(seat, me, ctx.names)} (partner)` : seatName(seat, me, ctx.names));
  const trump = view.trump ? `${SUIT[view.trump]} ${view.trump}` : view.trump_fixed ? "no trump suit" : "not declared yet";
  const info = h("p", { class: "field" },
    `Deal ${view.deal + 1}: level ${rankName(view.level)}; ${view.teams.map((team, i) => `${team.map(who).join(" and ")} at ${rankName(view.levels[i])}`).join(", ")}; trump ${trump}`,
    view.declaration ? ` (declared by ${who(view.declaration.seat)})` : "",
    view.dealer !== null ? `; dealer ${who(view.dealer)}; attackers ${teamOf(view, view.attackers).map(who).join(" and ")}: ${view.points[view.attackers]} points, ${counted("trick", view.tricks)}` : "");
  const places = ["bottom", "left", "top", "right"];
  const seats = [...Array(view.seats).keys()].map((offset) => (bottom + offset) % view.seats);
  const played = new Map(view.trick.map((play) => [play.seat, play.cards]));
  // a play made for its seat (the timer's, a forced follow) says so under its cards: in the trick, else in the last one
  const note = (seat) => (ctx.marks.has(seat) ? h("small", { class: "played-for-note" }, ctx.marks.get(seat)) : null);
  const trick = h("div", { class: "trick" }, seats.map((seat, i) => h("div", { class: `place ${places[i]}${view.turn === seat ? " turn" : ""}`, "data-seat": seat },
    h("small", {}, `${who(seat)} · ${counted("card", view.cards[seat])}`), h("div", { class: "cards" }, (played.get(seat) || []).map((face) => card(cards, face))),
    played.has(seat) ? note(seat) : null)));
  const last = view.last ? h("div", { class: "recent" }, h("h3", {}, `Last trick, won by ${who(view.last.winner)}`),
    h("div", { class: "cards" }, view.last.plays.map((play) => h("span", { class: "play" }, h("small", {}, who(play.seat)), play.cards.map((face) => card(cards, face)),
      played.has(play.seat) ? null : note(play.seat))))) : null;
  const kitty = Array.isArray(view.kitty) && view.kitty.length ? h("div", { class: "recent" }, h("h3", {}, "Kitty"), h("div", { class: "cards" }, view.kitty.map((face) => card(cards, face)))) : null;
  return h("div", { class: "shengji" }, info, trick, hand(ctx, cards), kitty, last);
}

function hand(ctx, cards) {
  const view = ctx.view;
  if (!view.hand) return null;
  const selected = ctx.state.selected || (ctx.state.selected = new Set());
  const inHand = new Set(view.hand.map((entry) => entry.handle));
  for (const handle of [...selected]) if (!inHand.has(handle)) selected.delete(handle);
  const area = h("div", { class: "hand-area" });
  // The game lists one move per face, naming the first of two identical cards: a move fits the
  // selection when it lays a card of each selected card's face (the selected copy or its twin).
  const faceOf = (handle) => view.hand.find((entry) => entry.handle === handle)?.card;
  const within = (chosen, laid) => {
    const left = laid.map(faceOf);
    return chosen.every((handle) => {
      const at = left.indexOf(faceOf(handle));
      return at >= 0 && left.splice(at, 1).length === 1;
    });
  };
  function paint() {
    const legal = ctx.legal || [];
    const matching = legal.filter((move) => within([...selected], handles(move)));
    const cardsShown = view.hand.map(({ handle, card: face }) => h("button", {
      class: `pick${selected.has(handle) ? " selected" : ""}`, "data-handle": handle,
      onclick: () => {
        if (selected.has(handle)) selected.delete(handle); else selected.add(handle);
        paint();
        // A single card no listed play lays (it does not follow): the game says why.
        const follows = legal.filter((move) => "play" in move);
        if (ctx.explain && follows.length && selected.size === 1 && !follows.some((move) => within([...selected], handles(move)))) {
          ctx.explain({ play: handle });
        }
      },
    }, card(cards, face), refusedMark(ctx, { play: handle })));
    const label = (move) => {
      const kind = KINDS.find((k) => k in move) || Object.keys(move)[0];
      const faces = handles(move).map(faceOf);
      return `${kind} ${faces.map((face) => (face === null || face === undefined ? "??" : cards[face].code)).join(" ")}`.trim();
    };
    fill(area, h("h3", {}, "Your hand"), h("div", { class: "hand" }, cardsShown),
      legal.length ? h("div", { class: "moves" }, matching.map((move) => moveButton(ctx, move, label(move), { class: "move" }))) : null);
  }
  paint();
  return area;
}
