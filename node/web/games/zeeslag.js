// zeeslag: every seat's sea as a grid; aim at enemy waters with the cursor; place the fleet ship by
// ship with rotation (R), or at random; with three or more seats, pick a salvo's cells and fire
// them at once. Any number of seas. The space battle has its own board (space.js); variants other
// than VARIANTS use the generic view.
import { catalogue, fill, h, moveButton, moveKey } from "../dom.js";
import { seatName } from "../words.js";
import { aiming, cellRect, fleetLayers, frame, LETTERS, onRotate, salvoPanel, seaCells, shotTargets, shots, touching } from "./seas.js";
import * as space from "./space.js";

export const VARIANTS = ["duel", "shared", "space"];

export async function render(ctx) {
  if (ctx.view.variant === "space") return space.render(ctx);
  const fleets = await catalogue("zeeslag", "fleets");
  const view = ctx.view;
  const fleet = fleets.find((f) => f.id === view.fleet);
  const me = view.seat;
  const mine = me === null ? null : view.fleets[me].sea;
  const order = view.seas.map((_, i) => i);
  if (mine !== null) order.sort((a, b) => (b === mine) - (a === mine));
  const placing = ctx.decision === "hidden" && ctx.send && view.placing;
  if (!aiming(ctx)) delete ctx.state.salvo;
  else if (!ctx.state.salvo) ctx.state.salvo = [];
  onRotate(null);
  const answers = (ctx.legal || []).filter((move) => !("shoot" in move));
  return h("div", { class: "zeeslag" },
    h("p", { class: "field" }, `Fleet ${fleet.name}, ${view.variant}${view.water_ring ? ", water ring on" : ""}`),
    placing ? placement(ctx, fleet, windowOf(view.placing)) : null,
    h("div", { class: "seas" }, order.map((index) => (placing && index === mine && view.variant !== "shared"
      ? null : sea(ctx, index, fleet)))),
    answers.length ? h("div", { class: "moves" }, answers.map((move) => moveButton(ctx, move, (ctx.texts || [])[ctx.legal.indexOf(move)] || moveKey(move), { class: "move" }))) : null,
    aiming(ctx) ? salvoPanel(ctx) : null,
    shots(view, ctx.names, ctx.forced));
}

// Where a seat places its fleet, as the view's placing says (games.md, zeeslag): its board (in the
// shared sea its window, `first` the window's first sea column), the cells off the sea, the home
// cells a ship needs one of, and each cell's neighbours no other ship may take.
function windowOf(placing) {
  return { ...placing, off: new Set(placing.off), home: new Set(placing.home) };
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

function sea(ctx, index, fleet) {
  const view = ctx.view;
  const me = view.seat;
  const known = shipsIn(view, index);
  const later = shipsIn(ctx.final, index);
  const owners = view.fleets.map((f, seat) => (f.sea === index ? seat : null)).filter((seat) => seat !== null);
  const look = (cell) => (known.has(cell) ? "ship" : later.has(cell) ? "ship later" : null);
  const { cells, aimed, aiming: aims } = seaCells(ctx, index, { look, targets: shotTargets(ctx, index, owners) });
  const whose = owners.map((seat) => seatName(seat, me, ctx.names)).join(", ");
  const team = (view.teams || []).find((seats) => seats.includes(me)) || [];
  const title = owners.length > 1 ? `Shared sea (${whose})` : me === null ? `Sea of ${seatName(owners[0], me, ctx.names)}`
    : owners.includes(me) ? "Your fleet" : team.includes(owners[0]) ? `Waters of your partner ${seatName(owners[0], me, ctx.names)}` : `Waters of ${seatName(owners[0], me, ctx.names)}`;
  const afloat = owners.map((seat) => h("ul", { class: "ships" }, owners.length > 1 ? h("li", {}, `${seatName(seat, me, ctx.names)}:`) : null,
    fleet.ships.map((ship, i) => h("li", { class: view.fleets[seat].sunk.includes(i) ? "gone" : "" }, `${ship.name} (${ship.length})`))));
  return h("div", { class: `sea-panel${owners.length > 1 ? " shared" : ""}${aims ? " aiming" : ""}`, "data-seat": owners.join(" "), "data-sea": index },
    h("h3", {}, title), aimed, frame(view.seas[index].width, view.seas[index].height, cells), afloat);
}

function placement(ctx, fleet, { width, height, first, off, home, neighbours }) {
  const memo = ctx.state.placement || (ctx.state.placement = { ships: [], vertical: false });
  const panel = h("div", { class: "sea-panel placing", "data-seat": ctx.view.seat });
  const occupied = () => new Map(memo.ships.flatMap((placed) => placed.cells.map((cell) => [cell, placed.index])));
  const nextShip = () => fleet.ships.findIndex((_, i) => !memo.ships.some((placed) => placed.index === i));
  function cellsAt(cell, length) {
    const x = cell % width;
    const y = Math.floor(cell / width);
    if (memo.vertical ? y + length > height : x + length > width) return null;
    const cells = Array.from({ length }, (_, i) => (memo.vertical ? cell + i * width : cell + i));
    return cells.some((c) => off.has(c)) || !cells.some((c) => home.has(c)) ? null : cells;
  }
  const label = (cell) => `${LETTERS[Math.floor(cell / width)]}${first + (cell % width) + 1}`;
  const where = (cell) => (off.has(cell) ? " off" : home.has(cell) ? "" : " border");
  const fits = (cells) => touching(cells, memo.ships, neighbours) === undefined;
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
    const done = next < 0;
    const confirm = h("button", { id: "confirm-fleet", disabled: !done, onclick: () => ctx.send(fleetLayers(memo.ships, width * height)) }, "Confirm fleet");
    fill(panel,
      h("h3", {}, "Place your fleet: click a cell for the ship's top or left end; R turns it",
        first ? " (shaded: the neighbours' border columns; each ship needs a cell in your own block)" : ""),
      frame(width, height, cells, { onmouseleave: () => hover(-1) }, first),
      h("ul", { class: "ships" }, fleet.ships.map((ship, i) => h("li", {
        class: memo.ships.some((placed) => placed.index === i) ? "placed" : i === next ? "next" : "",
      }, `${ship.name} (${ship.length})`))),
      h("div", { class: "moves" },
        h("button", { id: "rotate", onclick: () => turn() }, memo.vertical ? "Rotate: vertical" : "Rotate: horizontal"),
        h("button", { id: "clear-fleet", onclick: () => { memo.ships = []; paint(); } }, "Clear"),
        moveButton(ctx, { random: true }, "Random fleet", { id: "random-fleet" }), confirm));
  }
  function turn() {
    memo.vertical = !memo.vertical;
    paint();
  }
  onRotate(turn);
  paint();
  return panel;
}
