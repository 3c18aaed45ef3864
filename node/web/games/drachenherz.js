// drachenherz: the fields of the board with their cards, each seat's collection and pile, the
// ship marks, the dragon, the hand as cards, and each legal play as a button showing its cards.
import { catalogue, h, moveButton, refusedMark, s } from "../dom.js";
import { counted, seatName } from "../words.js";

const HUE = {
  chest: "#c9a227", fire_dragon: "#c0392b", huntress: "#7d5ba6", fossil: "#7f8c8d", princess: "#d35f8d",
  hero: "#2e86c1", troll: "#5d6d3a", dwarf: "#a0522d", ship: "#1f618d",
};

export async function render(ctx) {
  const set = await catalogue("drachenherz", "cards");
  const view = ctx.view;
  const kinds = new Map(set.kinds.map((kind) => [kind.id, kind]));
  const fields = [...set.kinds.map((kind) => kind.id), set.special.id];
  const names = view.players.map((_, seat) => seatName(seat, view.seat, ctx.names));
  return h("div", { class: "drachenherz" },
    h("p", { class: "field" }, matchLine(view), ` · ship marks ${view.marks} of ${set.marks}`,
      view.left !== null ? ` · ${counted("turn", view.left)} left` : ""),
    players(view, names, set),
    h("div", { class: "fields" }, fields.map((field) => fieldPanel(set, kinds, field, view.board[field] || []))),
    hand(ctx, set, kinds),
    recent(view, set, kinds, names));
}

function matchLine(view) {
  const match = view.match;
  if (match.mode === "single") return "One game";
  const standing = match.mode === "sumof" ? `totals ${match.totals.join(":")}` : `wins ${match.wins.join(":")}`;
  return `${match.mode === "sumof" ? "Sum of" : "Match to"} ${match.target}: game ${match.game + 1}, ${standing}`;
}

// A card as a picture: its kind's colour, its value and kind; face down without a face.
export function cardPicture(set, kinds, face, attrs = {}) {
  if (face === null || face === undefined) {
    return s("svg", { class: "dh-card", viewBox: "0 0 50 70", ...attrs }, s("rect", { x: 1, y: 1, width: 48, height: 68, rx: 5, class: "back" }));
  }
  const card = set.cards[face];
  const kind = kinds.get(card.kind);
  return s("svg", { class: "dh-card", viewBox: "0 0 50 70", "data-card": face, ...attrs },
    s("rect", { x: 1, y: 1, width: 48, height: 68, rx: 5, fill: HUE[card.kind] || "#777", class: "frame" }),
    s("circle", { cx: 25, cy: 30, r: 15, class: "paper" }),
    s("text", { x: 25, y: 37, "text-anchor": "middle", class: "value" }, String(card.value)),
    s("text", { x: 25, y: 62, "text-anchor": "middle", class: "kind" }, kind.code.toUpperCase()),
    s("title", {}, `${kind.name}, ${card.value}`));
}

function fieldPanel(set, kinds, field, faces) {
  const kind = kinds.get(field) || set.special;
  const slots = kind.slots ? ` · ${faces.length}/${kind.slots}` : "";
  const plural = (id) => (kinds.get(id) ? kinds.get(id).plural_en : set.special.name_en.toLowerCase());
  const takes = kind.takes && kind.takes.length ? `takes ${kind.takes.map(plural).join(", ")}` : "";
  return h("div", { class: "dh-field", "data-field": field },
    h("strong", {}, kind.name), h("small", {}, slots), takes ? h("small", { class: "effect" }, takes) : null,
    h("div", { class: "cards" }, faces.map((face) => cardPicture(set, kinds, face, { width: 30 }))));
}

function players(view, names, set) {
  return h("table", { class: "scores" },
    h("tr", {}, h("th", {}), names.map((name, seat) => h("th", { class: `seat${seat === view.turn && !view.result ? " turn" : ""}` }, name))),
    [["points", (p) => p.points], ["collected", (p) => p.collected], ["hand / pile", (p) => `${p.hand} / ${p.pile}${p.returned ? ` (${p.returned} known on top)` : ""}`],
      ["dragon", (p) => (p.dragon ? `${set.dragon.name_en} (+${set.dragon.points})` : "")]]
      .map(([label, cell]) => h("tr", {}, h("th", {}, label), view.players.map((player) => h("td", {}, String(cell(player)))))));
}

function hand(ctx, set, kinds) {
  const view = ctx.view;
  if (!view.hand) return null;
  const faces = new Map(view.hand.map((entry) => [entry.handle, entry.card]));
  const plays = (ctx.legal || []).map((move, index) => {
    const words = (ctx.texts[index] || "").replace(/: [^:]*$/, "");
    return moveButton(ctx, move, [h("span", { class: "cards" }, move.play.map((handle) => cardPicture(set, kinds, faces.get(handle), { width: 30 }))),
      h("span", {}, words || "play")], { class: "move dh-play" });
  });
  return h("div", { class: "hand-area" },
    h("h3", {}, ctx.yourTurn ? "Your hand: choose a play" : "Your hand"),
    h("div", { class: "cards hand-cards" }, view.hand.map((entry) => h("span", { class: "hand-card" },
      cardPicture(set, kinds, entry.card, { width: 50 }), refusedMark(ctx, { play: [entry.handle] })))),  // a full field: the node's word
    plays.length ? h("div", { class: "moves" }, plays) : null);
}

function recent(view, set, kinds, names) {
  if (!view.recent.length) return null;
  return h("div", { class: "recent" }, h("h3", {}, "Last plays"), h("ul", {}, view.recent.map((play) => h("li", {},
    `${names[play.seat]}: `, play.cards.map((face) => cardPicture(set, kinds, face, { width: 22 })),
    play.take ? ` took the ${kinds.get(play.take) ? kinds.get(play.take).plural_en : set.special.name_en.toLowerCase()}` : "",
    play.taken.length ? ` (${counted("card", play.taken.length)})` : "", play.dragon ? ", the dragon changes hands" : "", play.timeout ? " (timeout)" : ""))));
}
