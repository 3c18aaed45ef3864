// zeeslag: every seat's sea as a grid; aim at enemy waters with the cursor; place the fleet ship by
// ship with rotation (R), or at random. Any number of seas (other modes have more opponents).
import { catalogue, fill, h, moveButton, moveKey, s } from "../dom.js";

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
  rotate = null;
  const answers = (ctx.legal || []).filter((move) => !("shoot" in move));
  const size = (index) => [view.seas[index].width, view.seas[index].height];
  return h("div", { class: "zeeslag" },
    h("p", { class: "field" }, `Fleet ${fleet.name} (${fleet.name_en}), ${view.variant}${view.water_ring ? ", water ring on" : ""}`),
    h("div", { class: "seas" }, order.map((index) => (placing && index === mine && view.variant !== "shared"
      ? placement(ctx, fleet, size(index)) : sea(ctx, index, fleet, size(index))))),
    placing && view.variant === "shared" ? moveButton(ctx, { random: true }, "Random fleet", { id: "random-fleet" }) : null,
    answers.length ? h("div", { class: "moves" }, answers.map((move) => moveButton(ctx, move, moveKey(move), { class: "move" }))) : null,
    shots(view));
}

const name = (cell, width) => `${LETTERS[Math.floor(cell / width)]}${(cell % width) + 1}`;

function frame(width, height, content, attrs = {}) {
  const labels = [];
  for (let x = 0; x < width; x++) labels.push(s("text", { x: (x + 1.5) * CELL, y: CELL * 0.7, "text-anchor": "middle", class: "label" }, String(x + 1)));
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
  const sunk = new Set(data.sunk.flatMap((entry) => entry.cells));
  const hits = new Set(data.hits);
  const water = new Set(data.water);
  const shotAt = new Set(data.shots);
  const aim = h("span", { class: "aim" });
  const cells = [];
  for (let cell = 0; cell < width * height; cell++) {
    const x = ((cell % width) + 1.5) * CELL;
    const y = (Math.floor(cell / width) + 1.5) * CELL;
    const kind = sunk.has(cell) ? "sunk" : hits.has(cell) ? "hit" : shotAt.has(cell) ? "miss" : water.has(cell) ? "water"
      : known.has(cell) ? "ship" : later.has(cell) ? "ship later" : "unknown";
    cells.push(cellRect(cell, width, { class: `cell ${kind}`, "data-cell": name(cell, width) }));
    if (kind === "miss" || kind === "water") cells.push(s("circle", { cx: x, cy: y, r: kind === "miss" ? 4 : 2, class: "mark" }));
    if (kind === "hit" || kind === "sunk") cells.push(s("path", { d: `M${x - 8},${y - 8}L${x + 8},${y + 8}M${x + 8},${y - 8}L${x - 8},${y + 8}`, class: "mark" }));
    const move = targets.get(cell);
    if (move) {
      cells.push(cellRect(cell, width, {
        class: "target", "data-move": moveKey(move), "data-cell": name(cell, width),
        onclick: () => ctx.send(move), onmouseenter: () => { aim.textContent = `aim: ${name(cell, width)}`; },
      }));
    }
  }
  const whose = owners.map((seat) => (seat === me ? "you" : `seat ${seat}`)).join(", ");
  const title = owners.length > 1 ? `Shared sea (${whose})` : me === null ? `Sea of seat ${owners[0]}`
    : owners.includes(me) ? "Your fleet" : `Enemy waters (seat ${owners[0]})`;
  const afloat = owners.map((seat) => h("ul", { class: "ships" }, owners.length > 1 ? h("li", {}, `seat ${seat}:`) : null,
    fleet.ships.map((ship, i) => h("li", { class: view.fleets[seat].sunk.includes(i) ? "gone" : "" }, `${ship.name} (${ship.length})`))));
  return h("div", { class: `sea-panel${targets.size ? " aiming" : ""}`, "data-seat": owners.join(" "), "data-sea": index },
    h("h3", {}, title, " ", aim), frame(width, height, cells), afloat);
}

function placement(ctx, fleet, [width, height]) {
  const memo = ctx.state.placement || (ctx.state.placement = { ships: [], vertical: false });
  const panel = h("div", { class: "sea-panel placing", "data-seat": ctx.view.seat });
  const occupied = () => new Map(memo.ships.flatMap((placed) => placed.cells.map((cell) => [cell, placed.index])));
  const nextShip = () => fleet.ships.findIndex((_, i) => !memo.ships.some((placed) => placed.index === i));
  function cellsAt(cell, length) {
    const x = cell % width;
    const y = Math.floor(cell / width);
    if (memo.vertical ? y + length > height : x + length > width) return null;
    return Array.from({ length }, (_, i) => (memo.vertical ? cell + i * width : cell + i));
  }
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
        class: `cell place ${taken.has(cell) ? "ship" : "unknown"}`, "data-place": name(cell, width), "data-index": cell,
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
      h("h3", {}, "Place your fleet: click a cell for the ship's top or left end; R turns it"),
      frame(width, height, cells, { onmouseleave: () => hover(-1) }),
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
