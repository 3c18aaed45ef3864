// What zeeslag's two boards (zeeslag.js: the duel and the shared sea; space.js: the space battle)
// share: a sea as an SVG grid with its shots, hits, water and aimable cells; picking and firing a
// salvo (three or more seats); the last shots; the R key that turns the ship being placed.
import { h, moveKey, s } from "../dom.js";
import { counted, say, seatName } from "../words.js";

export const CELL = 30;
export const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
export const cellName = (cell, width) => `${LETTERS[Math.floor(cell / width)]}${(cell % width) + 1}`;

let rotate = null;
// The placement on screen, if any, turns its next ship when R is pressed.
document.addEventListener("keydown", (event) => {
  if ((event.key === "r" || event.key === "R") && rotate && !(event.target instanceof HTMLInputElement)) rotate();
});

// What R does now: turn the ship being placed, or nothing (null).
export function onRotate(turn) {
  rotate = turn;
}

export function frame(width, height, content, attrs = {}, first = 0) {
  const labels = [];
  for (let x = 0; x < width; x++) labels.push(s("text", { x: (x + 1.5) * CELL, y: CELL * 0.7, "text-anchor": "middle", class: "label" }, first + x >= 0 ? String(first + x + 1) : ""));
  for (let y = 0; y < height; y++) labels.push(s("text", { x: CELL * 0.5, y: (y + 1.65) * CELL, "text-anchor": "middle", class: "label" }, LETTERS[y]));
  return s("svg", { class: "sea", viewBox: `0 0 ${(width + 1) * CELL} ${(height + 1) * CELL}`, ...attrs }, labels, content);
}

export function cellRect(cell, width, attrs) {
  return s("rect", { x: ((cell % width) + 1) * CELL + 1, y: (Math.floor(cell / width) + 1) * CELL + 1, width: CELL - 2, height: CELL - 2, rx: 3, ...attrs });
}

// The centre of a cell in the grid's coordinates.
export const centre = (cell, width) => [((cell % width) + 1.5) * CELL, (Math.floor(cell / width) + 1.5) * CELL];

// The cells of sea ``index`` as SVG: each cell's state as its class (sunk, hit, miss, water, else
// what ``look(cell)`` says the viewer knows lies there, else unknown) with its mark, what ``extra``
// adds, the salvo's cells to pick (unless ``salvo`` is false: an ability is being aimed) and ``targets``: cell -> { key, act, move }
// (a move's data-move, what a click does, the move); a cell already shot explains its refusal on a click. ``aimed`` is the line that names the cell under the
// cursor, one line of fixed height, so the words never move the grid being clicked.
export function seaCells(ctx, index, { look, extra = () => [], targets = new Map(), salvo = true }) {
  const view = ctx.view;
  const data = view.seas[index];
  const { width, height } = data;
  const owners = view.fleets.map((f, seat) => (f.sea === index ? seat : null)).filter((seat) => seat !== null);
  const picks = salvo && aiming(ctx) ? salvoTargets(ctx, index) : new Map();
  const chosen = new Set(aiming(ctx) ? ctx.state.salvo.filter(([, , sea]) => sea === index).map(([, cell]) => cell) : []);
  const sunk = new Set(data.sunk.flatMap((entry) => entry.cells));
  const hits = new Set(data.hits);
  const water = new Set(data.water);
  const shotAt = new Set(data.shots);
  const aimed = h("p", { class: "aim" }, "\u00a0");
  // A cell already shot, clicked while shooting here: the game says why it is no target.
  const shooting = ctx.explain && [...targets.values()].find((target) => target.move)?.move;
  const cells = [];
  for (let cell = 0; cell < width * height; cell++) {
    const [x, y] = centre(cell, width);
    const kind = sunk.has(cell) ? "sunk" : hits.has(cell) ? "hit" : shotAt.has(cell) ? "miss" : water.has(cell) ? "water" : look(cell) || "unknown";
    cells.push(cellRect(cell, width, { class: `cell ${kind}`, "data-cell": cellName(cell, width) }));
    if (kind === "miss" || kind === "water") cells.push(s("circle", { cx: x, cy: y, r: kind === "miss" ? 4 : 2, class: "mark" }));
    if (kind === "hit" || kind === "sunk") cells.push(s("path", { d: `M${x - 8},${y - 8}L${x + 8},${y + 8}M${x + 8},${y - 8}L${x - 8},${y + 8}`, class: "mark" }));
    cells.push(extra(cell, kind));
    if (chosen.has(cell)) cells.push(s("circle", { cx: x, cy: y, r: 9, class: "aimed" }));
    const enemy = picks.get(cell);
    if (enemy !== undefined) {
      cells.push(cellRect(cell, width, {
        class: `target salvo-target${chosen.has(cell) ? " chosen" : ""}`, "data-cell": cellName(cell, width), "data-enemy": enemy,
        onclick: () => aim(ctx, enemy, cell, index), onmouseenter: () => { aimed.textContent = `aim: ${cellName(cell, width)} at ${seatName(enemy, ctx.view.seat, ctx.names)}`; },
      }));
    }
    const target = targets.get(cell);
    if (target) {
      cells.push(cellRect(cell, width, {
        class: "target", "data-move": target.key, "data-cell": cellName(cell, width),
        onclick: target.act, onmouseenter: () => { aimed.textContent = `${target.label || "aim"}: ${cellName(cell, width)}`; },
      }));
    } else if (shooting && ["sunk", "hit", "miss", "water"].includes(kind)) {
      cells.push(cellRect(cell, width, { class: "refused", "data-cell": cellName(cell, width), onclick: () => ctx.explain({ ...shooting, shoot: cell }) }));
    }
  }
  return { cells, aimed, owners, aiming: picks.size + targets.size > 0 };
}

// The first placed ship ({ index, cells }) that ``cells`` would lie on or touch, or undefined;
// ``neighbours`` is the view's placing.neighbours: per cell, the cells no other ship may take.
export function touching(cells, placed, neighbours) {
  const taken = new Map(placed.flatMap((ship) => ship.cells.map((cell) => [cell, ship])));
  const near = cells.flatMap((cell) => [cell, ...neighbours[cell]]).find((cell) => taken.has(cell));
  return near === undefined ? undefined : taken.get(near);
}

// A placed fleet ({ index, cells } per ship, index its id - 1) as the hidden data a seat commits:
// the layers ``ships`` (1 on a ship) and ``ids`` (the ship's id) of ``size`` cells.
export function fleetLayers(placed, size) {
  const ships = new Array(size).fill(0);
  const ids = new Array(size).fill(0);
  for (const ship of placed) for (const cell of ship.cells) { ships[cell] = 1; ids[cell] = ship.index + 1; }
  return { ids, ships };
}

// The listed shots at sea ``index`` (a duel turn) as targets that send them.
export function shotTargets(ctx, index, owners) {
  const view = ctx.view;
  const me = view.seat;
  const shots = (ctx.legal || []).filter((move) => "shoot" in move && (move.target === undefined ? !owners.includes(me) : view.fleets[move.target].sea === index));
  return new Map(ctx.send ? shots.map((move) => [move.shoot, { key: moveKey(move), act: () => ctx.send(move), move }]) : []);
}

// A salvo (three or more seats): a simultaneous choice with no listed moves; the seat picks its
// cells on the enemies' seas, [enemy, cell, sea] each in ctx.state.salvo, then fires them at once.
export function aiming(ctx) {
  return ctx.decision === "choice" && ctx.send && !(ctx.legal || []).length && Array.isArray(ctx.view.due) && ctx.view.due.length > 0;
}

// The shots due now, [enemy, count] each: the view's due, or with an ability chosen for the salvo
// (space battle, ctx.state.ability = { move, at }) the view's due_with_ability beside it.
export function dueNow(ctx) {
  const ability = ctx.state.ability;
  if (!ability) return ctx.view.due;
  return ((ctx.view.due_with_ability || []).find(([enemy]) => enemy === ability.at) || [null, []])[1];
}

// The cells of sea ``index`` a shot may go at, each with the enemy it is fired at: the cells chosen
// already (to take back), and the view's targets, each for its first enemy still owed a shot.
function salvoTargets(ctx, index) {
  const salvo = ctx.state.salvo;
  const owed = new Map(dueNow(ctx));
  const owing = (enemy) => salvo.filter(([seat]) => seat === enemy).length < (owed.get(enemy) || 0);
  const targets = new Map(salvo.filter(([, , sea]) => sea === index).map(([enemy, cell]) => [cell, enemy]));
  for (const [sea, cell, enemies] of ctx.view.targets) {
    const enemy = sea === index && !targets.has(cell) ? enemies.find(owing) : undefined;
    if (enemy !== undefined) targets.set(cell, enemy);
  }
  return targets;
}

// A click on a salvo cell: takes it back, or aims a shot there at ``enemy``.
function aim(ctx, enemy, cell, sea) {
  const salvo = ctx.state.salvo;
  const at = salvo.findIndex(([, c, s2]) => c === cell && s2 === sea);
  if (at >= 0) salvo.splice(at, 1);
  else salvo.push([enemy, cell, sea]);
  ctx.repaint();
}

// The salvo being picked, with the ability chosen for it (space battle), and the button firing both.
export function salvoPanel(ctx) {
  const view = ctx.view;
  const salvo = ctx.state.salvo;
  const due = dueNow(ctx);
  const ability = ctx.state.ability;
  const counts = due.map(([enemy, count]) => `${seatName(enemy, ctx.view.seat, ctx.names)}: ${salvo.filter(([seat]) => seat === enemy).length} of ${count}`);
  // The rules judge the salvo (its counts, focus, fewer shots where no target is left): the node's
  // check says why it cannot be fired, and the picks stay to be mended.
  const fire = async () => {
    const pairs = salvo.map(([enemy, cell]) => [enemy, cell]).sort(([e1, c1], [e2, c2]) => e1 - e2 || c1 - c2);
    const move = { salvo: pairs, ...(ability ? { ability: ability.move } : {}) };
    if (!(await ctx.explain(move))) return;
    ctx.state.salvo = [];
    delete ctx.state.ability;
    ctx.send(move);
  };
  return h("div", { class: "salvo", id: "salvo" },
    h("p", {}, `Your salvo (${view.salvo}${view.salvo === "focus" ? ": every shot at one enemy" : ": shots at each enemy"}): `, counts.join(", "),
      ability ? h("span", { id: "salvo-ability" }, `${counts.length ? "; " : ""}${ability.text}`) : null),
    h("div", { class: "moves" },
      h("button", { id: "fire-salvo", onclick: fire },
        `Fire ${counted("shot", salvo.length)}${ability ? ` and the ${Object.keys(ability.move).find((key) => key !== "at")}` : ""}`),
      h("button", { id: "clear-salvo", onclick: () => { ctx.state.salvo = []; delete ctx.state.ability; ctx.repaint(); } }, "Clear")));
}

const DONE = { shot: "", nuke: "nuke ", blast: "blast ", laser: "laser ", scan: "scan " };

// The last shots (and, in the space battle, abilities) in words; the newest hit on a seat whose
// answer was made for it (``forced``: the log's latest forced entries) says so.
export function shots(view, names, forced = new Set()) {
  if (!view.recent.length) return null;
  const me = view.seat;
  const answered = view.recent.findLastIndex((shot) => shot.hit && !["scan", "reserve"].includes(shot.kind)
    && (forced.has(shot.target) || shot.sunk.some(([owner]) => forced.has(owner))));
  return h("div", { class: "recent" }, h("h3", {}, "Last shots"), h("ul", {}, view.recent.map((shot, index) => {
    const who = seatName(shot.seat, me, names);
    const width = view.seas[view.fleets[shot.target] ? view.fleets[shot.target].sea : 0].width;
    if (shot.kind === "reserve") return h("li", {}, `${who}: a reserve squadron landed`);
    const at = `${DONE[shot.kind] || ""}${shot.cell >= 0 ? cellName(shot.cell, width) : ""}${view.seats > 2 && view.variant !== "shared" ? ` at ${seatName(shot.target, me, names)}` : ""}`;
    const outcome = shot.hit === null ? "being opened" : shot.kind === "scan" ? `${counted("cell", shot.hit)} seen`
      : shot.hit ? counted("ships_hit", shot.hit) : "miss";
    return h("li", {}, `${who}: ${at}: ${outcome}${shot.sunk.length ? ", sunk" : ""}${shot.timer ? " (timer)" : ""}`,
      index === answered ? [" · ", h("small", { class: "played-for-note" }, say("page.answered_forced"))] : null);
  })));
}
