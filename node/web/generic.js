// Any game, playable: the game's own text rendering of the view (when it has one), its legal moves
// as buttons in the game's words, and the view as structured data.
import { h, moveButton, moveKey } from "./dom.js";

export function generic(ctx) {
  const moves = (ctx.legal || []).map((move, i) => moveButton(ctx, move, (ctx.texts || [])[i] || moveKey(move), { class: "move" }));
  const secret = { hidden: "choose my hidden data at random", deck: "choose my deck at random" }[ctx.decision];
  if (secret) moves.unshift(moveButton(ctx, { random: true }, secret, { class: "move" }));
  if (ctx.send && !moves.length && ctx.decision) moves.push(typed(ctx));
  return h("div", { class: "generic" },
    ctx.text ? h("pre", { class: "game-text" }, ctx.text) : null,
    moves.length ? h("div", { class: "moves" }, moves) : null,
    ctx.view ? tree(ctx.view) : h("p", { class: "hint" }, "No view yet."));
}

// A decision whose moves are too many to list (a salvo, a deck): typed as JSON, checked by the node.
function typed(ctx) {
  const input = h("input", { class: "typed-move", placeholder: "the move as JSON, e.g. {\"shoot\": [3, 17]}" });
  const send = (event) => {
    event.preventDefault();
    try {
      ctx.send(JSON.parse(input.value));
    } catch (error) {
      input.setCustomValidity("not JSON");
      input.reportValidity();
    }
  };
  return h("form", { class: "typed", onsubmit: send }, input, h("button", { type: "submit" }, "send"));
}

export function tree(value) {
  if (value === null || typeof value !== "object") return h("span", { class: `value ${typeof value}` }, JSON.stringify(value));
  const entries = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
  if (!entries.length) return h("span", { class: "value" }, Array.isArray(value) ? "[]" : "{}");
  if (entries.every(([, item]) => item === null || typeof item !== "object") && Array.isArray(value)) {
    return h("span", { class: "value list" }, JSON.stringify(value));
  }
  return h("dl", { class: "tree" }, entries.map(([key, item]) => [h("dt", {}, String(key)), h("dd", {}, tree(item))]));
}
