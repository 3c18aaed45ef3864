// A table's history (the node's `history` op, client-api.md): every move so far in the export's
// notation, numbered, the moves no hand of the player made marked, scrollable; on a finished table
// each move opens the replay viewer there. And every seat's clock at once (the event's `clocks`).
import { fill, h } from "./dom.js";
import { seatName } from "./words.js";

const MARKS = { default: "played for you: time ran out", forced: "forced: no other move" };

// An entry as the export writes it: "N. TEXT", or the text alone for what is no move.
export function entryLine(entry) {
  return entry.n !== null ? `${entry.n}. ${entry.text}` : entry.text;
}

// The panel of one table page, kept across its redraws; `refresh` asks the node for what is new.
export function historyPanel(app, lobbyId) {
  let entries = [];
  let answer = { replay: false, result: null };
  let asking = null;
  const list = h("ol", { id: "history", class: "history" });
  const result = h("p", { id: "history-result", class: "hint" });
  const element = h("section", { class: "panel history-panel", id: "history-panel" }, h("h3", {}, "Moves"), list, result);

  async function replayFrom(index) {
    const { transcript } = await app.api.request("transcript", { table: app.tables.get(lobbyId).table });
    app.pendingReplay = Uint8Array.from(atob(transcript), (c) => c.charCodeAt(0));
    app.pendingStep = index;
    location.hash = "#/replay";
  }

  function draw() {
    const bottom = list.scrollHeight - list.scrollTop - list.clientHeight < 4;
    fill(list, entries.map((entry) => h("li", { class: `entry${entry.mark ? ` ${entry.mark}` : ""}${entry.n === null ? " aside" : ""}`, "data-index": entry.index },
      entryLine(entry), entry.mark ? h("small", { class: "mark" }, ` (${MARKS[entry.mark] || entry.mark})`) : null,
      answer.replay ? [" ", h("button", { class: "replay-from", "data-index": entry.index, onclick: () => replayFrom(entry.index) }, "replay from here")] : null)));
    if (bottom) list.scrollTop = list.scrollHeight;
    result.textContent = answer.result ? `Result: ${answer.result}` : entries.length ? "" : "No move yet.";
  }

  // One request at a time; a change while one is out is asked for once it is answered.
  async function refresh() {
    if (asking) return asking.then(refresh);
    const event = app.tables.get(lobbyId);
    if (!event || !event.table) return null;
    const since = entries.length ? entries[entries.length - 1].index : 0;
    asking = app.api.request("history", since ? { table: event.table, from: since } : { table: event.table });
    try {
      answer = await asking;
      entries = entries.filter((entry) => entry.index < since).concat(answer.entries);
      draw();
    } catch (error) {
      result.textContent = error.message;
    } finally {
      asking = null;
    }
    return null;
  }

  draw();
  return { element, refresh };
}

// Every seat's clock (client-api.md, `clocks`): a seat not due shows its turn time; the running
// one counts down (app.js's ticker, from data-deadline) and then its grace (data-grace).
export function clocks(event) {
  if (!event.clocks || event.phase !== "playing") return null;
  const now = performance.now();
  return h("p", { class: "clocks", id: "clocks" }, event.clocks.map((clock) => h("span", {
    class: `seat-clock${clock.running ? " running" : ""}`, "data-seat": clock.seat,
  }, `${seatName(clock.seat, event.seat, event.seats)} `, clock.running
    ? h("span", { class: "clock", "data-deadline": now + clock.turn * 1000, "data-grace": now + (clock.turn + clock.grace) * 1000 },
      clock.turn > 0 ? `${Math.ceil(clock.turn)} s` : `grace ${Math.ceil(clock.grace)} s`)
    : h("span", { class: "time" }, `${Math.ceil(clock.turn)} s`))));
}
