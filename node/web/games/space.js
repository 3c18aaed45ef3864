// zeeslag's space battle (variant space): buy a fleet from the catalogue within the budget, place
// its shaped ships turning them (R), land a reserve's fighters, shoot (two seats: the listed moves;
// three or more: a salvo) and use the abilities laser, scan, nuke and reserve. Each seat's
// star field shows its ships by kind, hits, sunk ships, scanned ship cells and fighters.
import { catalogue, fill, h, moveButton, moveKey, s } from "../dom.js";
import { counted, seatName } from "../words.js";
import {
  aiming, CELL, cellName, cellRect, centre, dueNow, fleetLayers, frame, onRotate, salvoPanel, seaCells, shotTargets, shots, touching,
} from "./seas.js";

const ABILITIES = ["laser", "scan", "nuke", "reserve"];
const SHORT = { scout: "Sc", lancer: "La", spirit: "Sp", cruiser: "Cr", frigate: "Fr", dreadnought: "Dn", station: "St", fighter: "F" };
const HOW = {
  laser: "click a cell of row A (the beam runs down) or row J (up) of an enemy field: it hits the column's first undamaged ship cell",
  scan: "click the centre of a 3×3 of an enemy field: its ship cells are shown, undamaged",
  nuke: "click a target: if it hits, every cell within 2 (the diamond) is hit too",
};

export async function render(ctx) {
  const ships = await catalogue("zeeslag", "starships");
  ctx.view = spoken(ctx.view, ships);
  const view = ctx.view;
  const me = view.seat;
  onRotate(null);
  const placing = ctx.send && ctx.decision === "hidden" && view.placing ? view.placing : null;
  if (!aiming(ctx)) {
    delete ctx.state.salvo;
    delete ctx.state.ability;
  } else if (!ctx.state.salvo) ctx.state.salvo = [];
  if (!ctx.send) delete ctx.state.mode;
  const order = view.seas.map((_, i) => i);
  if (me !== null) order.sort((a, b) => (b === me) - (a === me));
  const answers = (ctx.legal || []).filter((move) => !("shoot" in move) && !ABILITIES.some((name) => name in move));
  return h("div", { class: "zeeslag space" },
    h("p", { class: "field" }, `Space battle: fleets of at most ${view.money}, star fields of ${view.seas[0].width}×${view.seas[0].height}${view.water_ring ? ", water ring on" : ""}`),
    placing ? (placing.fighters ? landing(ctx, placing) : builder(ctx)) : null,
    placing ? null : abilityPanel(ctx),
    h("div", { class: "seas" }, order.map((index) => (placing && index === me ? null : field(ctx, index)))),
    answers.length ? h("div", { class: "moves" }, answers.map((move) => moveButton(ctx, move, (ctx.texts || [])[ctx.legal.indexOf(move)] || moveKey(move), { class: "move" }))) : null,
    aiming(ctx) ? salvoPanel(ctx) : null,
    legend(),
    shots(view, ctx.names, ctx.forced));
}

const kindOf = (view, id) => view.catalogue.find((kind) => kind.kind === id);

// The view with its catalogue's names (and the fighter's, as ``fighter``) in the page's language,
// from the game's data file ``ships`` as the page reads it: one language at a time.
function spoken(view, ships) {
  const names = new Map(ships.kinds.map((kind) => [kind.id, kind.name]));
  return { ...view, fighter: ships.fighter.name, catalogue: view.catalogue.map((kind) => ({ ...kind, name: names.get(kind.kind), name_en: names.get(kind.kind) })) };
}

// Ship id ``id`` (slot id - 1) by its kind and copy: "Lancer 2".
function shipName(view, index) {
  const [id, copy] = view.slots[index];
  const kind = kindOf(view, id);
  return `${kind.name_en}${kind.max > 1 ? ` ${copy}` : ""}`;
}

// The ships and fighters known in seat ``seat``'s field: cell -> kind id ("fighter" for a fighter).
function known(view, seat) {
  const cells = new Map();
  if (!view || !view.fleets[seat]) return cells;
  const fleet = view.fleets[seat];
  for (const [cell, id] of fleet.layout || []) cells.set(cell, view.slots[id - 1][0]);
  for (const [cell] of fleet.fighters || []) cells.set(cell, "fighter");
  return cells;
}

// The kind's short name at the first cell of each group of cells (a ship: no two touch).
function labels(width, kinds) {
  const seen = new Set();
  const marks = new Map();
  for (const [cell, kind] of [...kinds].sort(([a], [b]) => a - b)) {
    if (seen.has(cell)) continue;
    const group = [cell];
    for (let i = 0; i < group.length; i++) {
      for (const next of [group[i] + 1, group[i] - 1, group[i] + width, group[i] - width]) {
        if (kinds.get(next) === kind && !seen.has(next) && Math.abs((next % width) - (group[i] % width)) <= 1 && !group.includes(next)) group.push(next);
      }
    }
    group.forEach((c) => seen.add(c));
    marks.set(cell, kind);
  }
  return marks;
}

function label(cell, width, kind, full) {
  const [x, y] = centre(cell, width);
  return s("text", { x: x - CELL * 0.42, y: y - CELL * 0.12, class: "kind" }, SHORT[kind] || "?", s("title", {}, full));
}

// One star field: its cells, who it is, the fleet's count, its sunk ships and its abilities' state.
function field(ctx, index) {
  const view = ctx.view;
  const me = view.seat;
  const data = view.seas[index];
  const seat = view.fleets.findIndex((fleet) => fleet.sea === index);
  const fleet = view.fleets[seat];
  const ships = known(view, seat);
  const later = known(ctx.final, seat);
  const seen = new Set(data.seen || []);
  const sunkKinds = new Map(data.sunk.flatMap((entry) => entry.cells.map((cell) => [cell, entry.kind])));
  const look = (cell) => (ships.has(cell) ? (ships.get(cell) === "fighter" ? "fighter" : "ship") : seen.has(cell) ? "seen"
    : later.has(cell) ? `${later.get(cell) === "fighter" ? "fighter" : "ship"} later` : null);
  const named = labels(data.width, new Map([...later, ...ships, ...sunkKinds]));
  const extra = (cell, kind) => {
    const marks = [];
    if (kind === "seen") {
      const [x, y] = centre(cell, data.width);
      marks.push(s("circle", { cx: x, cy: y, r: 6, class: "seen-mark" }));
    }
    if (named.has(cell)) marks.push(label(cell, data.width, named.get(cell), kindOf(view, named.get(cell))?.name_en || view.fighter));
    return marks;
  };
  const enemy = me !== null && seat !== me && !view.fleets[me].out && view.living.includes(seat);
  const { cells, aimed, aiming: aims } = seaCells(ctx, index, { look, extra, targets: enemy ? targets(ctx, index, seat) : new Map(), salvo: !ctx.state.mode });
  const title = seat === me ? "Your star field" : `Star field of ${seatName(seat, me, ctx.names)}`;
  const count = fleet.ships === null ? "fleet size not declared yet" : `${fleet.afloat} of ${counted("ship", fleet.ships)} afloat${fleet.squadrons ? ` (${counted("squadron", fleet.squadrons)} landed)` : ""}`;
  const own = (fleet.layout || []).length ? [...new Set(fleet.layout.map(([, id]) => id - 1))] : [];
  return h("div", { class: `sea-panel star-field${aims ? " aiming" : ""}`, "data-seat": seat, "data-sea": index },
    h("h3", {}, title), h("p", { class: "count" }, count), aimed, frame(data.width, data.height, cells),
    own.length ? h("ul", { class: "ships" }, own.map((i) => h("li", { class: fleet.sunk.includes(i) ? "gone" : "" }, shipName(view, i)))) : null,
    data.sunk.length ? h("p", { class: "sunk-list" }, "Sunk: ", data.sunk.map((entry) => (entry.kind === "fighter" ? view.fighter : kindOf(view, entry.kind).name_en)).join(", ")) : null,
    abilityStates(view, seat));
}

// Where a click on enemy ``seat``'s field goes: the listed shots, or the ability picked (two
// seats: its listed moves; a salvo: the ability aimed at that enemy, replacing shots there).
function targets(ctx, index, seat) {
  const mode = ctx.state.mode;
  if (!ctx.send) return new Map();
  if (!mode) return shotTargets(ctx, index, [seat]);
  const view = ctx.view;
  if (!aiming(ctx)) {
    return new Map((ctx.legal || []).filter((move) => mode in move).map((move) => [move[mode], { key: moveKey(move), label: mode, act: () => send(ctx, move) }]));
  }
  if (!view.due.some(([enemy]) => enemy === seat)) return new Map();
  const data = view.seas[index];
  // a nuke is a shot: it goes at the salvo's targets in this enemy's field
  const cells = mode === "nuke" ? view.targets.filter(([sea, , enemies]) => sea === index && enemies.includes(seat)).map(([, cell]) => cell) : view.aims[mode];
  return new Map(cells.map((cell) => {
    const move = { [mode]: cell, at: seat };
    return [cell, { key: moveKey(move), label: mode, act: () => choose(ctx, move, `${mode} ${cellName(cell, data.width)} at ${seatName(seat, ctx.view.seat, ctx.names)}`) }];
  }));
}

function send(ctx, move) {
  delete ctx.state.mode;
  ctx.send(move);
}

// An ability for the salvo: the picks it replaces (those at enemies no longer owed a shot beside it) go.
function choose(ctx, move, text) {
  ctx.state.ability = { move, at: move.at, text };
  const owed = new Set(dueNow(ctx).map(([enemy]) => enemy));
  ctx.state.salvo = ctx.state.salvo.filter(([enemy]) => owed.has(enemy));
  delete ctx.state.mode;
  ctx.repaint();
}

function abilityStates(view, seat) {
  const fleet = view.fleets[seat];
  if (!fleet.abilities || fleet.out) return null;
  return h("ul", { class: "abilities" }, fleet.abilities.map((entry) => {
    const kind = view.catalogue.find((k) => k.ability === entry.ability);
    const wait = entry.next - fleet.round;
    const state = entry.afloat === false ? `no ${kind.name_en} afloat` : entry.ready ? "ready" : `ready in ${counted("round", wait)}`;
    return h("li", { class: `ability${entry.afloat !== false && entry.ready ? " ready" : ""}`, "data-ability": entry.ability },
      `${entry.ability} (${kind.name_en}, every ${kind.cycle}): ${state}${entry.afloat === null && entry.ready ? " if one is afloat" : ""}`);
  }));
}

// The abilities this seat may use now: buttons for those listed (two seats) or ready (a salvo).
function abilityPanel(ctx) {
  const view = ctx.view;
  const me = view.seat;
  if (!ctx.send || me === null) return null;
  const salvo = aiming(ctx);
  const listed = (name) => (ctx.legal || []).filter((move) => name in move);
  const ready = ABILITIES.filter((name) => (salvo ? view.fleets[me].abilities.some((e) => e.ability === name && e.afloat && e.ready) : listed(name).length));
  if (!ready.length) return null;
  const chosen = salvo && ctx.state.ability;
  if (chosen) {
    return h("div", { class: "ability-panel", id: "abilities" }, h("p", {}, `In this salvo: ${chosen.text} `,
      h("button", { id: "cancel-ability", onclick: () => { delete ctx.state.ability; ctx.repaint(); } }, "Cancel")));
  }
  const mode = ctx.state.mode;
  const pick = (name) => () => {
    ctx.state.mode = mode === name ? undefined : name;
    ctx.repaint();
  };
  const buttons = ready.flatMap((name) => {
    if (name !== "reserve") return [h("button", { id: `ability-${name}`, class: `ability${mode === name ? " chosen" : ""}`, onclick: pick(name) }, mode === name ? `${name}: pick a cell (click to cancel)` : name)];
    if (!salvo) return [moveButton(ctx, listed(name)[0], `reserve: land ${view.squadron} fighters`, { id: "ability-reserve", class: "ability" })];
    if (view.salvo === "focus") return [h("button", { id: "ability-reserve", class: "ability", onclick: () => choose(ctx, { reserve: true }, "reserve instead of the salvo") }, "reserve instead of the salvo")];
    return view.due.map(([enemy]) => h("button", { class: "ability", id: `ability-reserve-${enemy}`, onclick: () => choose(ctx, { reserve: true, at: enemy }, `reserve instead of the shots at ${seatName(enemy, ctx.view.seat, ctx.names)}`) },
      `reserve instead of the shots at ${seatName(enemy, ctx.view.seat, ctx.names)}`));
  });
  return h("div", { class: "ability-panel", id: "abilities" },
    h("p", {}, salvo ? "Abilities ready (one per salvo, in place of shots):" : "Abilities ready (one instead of a shot; it ends your turn):"),
    h("div", { class: "moves" }, buttons),
    mode ? h("p", { class: "hint", id: "ability-hint" }, HOW[mode]) : null);
}

// Buying the fleet, then placing it ship by ship.
function builder(ctx) {
  const view = ctx.view;
  const memo = ctx.state.fleet || (ctx.state.fleet = { counts: {}, placing: false, ships: [], turn: 0, hover: -1, note: "" });
  const panel = h("div", { class: "sea-panel placing purchase", "data-seat": view.seat });
  const paint = () => fill(panel, memo.placing ? placement(ctx, memo, paint) : purchase(ctx, memo, paint));
  paint();
  return panel;
}

function cost(view, counts) {
  return view.catalogue.reduce((sum, kind) => sum + kind.price * (counts[kind.kind] || 0), 0);
}

function shapePicture(turn) {
  const w = Math.max(...turn.map(([x]) => x)) + 1;
  const ht = Math.max(...turn.map(([, y]) => y)) + 1;
  const unit = 9;
  return s("svg", { class: "shape", width: w * unit, height: ht * unit, viewBox: `0 0 ${w * unit} ${ht * unit}` },
    turn.map(([x, y]) => s("rect", { x: x * unit + 0.5, y: y * unit + 0.5, width: unit - 1, height: unit - 1 })));
}

function purchase(ctx, memo, paint) {
  const view = ctx.view;
  const counts = memo.counts;
  const spent = cost(view, counts);
  // One more ship is bought once the node's check of the purchase says the game's rules allow it;
  // clicks are taken in turn, so each is checked against the purchase the one before left.
  const change = (kind, step) => () => {
    memo.queue = (memo.queue || Promise.resolve()).then(async () => {
      const next = Math.max(0, (counts[kind.kind] || 0) + step);
      const wrong = step > 0 && ctx.judge ? await ctx.judge({ buy: { ...counts, [kind.kind]: next } }) : null;
      memo.note = wrong ? `Refused: ${wrong}` : "";
      if (!wrong) counts[kind.kind] = next;
      paint();
    });
  };
  const bought = Object.values(counts).reduce((a, b) => a + b, 0);
  // money left unspent is said first, and the fleet goes on to placing at the second press
  const place = () => {
    const left = view.money - spent;
    if (left > 0 && memo.unspent !== spent) {
      memo.unspent = spent;
      memo.note = `${left} of ${view.money} left unspent: press Place these ships again to go on with this fleet, or buy more`;
    } else {
      Object.assign(memo, { placing: true, note: "", ships: [], unspent: null });
    }
    paint();
  };
  const rows = view.catalogue.map((kind) => h("tr", { "data-kind": kind.kind },
    h("td", {}, shapePicture(kind.turns[0])),
    h("td", {}, kind.name_en, kind.capital ? h("small", {}, " capital") : null),
    h("td", {}, String(kind.cells)), h("td", {}, String(kind.price)), h("td", {}, kind.ability ? `${kind.ability} (${kind.cycle})` : "—"),
    h("td", { class: "count" }, `${counts[kind.kind] || 0} of ${kind.max}`),
    h("td", {}, h("button", { class: "sell", "data-kind": kind.kind, disabled: !counts[kind.kind], onclick: change(kind, -1) }, "−"),
      h("button", { class: "buy", "data-kind": kind.kind, onclick: change(kind, 1) }, "+"))));
  return [
    h("h3", {}, `Buy your fleet: at most ${counted("capital", view.capitals)}, each kind up to its count`),
    h("table", { class: "catalogue" }, h("tr", {}, ["shape", "ship", "cells", "price", "ability (cycle)", "bought", ""].map((t) => h("th", {}, t))), rows),
    h("p", { id: "budget", class: "budget" }, `${counted("ship", bought)} for ${spent}; ${view.money - spent} of ${view.money} left`),
    h("p", { id: "fleet-message", class: "notice" }, memo.note || "\u00a0"),
    h("div", { class: "moves" },
      h("button", { id: "to-placement", disabled: !bought, onclick: place }, "Place these ships"),
      moveButton(ctx, { random: true }, "Random fleet", { id: "random-fleet" })),
  ];
}

// The bought ships as ids - 1 (each kind's first slots), the largest first: the order to place them.
function boughtShips(view, counts) {
  const slots = view.slots.map(([kind, copy], index) => ({ kind, copy, index })).filter(({ kind, copy }) => copy <= (counts[kind] || 0));
  return slots.sort((a, b) => kindOf(view, b.kind).cells - kindOf(view, a.kind).cells || a.index - b.index).map(({ index }) => index);
}

function placement(ctx, memo, paint) {
  const view = ctx.view;
  const { width, height } = view.seas[view.seat];
  const order = boughtShips(view, memo.counts);
  const next = order.find((index) => !memo.ships.some((ship) => ship.index === index));
  const kind = next === undefined ? null : kindOf(view, view.slots[next][0]);
  const taken = new Map(memo.ships.flatMap((ship) => ship.cells.map((cell) => [cell, ship.index])));
  // The ship's cells in its turn with its first cell (in reading order) at ``cell``, or null off the field.
  const cellsAt = (cell) => {
    const turn = kind.turns[memo.turn % kind.turns.length];
    const [ax, ay] = turn[0];
    const points = turn.map(([dx, dy]) => [(cell % width) + dx - ax, Math.floor(cell / width) + dy - ay]);
    return points.every(([x, y]) => x >= 0 && y >= 0 && x < width && y < height) ? points.map(([x, y]) => y * width + x).sort((a, b) => a - b) : null;
  };
  const problem = (cells) => {
    if (!cells) return `the ${kind.name_en} would leave the field`;
    const other = touching(cells, memo.ships, view.placing.neighbours);
    if (other === undefined) return null;
    const overlap = cells.some((cell) => taken.get(cell) === other.index);
    return `the ${kind.name_en} would ${overlap ? "lie on" : "touch"} the ${shipName(view, other.index)} (ships may not touch, not even diagonally)`;
  };
  const rects = [];
  const hover = (cell) => {
    memo.hover = cell;
    const preview = cell >= 0 && kind ? cellsAt(cell) : null;
    const shown = new Set(preview || []);
    const bad = preview ? problem(preview) !== null : false;
    for (const rect of rects) {
      const here = Number(rect.dataset.index);
      rect.classList.toggle("preview", shown.has(here));
      rect.classList.toggle("bad", shown.has(here) && bad);
    }
  };
  const click = (cell) => {
    if (taken.has(cell)) {
      memo.ships = memo.ships.filter((ship) => ship.index !== taken.get(cell));
      memo.note = "";
    } else if (kind) {
      const cells = cellsAt(cell);
      const wrong = problem(cells);
      memo.note = wrong ? `Refused: ${wrong}` : "";
      if (!wrong) {
        memo.ships.push({ index: next, cells });
        memo.turn = 0;  // the next ship starts as the catalogue draws it
      }
    }
    paint();
  };
  for (let cell = 0; cell < width * height; cell++) {
    rects.push(cellRect(cell, width, {
      class: `cell place ${taken.has(cell) ? "ship" : "unknown"}`, "data-place": cellName(cell, width), "data-index": cell,
      onmouseenter: () => hover(cell), onclick: () => click(cell),
    }));
  }
  const kinds = new Map([...taken].map(([cell, index]) => [cell, view.slots[index][0]]));
  const names = [...labels(width, kinds)].map(([cell, id]) => label(cell, width, id, kindOf(view, id).name_en));
  const turn = () => {
    memo.turn += 1;
    paint();
  };
  onRotate(kind ? turn : null);
  const picture = frame(width, height, [rects, names], { onmouseleave: () => hover(-1) });
  if (memo.hover >= 0) queueMicrotask(() => hover(memo.hover));
  const turns = kind ? kind.turns.length : 1;
  return [
    h("h3", {}, kind ? `Place your ${shipName(view, next)}: the shape follows the pointer; click to place it; R or ↻ turns it` : "Every ship is placed: confirm your fleet"),
    kind ? h("p", { class: "hint" }, "Next: ", shapePicture(kind.turns[memo.turn % turns]), ` turn ${(memo.turn % turns) + 1} of ${turns}`) : null,
    picture,
    h("p", { id: "fleet-message", class: "notice" }, memo.note || "\u00a0"),
    h("ul", { class: "ships" }, order.map((index) => h("li", {
      class: memo.ships.some((ship) => ship.index === index) ? "placed" : index === next ? "next" : "", "data-ship": index,
    }, `${shipName(view, index)} (${kindOf(view, view.slots[index][0]).cells})`))),
    h("div", { class: "moves" },
      h("button", { id: "rotate", disabled: !kind || turns < 2, onclick: turn }, `↻ Turn (R): ${(memo.turn % turns) + 1} of ${turns}`),
      h("button", { id: "undo-ship", disabled: !memo.ships.length, onclick: () => { memo.ships.pop(); memo.note = ""; paint(); } }, "Undo"),
      h("button", { id: "back-to-purchase", onclick: () => { memo.placing = false; memo.note = ""; paint(); } }, "Back to buying"),
      moveButton(ctx, { random: true }, "Random fleet", { id: "random-fleet" }),
      h("button", { id: "confirm-fleet", disabled: next !== undefined, onclick: () => ctx.send(fleetLayers(memo.ships, width * height)) }, "Confirm fleet")),
  ];
}

// A reserve's landing: three fighters on cells the game lists as free, no two touching.
function landing(ctx, placing) {
  const view = ctx.view;
  const me = view.seat;
  const { width, height } = view.seas[me];
  const layer = placing.layers[0];
  const memo = ctx.state.landing && ctx.state.landing.layer === layer ? ctx.state.landing : (ctx.state.landing = { layer, cells: [], note: "" });
  const panel = h("div", { class: "sea-panel placing landing", "data-seat": me });
  const free = new Set(placing.free || []);
  const ships = known(view, me);
  const sea = view.seas[me];
  const shot = new Set([...sea.shots, ...sea.hits, ...sea.water]);
  const why = (cell) => ships.has(cell) ? "holds a ship" : shot.has(cell) ? "was shot at"
    : "is next to a ship or aimed at this round";
  const paint = () => {
    const rects = [];
    for (let cell = 0; cell < width * height; cell++) {
      const chosen = memo.cells.includes(cell);
      const kind = chosen ? "fighter" : ships.has(cell) ? (ships.get(cell) === "fighter" ? "fighter" : "ship")
        : free.has(cell) ? "free" : shot.has(cell) ? "closed shot" : "closed";
      rects.push(cellRect(cell, width, {
        class: `cell place ${kind}`, "data-land": cellName(cell, width),
        onclick: () => {
          if (chosen) memo.cells = memo.cells.filter((c) => c !== cell);
          else if (!free.has(cell)) memo.note = `Refused: ${cellName(cell, width)} ${why(cell)}`;
          else if (touching([cell], memo.cells.map((c) => ({ index: c, cells: [c] })), placing.neighbours) !== undefined) memo.note = `Refused: fighters may not touch each other`;
          else if (memo.cells.length >= placing.fighters) memo.note = `Refused: a squadron is ${placing.fighters} fighters`;
          else memo.cells.push(cell);
          if (chosen || memo.cells.includes(cell)) memo.note = "";
          paint();
        },
      }));
    }
    const values = new Array(width * height).fill(0);
    memo.cells.forEach((cell, i) => { values[cell] = i + 1; });
    fill(panel,
      h("h3", {}, `Land your reserve: click ${placing.fighters} free cells (light), no two touching`),
      frame(width, height, rects),
      h("p", { id: "landing-message", class: "notice" }, memo.note || "\u00a0"),
      h("div", { class: "moves" },
        h("button", { id: "confirm-landing", disabled: memo.cells.length !== placing.fighters, onclick: () => ctx.send({ [layer]: values }) },
          `Land ${memo.cells.length} of ${placing.fighters} fighters`),
        moveButton(ctx, { random: true }, "Random landing", { id: "random-landing" })));
  };
  paint();
  return panel;
}

function legend() {
  const item = (kind, text, mark) => h("span", { class: "legend-item" },
    s("svg", { class: "sea swatch", viewBox: `${CELL} ${CELL} ${CELL} ${CELL}` }, cellRect(0, 1, { class: `cell ${kind}` }), mark), text);
  const [x, y] = centre(0, 1);
  const cross = s("path", { d: `M${x - 8},${y - 8}L${x + 8},${y + 8}M${x + 8},${y - 8}L${x - 8},${y + 8}`, class: "mark" });
  return h("p", { class: "legend" },
    item("ship", "ship"), item("fighter", "fighter"), item("seen", "scanned ship", s("circle", { cx: x, cy: y, r: 6, class: "seen-mark" })),
    item("hit", "hit", cross), item("sunk", "sunk (Sc scout, La lancer, Sp spirit, Cr cruiser, Fr frigate, Dn dreadnought, St station, F fighter)", cross.cloneNode()),
    item("miss", "miss", s("circle", { cx: x, cy: y, r: 4, class: "mark" })), item("water", "water shown", s("circle", { cx: x, cy: y, r: 2, class: "mark" })),
    item("unknown", "unknown"));
}
