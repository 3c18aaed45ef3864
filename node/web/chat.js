// The table's chat (client-api.md, the table event's `chat`): its lines, a line to type and send,
// and once the game is over the rematch button (offer one, or accept another seat's). Built once
// per table page and kept across its redraws, so a line being typed keeps its text and the focus.
import { h } from "./dom.js";
import { seatName } from "./words.js";

export function chatPanel(app, lobbyId) {
  const lines = h("ol", { id: "chat" });
  const input = h("input", { id: "chat-input", maxlength: 300, autocomplete: "off", placeholder: "say something at the table" });
  const message = h("span", { class: "message", id: "chat-message" });
  const rematch = h("p", { class: "rematch", id: "rematch-row" });

  const say = async (submit) => {
    submit.preventDefault();
    const event = app.tables.get(lobbyId);
    const text = input.value.trim();
    if (!text || !event || !event.table) return;
    try {
      await app.api.request("chat", { table: event.table, text });
      input.value = "";
      message.textContent = "";
    } catch (error) {
      message.textContent = error.message;
    }
  };

  const offer = async (click) => {
    click.currentTarget.blur();
    const event = app.tables.get(lobbyId);
    try {
      const { lobby } = await app.api.request("rematch", { table: event.table });
      location.hash = `#/table/${encodeURIComponent(lobby.lobby_id)}`;
    } catch (error) {
      message.textContent = error.message;
    }
  };

  const form = h("form", { id: "chat-form", onsubmit: say }, input, h("button", { type: "submit", id: "chat-send" }, "Say"));
  const element = h("section", { class: "panel chat" }, h("h3", {}, "Chat"), lines, rematch, form, message);

  function update(event) {
    element.hidden = !event || !event.table;
    if (element.hidden) return;
    lines.replaceChildren(...(event.chat || []).map((line) => h("li", { class: line.seat === event.seat ? "mine" : "theirs" },
      h("b", {}, `${seatName(line.seat, event.seat, event.seats)}: `),
      line.rematch ? (line.seat === event.seat ? "you offered a rematch" : "offers a rematch") : line.text)));
    lines.lastElementChild?.scrollIntoView({ block: "nearest" });
    rematch.replaceChildren(...rematchRow(event, offer));
  }

  return { element, update };
}

// The rematch at a finished table: what is on offer and the one button that offers or accepts it.
function rematchRow(event, offer) {
  if (event.phase !== "finished") return [];
  const offers = (event.chat || []).filter((line) => line.rematch);
  const theirs = offers.filter((line) => line.seat !== event.seat).sort((a, b) => a.seat - b.seat);
  const mine = offers.some((line) => line.seat === event.seat);
  // both offered: the node takes the lower seat's offer (node.md, "Rematch")
  if (theirs.length && (!mine || theirs[0].seat < event.seat)) {
    return [`${theirs[0].name} offers a rematch. `, h("button", { id: "rematch", onclick: offer }, "Accept the rematch")];
  }
  if (mine) return ["You offered a rematch: it starts once every seat accepts."];
  return [h("button", { id: "rematch", onclick: offer }, "Offer a rematch"), " the same game, options and seats"];
}
