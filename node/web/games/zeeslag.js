// zeeslag: every seat's sea as a grid; aim at enemy waters with the cursor; place the fleet ship by
// ship with rotation (R), or at random; with three or more seats, pick a salvo's cells and fire
// them at once. Any number of seas; variants other than VARIANTS use the generic view.
import { catalogue, fill, h, moveButton, moveKey, s } from "../dom.js";

export const VARIANTS = ["duel", "shared"];
const CELL = 30;
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
let rotate = null;
// The placement on screen, if any, turns its next ship when R is pressed.
document.addEventListener("keydown", (event) => {
  if ((event.key === "r" || event.key === "R") && rotate && !(event.target instanceof HTMLInputElement)) rotate();
});

export async function render(ctx) {
  const fleets = await catalogue("zeeslag", "fleets");
  const view = ctx.view;
  const fleet = fleets.find((f) => f.id === view.fleet);
  const me = view.seat;
  const mine = me === null ? null : view.fleets[me].sea;
  const order = view.seas.map((_, i) => i);
  if (mine !== null) order.sort((a, b) => (b === mine) - (a === mine));
  const placing = ctx.decision === "hidden" && ctx.send;
  if (!aiming(ctx)) delete ctx.state.salvo;
  else if (!ctx.state.salvo) ctx.state.salvo = [];
  ctx.state.salvoFree = 0;
  rotate = null;
  const answers = (ctx.legal || []).filter((move) => !("shoot" in move));
  const size = (index) => [view.seas[index].width, view.seas[index].height];
  return h("div", { class: "zeeslag" },
    h("p", { class: "field" }, `Fleet ${fleet.name} (${fleet.name_en}), ${view.variant}${view.water_ring ? ", water ring on" : ""}`),
    placing ? placement(ctx, fleet, windowOf(view, size(mine))) : null,
    h("div", { class: "seas" }, order.map((index) => (placing && index === mine && view.variant !== "shared"
      ? null : sea(ctx, index, fleet, size(index))))),
    answers.length ? h("div", { class: "moves" }, answers.map((move) => moveButton(ctx, move, (ctx.texts || [])[ctx.legal.indexOf(move)] || moveKey(move), { class: "move" }))) : null,
    aiming(ctx) ? salvoPanel(ctx) : null,
    shots(view));
}

const name = (cell, width) => `${LETTERS[Math.floor(cell / width)]}${(cell % width) + 1}`;

// Where a seat places its fleet: its own sea, or in the shared sea its window of twelve columns, its
// home block and the neighbours' border columns beside it (games.md, zeeslag), `first` the window's
// first column in the sea; a column outside the sea is no place, and each ship needs a home cell.
function windowOf(view, [seaWidth, height]) {
  if (view.variant !== "shared") return { width: seaWidth, height, first: 0, inSea: () => true, home: () => true };
  const first = 10 * view.seat - 1;
  return { width: 12, height, first, inSea: (x) => first + x >= 0 && first + x < seaWidth, home: (x) => x >= 1 && x <= 10 };
}

function frame(width, height, content, attrs = {}, first = 0) {
  const labels = [];
  for (let x = 0; x < width; x++) labels.push(s("text", { x: (x + 1.5) * CELL, y: CELL * 0.7, "text-anchor": "middle", class: "label" }, String(first + x + 1)));
  for (let y = 0; y < height; y++) labels.push(s("text", { x: CELL * 0.5, y: (y + 1.65) * CELL, "text-anchor": "middle", class: "label" }, LETTERS[y]));
  return s("svg", { class: "sea", viewBox: `0 0 ${(width + 1) * CELL} ${(height + 1) * CELL}`, ...attrs }, labels, content);
}

function cellRect(cell, width, attrs) {
  return s("rect", { x: ((cell % width) + 1) * CELL + 1, y: (Math.floor(cell / width) + 1) * CELL + 1, width: CELL - 2, height: CELL - 2, rx: 3, ...attrs });
}

// The ships known in sea ``index``: each fleet lying in it, as its owner (or, once opened, everyone) sees it.
function shipsIn(view, index) {
  const cells = new Map();
  if (!view) return cells;
  view.fleets.forEach((fleet, seat) => {
    if (fleet.sea === index && fleet.layout) for (const [cell, id] of fleet.layout) cells.set(cell, { seat, id });
  });
  return cells;
}

function sea(ctx, index, fleet, [width, height]) {
  const view = ctx.view;
  const data = view.seas[index];
  const me = view.seat;
  const owners = view.fleets.map((f, seat) => (f.sea === index ? seat : null)).filter((seat) => seat !== null);
  const known = shipsIn(view, index);
  const later = shipsIn(ctx.final, index);
  const shots = (ctx.legal || []).filter((move) => "shoot" in move && (move.target === undefined ? !owners.includes(me) : view.fleets[move.target].sea === index));
  const targets = new Map(ctx.send ? shots.map((move) => [move.shoot, move]) : []);
  const salvo = aiming(ctx) ? salvoTargets(ctx, index, owners, width) : new Map();
  const chosen = new Set(aiming(ctx) ? ctx.state.salvo.filter(([, , sea]) => sea === index).map(([, cell]) => cell) : []);
  ctx.state.salvoFree += salvo.size - chosen.size;
  const sunk = new Set(data.sunk.flatMap((entry) => entry.cells));
  const hits = new Set(data.hits);
  const water = new Set(data.water);
  const shotAt = new Set(data.shots);
  const aimed = h("p", { class: "aim" }, "\u00a0");
  // One line of fixed height, so the words under the cursor never move the grid being clicked.
  const cells = [];
  for (let cell = 0; cell < width * height; cell++) {
    const x = ((cell % width) + 1.5) * CELL;
    const y = (Math.floor(cell / width) + 1.5) * CELL;
    const kind = sunk.has(cell) ? "sunk" : hits.has(cell) ? "hit" : shotAt.has(cell) ? "miss" : water.has(cell) ? "water"
      : known.has(cell) ? "ship" : later.has(cell) ? "ship later" : "unknown";
    cells.push(cellRect(cell, width, { class: `cell ${kind}`, "data-cell": name(cell, width) }));
    if (kind === "miss" || kind === "water") cells.push(s("circle", { cx: x, cy: y, r: kind === "miss" ? 4 : 2, class: "mark" }));
    if (kind === "hit" || kind === "sunk") cells.push(s("path", { d: `M${x - 8},${y - 8}L${x + 8},${y + 8}M${x + 8},${y - 8}L${x - 8},${y + 8}`, class: "mark" }));
    if (chosen.has(cell)) cells.push(s("circle", { cx: x, cy: y, r: 9, class: "aimed" }));
    const enemy = salvo.get(cell);
    if (enemy !== undefined) {
      cells.push(cellRect(cell, width, {
        class: `target salvo-target${chosen.has(cell) ? " chosen" : ""}`, "data-cell": name(cell, width), "data-enemy": enemy,
        onclick: () => aim(ctx, enemy, cell, index), onmouseenter: () => { aimed.textContent = `aim: ${name(cell, width)} at seat ${enemy}`; },
      }));
    }
    const move = targets.get(cell);
    if (move) {
      cells.push(cellRect(cell, width, {
        class: "target", "data-move": moveKey(move), "data-cell": name(cell, width),
        onclick: () => ctx.send(move), onmouseenter: () => { aimed.textContent = `aim: ${name(cell, width)}`; },
      }));
    }
  }
  const whose = owners.map((seat) => (seat === me ? "you" : `seat ${seat}`)).join(", ");
  const team = (view.teams || []).find((seats) => seats.includes(me)) || [];
  const title = owners.length > 1 ? `Shared sea (${whose})` : me === null ? `Sea of seat ${owners[0]}`
    : owners.includes(me) ? "Your fleet" : team.includes(owners[0]) ? `Your partner's waters (seat ${owners[0]})` : `Enemy waters (seat ${owners[0]})`;
  const afloat = owners.map((seat) => h("ul", { class: "ships" }, owners.length > 1 ? h("li", {}, `seat ${seat}:`) : null,
    fleet.ships.map((ship, i) => h("li", { class: view.fleets[seat].sunk.includes(i) ? "gone" : "" }, `${ship.name} (${ship.length})`))));
  return h("div", { class: `sea-panel${owners.length > 1 ? " shared" : ""}${targets.size || salvo.size ? " aiming" : ""}`, "data-seat": owners.join(" "), "data-sea": index },
    h("h3", {}, title), aimed, frame(width, height, cells), afloat);
}

// A salvo (three or more seats): a simultaneous choice with no listed moves; the seat picks its
// cells on the enemies' seas, [enemy, cell, sea] each in ctx.state.salvo, then fires them at once.
function aiming(ctx) {
  return ctx.decision === "choice" && ctx.send && !(ctx.legal || []).length && Array.isArray(ctx.view.due) && ctx.view.due.length > 0;
}

// The cells of sea ``index`` a shot may go at, each with the enemy it is fired at: the cells chosen
// already (to take back), and unshot cells of the waters of a due enemy with shots left (in the
// shared sea, its home block of ten columns or a border column next to it).
function salvoTargets(ctx, index, owners, width) {
  const view = ctx.view;
  const data = view.seas[index];
  const salvo = ctx.state.salvo;
  const room = (enemy, count) => view.salvo === "focus" || salvo.filter(([seat]) => seat === enemy).length < count;
  const due = view.due.filter(([enemy, count]) => owners.includes(enemy) && room(enemy, count)).map(([enemy]) => enemy);
  const taken = new Set([...data.shots, ...data.water]);
  const own = new Set(((view.fleets[view.seat] || {}).layout || []).filter(() => view.fleets[view.seat].sea === index).map(([cell]) => cell));
  const targets = new Map(salvo.filter(([, , sea]) => sea === index).map(([enemy, cell]) => [cell, enemy]));
  if (!due.length) return targets;
  for (let cell = 0; cell < width * data.height; cell++) {
    if (taken.has(cell) || own.has(cell) || targets.has(cell)) continue;
    const column = cell % width;
    const enemy = view.variant !== "shared" ? due[0]
      : due.find((seat) => Math.floor(column / 10) === seat) ?? due.find((seat) => column === seat * 10 - 1 || column === seat * 10 + 10);
    if (enemy !== undefined) targets.set(cell, enemy);
  }
  return targets;
}

function aim(ctx, enemy, cell, sea) {
  const salvo = ctx.state.salvo;
  const at = salvo.findIndex(([, c, s2]) => c === cell && s2 === sea);
  if (at >= 0) salvo.splice(at, 1);
  else {
    const count = (ctx.view.due.find(([seat]) => seat === enemy) || [enemy, 0])[1];
    if (ctx.view.salvo === "focus") {
      const others = salvo.filter(([seat]) => seat !== enemy);
      salvo.splice(0, salvo.length, ...salvo.filter(([seat]) => seat === enemy));
      if (others.length) ctx.state.salvoNote = `a focus salvo goes at one enemy: now seat ${enemy}`;
    }
    if (salvo.filter(([seat]) => seat === enemy).length < count) salvo.push([enemy, cell, sea]);
  }
  ctx.repaint();
}

function salvoPanel(ctx) {
  const view = ctx.view;
  const salvo = ctx.state.salvo;
  const wanted = view.salvo === "focus" ? (salvo.length ? view.due.find(([seat]) => seat === salvo[0][0])[1] : view.due[0][1])
    : view.due.reduce((sum, [, count]) => sum + count, 0);
  const counts = view.due.map(([enemy, count]) => `seat ${enemy}: ${salvo.filter(([seat]) => seat === enemy).length} of ${count}`);
  const fire = () => {
    const move = { salvo: salvo.map(([enemy, cell]) => [enemy, cell]) };
    ctx.state.salvo = [];
    ctx.send(move);
  };
  return h("div", { class: "salvo", id: "salvo" },
    h("p", {}, `Your salvo (${view.salvo}${view.salvo === "focus" ? ": every shot at one enemy" : ": shots at each enemy"}): `, counts.join(", ")),
    ctx.state.salvoNote ? h("p", { class: "hint" }, ctx.state.salvoNote) : null,
    h("div", { class: "moves" },
      // Fewer shots than due only when no target is left for them (the rules judge the excuse).
      h("button", { id: "fire-salvo", disabled: salvo.length !== wanted && ctx.state.salvoFree > 0, onclick: fire },
        `Fire ${salvo.length} shot${salvo.length === 1 ? "" : "s"}`),
      h("button", { id: "clear-salvo", onclick: () => { ctx.state.salvo = []; ctx.repaint(); } }, "Clear")));
}

function placement(ctx, fleet, { width, height, first, inSea, home }) {
  const memo = ctx.state.placement || (ctx.state.placement = { ships: [], vertical: false });
  const panel = h("div", { class: "sea-panel placing", "data-seat": ctx.view.seat });
  const occupied = () => new Map(memo.ships.flatMap((placed) => placed.cells.map((cell) => [cell, placed.index])));
  const nextShip = () => fleet.ships.findIndex((_, i) => !memo.ships.some((placed) => placed.index === i));
  function cellsAt(cell, length) {
    const x = cell % width;
    const y = Math.floor(cell / width);
    if (memo.vertical ? y + length > height : x + length > width) return null;
    const cells = Array.from({ length }, (_, i) => (memo.vertical ? cell + i * width : cell + i));
    const columns = cells.map((c) => c % width);
    return columns.every(inSea) && columns.some(home) ? cells : null;
  }
  const label = (cell) => `${LETTERS[Math.floor(cell / width)]}${first + (cell % width) + 1}`;
  const where = (cell) => (!inSea(cell % width) ? " off" : home(cell % width) ? "" : " border");
  function fits(cells) {
    const taken = occupied();
    return cells.every((cell) => {
      const x = cell % width;
      const y = Math.floor(cell / width);
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx >= 0 && ny >= 0 && nx < width && ny < height && taken.has(ny * width + nx)) return false;
        }
      }
      return true;
    });
  }
  function paint() {
    const taken = occupied();
    const next = nextShip();
    const cells = [];
    const hover = (cell) => {
      const preview = cell >= 0 && next >= 0 ? cellsAt(cell, fleet.ships[next].length) : null;
      const shown = new Set(preview || []);
      const good = preview && fits(preview);
      for (const rect of cells) {
        const here = Number(rect.dataset.index);
        rect.classList.toggle("preview", shown.has(here));
        rect.classList.toggle("bad", shown.has(here) && !good);
      }
    };
    for (let cell = 0; cell < width * height; cell++) {
      cells.push(cellRect(cell, width, {
        class: `cell place ${taken.has(cell) ? "ship" : "unknown"}${where(cell)}`, "data-place": label(cell), "data-index": cell,
        onmouseenter: () => hover(cell),
        onclick: () => {
          if (taken.has(cell)) memo.ships = memo.ships.filter((placed) => placed.index !== taken.get(cell));
          else if (next >= 0) {
            const cellsHere = cellsAt(cell, fleet.ships[next].length);
            if (cellsHere && fits(cellsHere)) memo.ships.push({ index: next, cells: cellsHere });
          }
          paint();
        },
      }));
    }
    const ships = new Uint8Array(width * height);
    const ids = new Uint8Array(width * height);
    for (const placed of memo.ships) for (const cell of placed.cells) { ships[cell] = 1; ids[cell] = placed.index + 1; }
    const done = next < 0;
    const confirm = h("button", { id: "confirm-fleet", disabled: !done, onclick: () => ctx.send({ ids: [...ids], ships: [...ships] }) }, "Confirm fleet");
    fill(panel,
      h("h3", {}, "Place your fleet: click a cell for the ship's top or left end; R turns it",
        first ? " (shaded: the neighbours' border columns; each ship needs a cell in your own block)" : ""),
      frame(width, height, cells, { onmouseleave: () => hover(-1) }, first),
      h("ul", { class: "ships" }, fleet.ships.map((ship, i) => h("li", {
        class: memo.ships.some((placed) => placed.index === i) ? "placed" : i === next ? "next" : "",
      }, `${ship.name} (${ship.length})`))),
      h("div", { class: "moves" },
        h("button", { id: "rotate", onclick: () => rotate() }, memo.vertical ? "Rotate: vertical" : "Rotate: horizontal"),
        h("button", { id: "clear-fleet", onclick: () => { memo.ships = []; paint(); } }, "Clear"),
        moveButton(ctx, { random: true }, "Random fleet", { id: "random-fleet" }), confirm));
  }
  rotate = () => {
    memo.vertical = !memo.vertical;
    paint();
  };
  paint();
  return panel;
}

function shots(view) {
  if (!view.recent.length) return null;
  const me = view.seat;
  return h("div", { class: "recent" }, h("h3", {}, "Last shots"), h("ul", {}, view.recent.map((shot) => {
    const who = me === null ? `seat ${shot.seat}` : shot.seat === me ? "you" : `seat ${shot.seat}`;
    const width = view.seas[view.fleets[shot.target] ? view.fleets[shot.target].sea : 0].width;
    const outcome = shot.hit === null ? "being opened" : shot.hit ? (shot.hit === 1 ? "hit" : `${shot.hit} ships hit`) : "miss";
    return h("li", {}, `${who}: ${name(shot.cell, width)}: ${outcome}${shot.sunk.length ? ", sunk" : ""}${shot.timer ? " (timer)" : ""}`);
  })));
}
