// towers: two castles (tower, wall), three resources with their producers, cards with their costs.
import { catalogue, h, moveButton, moveKey, refusedMark, s } from "../dom.js";
import { counted, seatName } from "../words.js";

const COLOUR = { red: "ore", blue: "mana", green: "soldiers" };
const RESOURCES = [["ore", "mines"], ["mana", "monasteries"], ["soldiers", "barracks"]];
const HUE = { ore: "#b5483a", mana: "#3a62b5", soldiers: "#3a8f4a" };
const SEAT_HUE = ["#7a5c3e", "#5c5f7a", "#6d7a5c", "#7a5c71"];

export async function render(ctx) {
  const [cards, fields] = await Promise.all([catalogue("towers", "cards"), catalogue("towers", "battlefields")]);
  const view = ctx.view;
  const field = fields.find((f) => f.id === view.battlefield) || { name: view.battlefield };
  const me = view.seat;
  const order = me === null ? view.players.map((_, i) => i) : [me, ...view.players.map((_, i) => i).filter((i) => i !== me)];
  const names = view.players.map((_, i) => (i === me ? "You" : seatName(i, me, ctx.names)));
  const deck = view.deck === null ? "infinite deck" : `${counted("card", view.deck)} in the deck, ${view.discard} discarded`;
  return h("div", { class: "towers" },
    h("p", { class: "field" }, `${field.name}: win with a tower of ${view.victory.tower} or ${view.victory.resource} of a resource · ${deck}`),
    castles(view, order, names),
    hand(ctx, cards),
    recent(view, cards, names, ctx.marks));
}

function castles(view, order, names) {
  const width = 220;
  const turn = view.result ? null : view.turn;
  const panels = order.map((seat, column) => {
    const player = view.players[seat];
    const x = column * width;
    const towerHeight = 150 * Math.min(player.tower, view.victory.tower) / view.victory.tower;
    const wallHeight = Math.min(150, player.wall * 1.5);
    const resources = RESOURCES.map(([resource, producer], row) => s("g", { transform: `translate(${x + 128}, ${70 + row * 46})` },
      s("rect", { width: 22, height: 22, rx: 4, fill: HUE[resource] }),
      s("text", { x: 28, y: 16, class: "amount" }, String(player[resource])),
      s("text", { x: 28, y: 32, class: "small" }, `${resource} +${player[producer]}`),
      s("title", {}, `${resource}: ${player[resource]}, ${player[producer]} ${producer}`)));
    return s("g", { class: `castle${turn === seat ? " turn" : ""}`, "data-seat": seat },
      s("rect", { x: x + 4, y: 4, width: width - 8, height: 232, rx: 8, class: "frame" }),
      s("text", { x: x + width / 2, y: 24, "text-anchor": "middle", class: "name" }, names[seat] + (turn === seat ? " ◀" : "")),
      s("rect", { x: x + 22, y: 210 - towerHeight, width: 44, height: towerHeight, fill: SEAT_HUE[seat % 4], class: "tower" }),
      s("polygon", { points: `${x + 16},${210 - towerHeight} ${x + 44},${180 - towerHeight} ${x + 72},${210 - towerHeight}`, fill: "#a33" }),
      s("rect", { x: x + 78, y: 210 - wallHeight, width: 26, height: wallHeight, class: "wall" }),
      s("text", { x: x + 44, y: 228, "text-anchor": "middle", class: "small" }, `tower ${player.tower}`),
      s("text", { x: x + 91, y: 228, "text-anchor": "middle", class: "small" }, `wall ${player.wall}`),
      s("text", { x: x + 128, y: 50, class: "small" }, `${counted("card", player.cards)}${player.timeouts ? `, ${counted("timeout", player.timeouts)}` : ""}`),
      resources);
  });
  return s("svg", { class: "castles", viewBox: `0 0 ${width * order.length} 240`, role: "img" }, panels);
}

export function cardFace(cards, id) {
  if (id === null || id === undefined) return h("span", { class: "card-face unknown" }, "?");
  const card = cards[id];
  const resource = COLOUR[card.colour];
  return h("span", { class: "card-face" },
    s("svg", { class: "gem", viewBox: "0 0 24 24", width: 26, height: 26 },
      s("circle", { cx: 12, cy: 12, r: 11, fill: HUE[resource] }),
      s("text", { x: 12, y: 16.5, "text-anchor": "middle", class: "cost" }, String(card.cost)),
      s("title", {}, `costs ${card.cost} ${resource}`)),
    h("strong", {}, card.name), h("span", { class: "text" }, card.text));
}

function hand(ctx, cards) {
  const view = ctx.view;
  if (!view.hand) return null;
  const legal = new Set((ctx.legal || []).map(moveKey));
  const entries = view.hand.map(({ handle, card }) => {
    const play = { play: handle };
    const discard = { discard: handle };
    const colour = card === null ? "unknown" : cards[card].colour;
    const playable = legal.has(moveKey(play));
    return h("div", { class: `card ${colour}${playable ? " playable" : ""}`, "data-handle": handle },
      refusedMark(ctx, play),
      playable ? moveButton(ctx, play, cardFace(cards, card), { class: "face play", title: "play this card" })
        : ctx.explain ? h("button", { class: "face unplayable", title: "why this card cannot be played", onclick: () => ctx.explain(play) },
          cardFace(cards, card))
          : h("div", { class: "face" }, cardFace(cards, card)),
      legal.has(moveKey(discard)) ? moveButton(ctx, discard, "discard", { class: "discard" }) : null);
  });
  const title = view.phase === "discard" && ctx.yourTurn ? "Your hand: discard a card" : "Your hand";
  return h("div", { class: "hand-area" }, h("h3", {}, title), h("div", { class: "hand" }, entries));
}

// The last cards; a seat's latest one made for it (``marks``: the timer's, a forced one) says so on the card.
function recent(view, cards, names, marks) {
  if (!view.recent.length) return null;
  return h("div", { class: "recent" }, h("h3", {}, "Last cards"), h("div", { class: "hand small" }, view.recent.map((action, index) => {
    const verb = action.played ? "played" : "discarded";
    const latest = !view.recent.slice(index + 1).some((later) => later.seat === action.seat);
    const mark = latest ? marks.get(action.seat) : undefined;
    return h("div", { class: `card small ${cards[action.card].colour}${mark ? " played-for" : ""}` }, h("div", { class: "face" }, cardFace(cards, action.card)),
      h("small", {}, `${names[action.seat]} ${verb}`), mark ? h("small", { class: "played-for-note" }, mark) : null);
  })));
}
