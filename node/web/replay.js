// The replay viewer: a transcript (uploaded, or one of this node's tables) replayed by the node's
// verifier (POST /replay), stepped through forwards and back as a spectator, as one seat, or with
// every hand and board; the verdict, and each violation at the step where it happened.
import { board } from "./boards.js";
import { fill, h, short } from "./dom.js";
import { tree } from "./generic.js";
import { counted, seatName, tableId, violationText } from "./words.js";

export function replayPage(app) {
  const viewer = h("div", { id: "viewer" });
  const message = h("p", { class: "message", id: "replay-message" });
  const tables = h("ul", { class: "tables", id: "replay-tables" });
  let keys = null;

  async function load(bytes, at = null) {
    message.textContent = "Replaying the transcript with the verifier…";
    try {
      const response = await fetch("/replay", {
        method: "POST", body: bytes,
        headers: { "content-type": "application/octet-stream", ...(app.token ? { authorization: `Bearer ${app.token}` } : {}) },
      });
      const value = await response.json();
      if (!response.ok) throw new Error(value.error);
      message.textContent = "";
      if (keys) document.removeEventListener("keydown", keys);
      keys = show(viewer, value, at);
    } catch (error) {
      message.textContent = error.message;
    }
  }
  async function fromNode(table) {
    try {
      const { transcript } = await app.api.request("transcript", { table });
      await load(Uint8Array.from(atob(transcript), (c) => c.charCodeAt(0)));
    } catch (error) {
      message.textContent = error.message;
    }
  }
  function list() {
    const started = [...app.tables.values()].filter((event) => event.table);
    fill(tables, ...started.map((event) => h("li", { class: "table" },
      h("strong", {}, `${event.game} ${event.variant}`), ` ${event.phase} `, h("small", {}, tableId(event.table)), " ",
      h("button", { class: "replay-table", "data-table": event.table, onclick: () => fromNode(event.table) }, "Replay"))));
    if (!started.length) fill(tables, h("li", { class: "hint" }, "This node has no started tables yet."));
  }
  const upload = h("input", {
    type: "file", id: "replay-file", accept: ".ftt,application/octet-stream",
    onchange: async (event) => event.target.files[0] && load(await event.target.files[0].arrayBuffer()),
  });
  list();
  const element = h("div", { class: "replay-page" },
    h("section", { class: "panel" }, h("h2", {}, "Replay viewer"),
      h("label", {}, "Open a transcript file (.ftt): ", upload), h("h3", {}, "or one of this node's tables"), tables, message),
    viewer);
  if (app.pendingReplay) {
    load(app.pendingReplay, app.pendingStep ?? null);  // a table page's "replay from here": at that move
    app.pendingReplay = null;
    app.pendingStep = null;
  }
  return { element, update: list, leave: () => keys && document.removeEventListener("keydown", keys) };
}

// The verifier's verdict in the words of fairtable verify and export.
export function verdictText(record) {
  const count = record.violations.length;
  if (record.status === "valid") return "Verified: every message, shuffle, deal, move and hidden answer checks out.";
  if (record.status === "violation") return `NOT VERIFIED: ${counted("violation", count)} found.`;
  if (record.status === "incomplete") {
    const names = record.seats.map((seat) => seat.name);
    const owed = record.owed.map((o) => `${seatName(o.seat, null, names)} was due to send '${o.kind}' (envelope ${o.index})`).join("; ");
    return `NOT VERIFIED: INCOMPLETE: the transcript ends while ${owed}.`;
  }
  return `NOT VERIFIED: DAMAGED after the first ${record.envelopes} envelopes, which were verified: ${record.damage}.`;
}

// `at`: the envelope index of the step to open at (null: the first).
function show(viewer, record, at) {
  const steps = record.steps;
  const last = steps.length - 1;
  let position = Math.max(0, steps.findIndex((step) => step.index === at));
  let perspective = "spectator";
  const names = record.seats.map((seat) => seat.name);
  const verdict = h("p", { id: "replay-verdict", class: record.valid ? "valid" : "invalid" }, verdictText(record));
  const choose = h("select", { id: "replay-perspective", onchange: (event) => { perspective = event.target.value; paint(); } },
    h("option", { value: "spectator" }, "as a spectator"),
    record.seats.map((seat) => h("option", { value: `seat-${seat.seat}` }, `as ${names[seat.seat]}`)),
    h("option", { value: "all" }, "every hand and board"));
  const slider = h("input", { type: "range", id: "replay-slider", min: 0, max: last, value: 0, oninput: (event) => go(Number(event.target.value)) });
  const where = h("span", { id: "replay-position" });
  const text = h("p", { id: "replay-text", class: "step-text" });
  const found = h("div", { id: "replay-violation" });
  const picture = h("div", { class: "replay-board", id: "replay-board" });
  const items = steps.map((step, index) => h("li", { class: step.violations.length ? "flagged" : "", "data-step": index, onclick: () => go(index) },
    step.number !== null ? `${step.number}. ${step.text}` : step.text));
  const go = (index) => { position = Math.max(0, Math.min(last, index)); paint(); };
  const button = (id, label, target) => h("button", { id, onclick: () => go(target()) }, label);
  let sequence = 0;

  async function paint() {
    const mine = ++sequence;
    const step = steps[position];
    slider.value = position;
    where.textContent = `step ${position + 1} of ${steps.length} (envelope ${step.index < 0 ? "none yet" : step.index})`;
    text.textContent = step.number !== null ? `${step.number}. ${step.text}` : step.text;
    fill(found, ...step.violations.map((i) => h("p", { class: "violation" }, `VIOLATION at ${violationText(record.violations[i], names)}`)));
    items.forEach((item, index) => item.classList.toggle("current", index === position));
    items[position].scrollIntoView({ block: "nearest" });
    const renderer = await board(record.game, record.variant);
    const seats = perspective === "all" ? record.seats.map((seat) => seat.seat) : perspective === "spectator" ? [null] : [Number(perspective.slice(5))];
    const panels = [];
    for (const seat of seats) {
      const view = seat === null ? step.spectator : step.views[seat];
      const final = seat === null ? steps[last].spectator : steps[last].views[seat];
      const ctx = { game: record.game, variant: record.variant, view, final, legal: [], texts: [], decision: null, yourTurn: false, send: null, state: {}, names, marks: new Map() };
      let shown = null;
      if (renderer) {
        try {
          shown = await renderer.render(ctx);
        } catch (error) {
          console.error(error);
        }
      }
      panels.push(h("section", { class: "panel board" }, h("h3", {}, seat === null ? "Spectator" : names[seat]), shown || tree(view)));
    }
    if (mine === sequence) fill(picture, ...panels);
  }

  fill(viewer,
    h("section", { class: "panel status" },
      h("h1", {}, `${record.game} · ${record.variant}`, h("small", { class: "table-id" }, ` table ${tableId(record.table)}`)),
      h("p", { class: "seats" }, record.seats.map((seat) => h("span", { class: "seat" }, `${names[seat.seat]} ${short(seat.fingerprint)}`))),
      verdict, h("p", { class: "result", id: "replay-result" }, `Result: ${record.result_text}`),
      record.seeds_revealed ? null : h("p", { class: "hint" }, "Not every seed is in this transcript: hidden cards and boards stay hidden."),
      record.violations.length ? h("ul", { class: "violations" }, record.violations.map((violation) => h("li", {},
        h("button", { class: "jump", onclick: () => go(steps.findIndex((step) => step.violations.includes(record.violations.indexOf(violation)))) },
          violationText(violation, names))))) : null),
    h("section", { class: "panel controls" },
      button("replay-first", "first", () => 0), button("replay-prev", "◀ back", () => position - 1), slider,
      button("replay-next", "forward ▶", () => position + 1), button("replay-last", "last", () => last), choose, where, text, found),
    picture,
    h("section", { class: "panel" }, h("h3", {}, "Moves"), h("ol", { class: "steps", id: "replay-steps" }, items)));
  paint();
  const keys = (event) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    if (event.key === "ArrowRight") go(position + 1);
    if (event.key === "ArrowLeft") go(position - 1);
  };
  document.addEventListener("keydown", keys);
  return keys;
}
