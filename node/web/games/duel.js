// duel: each seat's score, the attack on the table, the hand as cards (click one to attack or
// defend; in a free-for-all, the seat to attack under it), the draft pool, the last duels, and the
// secret deck: at random, from a deck list, or card by card from the catalogue.
import { catalogue, fill, h, moveButton, s } from "../dom.js";
import { counted, seatName } from "../words.js";

const HUE = { Aria: "#5b7fb8", Mare: "#2f8a8a", Terra: "#8a6532" };

export async function render(ctx) {
  const cards = await catalogue("duel", "cards");
  const view = ctx.view;
  const names = view.players.map((_, seat) => seatName(seat, view.seat, ctx.names));
  return h("div", { class: "duel" },
    h("p", { class: "field" }, title(view, cards)),
    scores(view, names, ctx.standing),
    ctx.decision === "deck" && ctx.send ? deckBuilder(ctx, cards) : null,
    draft(ctx, cards, names),
    onTable(view, cards, names, ctx.marks),
    hand(ctx, cards),
    recent(view, cards, names, ctx.marks));
}

// A card as a picture: its type's colour, name, attack and defence; face down without a face.
// ``beats`` (the view's type triangle) adds the type it beats to its tooltip.
export function cardPicture(cards, id, { beats, ...attrs } = {}) {
  if (id === null || id === undefined) {
    return s("svg", { class: "duel-card", viewBox: "0 0 80 112", ...attrs }, s("rect", { x: 1, y: 1, width: 78, height: 110, rx: 7, class: "back" }),
      s("text", { x: 40, y: 62, "text-anchor": "middle", class: "back-mark" }, "?"));
  }
  const card = cards[id];
  return s("svg", { class: "duel-card", viewBox: "0 0 80 112", "data-card": id, ...attrs },
    s("rect", { x: 1, y: 1, width: 78, height: 110, rx: 7, fill: HUE[card.type], class: "frame" }),
    s("rect", { x: 6, y: 24, width: 68, height: 50, rx: 4, class: "paper" }),
    s("text", { x: 40, y: 16, "text-anchor": "middle", class: "name", textLength: card.name.length > 11 ? 70 : null, lengthAdjust: "spacingAndGlyphs" }, card.name),
    s("text", { x: 40, y: 64, "text-anchor": "middle", class: "type" }, card.type_name),
    s("text", { x: 8, y: 87, class: "label" }, "attack"),
    s("text", { x: 72, y: 87, "text-anchor": "end", class: "label" }, "defence"),
    s("text", { x: 8, y: 102, class: "value" }, String(card.attack)),
    s("text", { x: 72, y: 102, "text-anchor": "end", class: "value" }, String(card.defence)),
    s("title", {}, `${card.name}, ${card.type_name}: attack ${card.attack}, defence ${card.defence}${beats ? `; beats ${typeName(cards, beats[card.type])}` : ""}`));
}

// A card type's name in the page's language, as the catalogue's cards of that type carry it.
function typeName(cards, type) {
  return (cards.find((card) => card.type === type) || {}).type_name || type;
}

function title(view, cards) {
  const options = view.options;
  const where = view.variant === "ffa" ? `cycle ${Math.min(view.cycle, options.cycles)} of ${options.cycles}`
    : `${view.tiebreaks ? `tie-break ${view.tiebreaks} after ${counted("round", options.rounds)}` : `round ${Math.max(view.round, 1)} of ${options.rounds}`}, tie: ${options.tie}`;
  const triangle = Object.entries(view.beats).map(([type, beaten]) => `${typeName(cards, type)} beats ${typeName(cards, beaten)}`).join(", ");
  return `Duel ${view.variant}${options.draft ? ", draft" : ""}: ${where} · ${triangle} (+${view.bonus} attack)`;
}

function scores(view, names, final) {
  const rows = [["points", (p) => p.points], ["this round", (p) => p.round_points]];
  if (view.variant !== "ffa") rows.push(["rounds won", (p) => p.rounds_won]);
  rows.push(["won attack/defence", (p) => `${p.attacks_won}/${p.defences_won}`], ["hand/deck", (p) => (p.out ? "out" : `${p.hand}/${p.deck}`)]);
  const busy = (seat) => (view.result ? "" : seat === view.attacker ? " attacking" : seat === view.defender ? " defending" : "");
  const drawn = view.rounds_drawn ? counted("drawn", view.rounds_drawn) : null;
  return h("div", {}, h("table", { class: "scores" },
    h("tr", {}, h("th", {}), view.players.map((_, seat) => h("th", { class: `seat${busy(seat)}`, "data-seat": seat }, names[seat]))),
    rows.map(([label, cell]) => h("tr", {}, h("th", {}, label), view.players.map((player) => h("td", {}, String(cell(player)))),
      label === "rounds won" && drawn ? h("td", { class: "hint", id: "rounds-drawn" }, drawn) : null))),
    view.result && final ? h("p", { class: "standing", id: "standing" }, `Final ${final}`) : null);
}

// The attack on the table; made for the attacker (``marks``: its timer's), it says so under the card.
function onTable(view, cards, names, marks) {
  if (view.attack === null || view.attacker === null) return null;
  return h("div", { class: "on-table", id: "duel-attack" },
    h("h3", {}, `${names[view.attacker]} attack${view.attacker === view.seat ? "" : "s"} ${names[view.defender]} with`),
    cardPicture(cards, view.attack, { width: 90, beats: view.beats }),
    marks.has(view.attacker) ? h("small", { class: "played-for-note" }, marks.get(view.attacker)) : null);
}

// The moves of a card of the hand: attack or defend with it (at a target seat in a free-for-all).
function hand(ctx, cards) {
  const view = ctx.view;
  if (!view.hand_cards || !view.hand_cards.length) return null;
  const blind = view.variant === "blind";
  const entries = view.hand_cards.map((entry) => {
    const { handle, card } = entry;
    const moves = (ctx.legal || []).filter((move) => move.attack === handle || move.defend === handle);
    const picture = cardPicture(cards, card, { width: 80 });
    let chosen = h("div", { class: "face" }, picture);
    if (moves.length === 1) {
      const verb = "attack" in moves[0] ? "attack" : "defend";
      const facing = verb === "defend" && entry.facing ? ` against ${value(view, entry.facing.attack, entry.facing.bonus)}` : "";
      chosen = moveButton(ctx, moves[0], picture, { class: `face play ${verb}`, title: `${verb} with this card${facing}` });
    }
    return h("div", { class: `duel-hand-card${moves.length ? " playable" : ""}`, "data-handle": handle }, chosen,
      moves.length > 1 ? moves.map((move) => moveButton(ctx, move, `at ${seatName(move.target, ctx.view.seat, ctx.names)}`, { class: "target" })) : null);
  });
  const doing = ctx.yourTurn ? (view.step === "defend" ? ": defend with a card" : view.step === "attack" ? ": attack with a card" : "") : "";
  return h("div", { class: "hand-area" },
    h("h3", {}, blind ? "Your cards, face down: a random one of each duellist is turned over" : `Your hand${doing}`),
    h("div", { class: "hand" }, entries));
}

// An attack's value as the rules compared it (the view's ``value``/``attack``), saying when it holds the type bonus.
function value(view, compared, bonus) {
  return bonus ? `${compared} (+${view.bonus})` : String(compared);
}

function draft(ctx, cards, names) {
  const view = ctx.view;
  if (!view.draft || view.step !== "draft") return null;
  const picks = new Map((ctx.legal || []).filter((move) => "pick" in move).map((move) => [move.pick, move]));
  const next = view.draft.next;
  return h("div", { class: "draft" },
    h("h3", {}, `Draft: ${next === null ? "done" : `${names[next]} pick${next === view.seat ? "" : "s"}`} · ${counted("card", view.draft.pool.length)} in the pool`),
    h("div", { class: "hand small" }, view.draft.pool.map((card) => (picks.has(card)
      ? moveButton(ctx, picks.get(card), cardPicture(cards, card, { width: 64 }), { class: "face draft-pick" })
      : h("div", { class: "face" }, cardPicture(cards, card, { width: 64 }))))),
    view.seat === null ? null : h("p", { class: "hint" }, `Your picks: ${view.draft.picks[view.seat].map((card) => cards[card].name).join(", ") || "none yet"}`));
}

// The last duels, newest first; a seat's latest card made for it (``marks``: its timer's) says so.
function recent(view, cards, names, marks) {
  if (!view.recent.length) return null;
  const last = view.recent[view.recent.length - 1];
  const moved = new Set(view.attack !== null && view.attacker !== null ? [view.attacker] : []);
  return h("div", { class: "recent" }, h("h3", {}, "Last duels"),
    h("div", { class: "last-duel", id: "last-duel" }, cardPicture(cards, last.attack, { width: 64 }), h("span", {}, "against"),
      cardPicture(cards, last.defence, { width: 64 }), h("strong", {}, `${last.points[0]}–${last.points[1]}`)),
    h("ul", {}, view.recent.slice(-6).reverse().map((duel) => {
    const defence = duel.defence === null ? "no card" : `${cards[duel.defence].name} ${cards[duel.defence].defence}`;
    const [a, d] = duel.points;
    const notes = [duel.attacker, duel.defender].filter((seat) => !moved.has(seat) && marks.has(seat)).map((seat) => marks.get(seat));
    moved.add(duel.attacker).add(duel.defender);
    return h("li", {}, `${duel.playoff ? "playoff" : `round ${duel.round}`}: ${names[duel.attacker]} ${cards[duel.attack].name} `
      + `${value(view, duel.value, duel.bonus)} against ${names[duel.defender]} ${defence}: ${a}–${d}`,
      notes.map((note) => h("small", { class: "played-for-note" }, ` (${note})`)));
  })));
}

const deckList = (cards, chosen) => [`# ${chosen.size} cards`, ...[...chosen].sort((a, b) => a - b).map((id) => cards[id].name)].join("\n");

// The secret deck: a first deck from the whole catalogue, or a rebuilt one from its own cards (and
// in blind play the cards drawn to swap in). Sent as the sorted card ids; the node checks it.
function deckBuilder(ctx, cards) {
  const view = ctx.view;
  const rebuild = view.deck_cards !== null;
  const pool = view.deck_choices || [];
  const size = view.deck_size;
  const memo = ctx.state.deck || (ctx.state.deck = { chosen: new Set(view.deck_base || []) });
  const panel = h("div", { class: "deck-builder", id: "deck-builder" });
  const list = h("textarea", { id: "deck-list", rows: 8, spellcheck: false, placeholder: "one card a line: its name (Dutch or English) or number" });
  const problems = h("p", { class: "error", id: "deck-problems" });
  list.value = memo.chosen.size ? deckList(cards, memo.chosen) : "";
  // The node reads the list with the game's own deck-list reader and checks the deck (deck_list).
  async function read() {
    try {
      memo.chosen = new Set(await ctx.readDeck(list.value));
      problems.textContent = "";
      paint();
    } catch (error) {
      problems.textContent = error.message;
    }
  }
  function paint() {
    const count = h("span", { id: "deck-count" }, `${memo.chosen.size} of ${size} chosen`);
    const grid = pool.map((id) => h("button", {
      class: `deck-card${memo.chosen.has(id) ? " chosen" : ""}`, "data-card": id, type: "button",
      onclick: () => {
        if (memo.chosen.has(id)) memo.chosen.delete(id);
        else if (memo.chosen.size < size) memo.chosen.add(id);
        list.value = deckList(cards, memo.chosen);
        problems.textContent = "";
        paint();
      },
    }, cardPicture(cards, id, { width: 58 })));
    const ready = memo.chosen.size === size;
    fill(panel,
      h("h3", {}, rebuild ? `Rebuild your secret deck: ${size} cards of these` : `Choose your secret deck: ${size} different cards`),
      h("div", { class: "moves" },
        moveButton(ctx, { random: true }, "Random deck", { id: "random-deck" }),
        h("button", { id: "confirm-deck", disabled: !ready, onclick: () => ctx.send([...memo.chosen].sort((a, b) => a - b)) }, "Play this deck"),
        h("button", { id: "clear-deck", type: "button", onclick: () => { memo.chosen = new Set(); list.value = ""; paint(); } }, "Clear"), count),
      h("details", { class: "deck-list-panel", open: true }, h("summary", {}, "Deck list (paste one, or copy yours)"), list,
        h("button", { id: "read-deck-list", type: "button", onclick: read }, "Use this list"), problems),
      h("div", { class: "deck-grid" }, grid));
  }
  paint();
  return panel;
}
