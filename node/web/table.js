// One table: who sits where (names; their key fingerprints on a click), whose turn, every seat's clock, the
// board, the moves so far, the table's log, the result with its score and the verifier's verdict, violations.
import { board } from "./boards.js";
import { chatPanel } from "./chat.js";
import { fill, h, language, moveKey, short } from "./dom.js";
import { generic } from "./generic.js";
import { clocks, historyPanel } from "./history.js";
import { verdictText } from "./replay.js";
import { forcedFor, outcome, playedFor, seatName, tableId, violationText } from "./words.js";

const memory = new Map();
// What a board keeps between renders of one table (a fleet being placed, selected cards).
const verdicts = new Map();
// The verifier's verdict per finished table id, asked once (the node replays the transcript).

export function tablePage(app, lobbyId) {
  // the chat stays outside what each render replaces, so a line being typed keeps its text and focus
  const content = h("div", { class: "table-content" });
  const talk = chatPanel(app, lobbyId);
  const element = h("div", { class: "table-page", id: "table-page", "data-lobby": lobbyId }, content, talk.element);
  const notice = h("p", { class: "notice", id: "notice" });
  let sequence = 0;
  if (!memory.has(lobbyId)) memory.set(lobbyId, {});
  const history = historyPanel(app, lobbyId);

  async function send(move) {
    const event = app.tables.get(lobbyId);
    notice.textContent = "";
    try {
      await app.api.request("move", { table: event.table, move });
    } catch (error) {
      notice.textContent = error.message;
    }
  }

  // Why a move the board offers no button for (an unaffordable card, a card that does not follow,
  // a cell already shot, a salvo before it is fired) cannot be played: the node's ``check``, in the
  // page's language. True when the move may be played.
  async function explain(move) {
    const why = await judge(move);
    notice.textContent = why || "";
    return why === null;
  }

  // The node's ``check`` of ``move`` (or of a draft of hidden data, such as the space battle's
  // purchase): null when it may be played, else the words why not, for the board to show where it asked.
  async function judge(move) {
    const event = app.tables.get(lobbyId);
    try {
      const answer = await app.api.request("check", { table: event.table, move, lang: language() });
      return answer.legal ? null : answer.text;
    } catch (error) {
      return error.message;
    }
  }

  // The deck a pasted deck list names, read and checked by the game (the node's ``deck_list``).
  async function readDeck(text) {
    return (await app.api.request("deck_list", { table: app.tables.get(lobbyId).table, text })).cards;
  }

  async function render() {
    const mine = ++sequence;
    const event = app.tables.get(lobbyId);
    talk.update(event);
    if (!event) {
      fill(content, h("p", {}, `This node sits at no table ${lobbyId}.`), h("a", { href: "#/" }, "Back to the lobby"));
      return;
    }
    const ctx = {
      game: event.game, variant: event.variant, view: event.view, legal: event.legal_moves, texts: event.move_texts || [], text: event.text,
      decision: event.decision, yourTurn: event.your_turn, names: event.seats, marks: playedFor(event), forced: forcedFor(event),
      standing: event.standing, unplayable: unplayableMarks(event),
      send: event.your_turn && event.table && event.phase === "playing" ? send : null, state: memory.get(lobbyId), final: null,
      explain: event.your_turn && event.table && event.phase === "playing" ? explain : null,
      judge: event.your_turn && event.table && event.phase === "playing" ? judge : null, readDeck,
      repaint: render,
    };
    const renderer = await board(event.game, event.variant);
    let picture = null;
    if (renderer && event.view) {
      try {
        picture = await renderer.render(ctx);
      } catch (error) {
        console.error(error);
      }
    }
    if (mine !== sequence) return;
    const details = h("details", { class: "panel generic-panel", open: !picture }, h("summary", {}, "Seat view and legal moves"), generic(ctx));
    fill(content, status(event, verdicts.get(event.table), memory.get(lobbyId)), notice, picture ? h("section", { class: "panel board" }, picture) : null,
      event.watching ? null : history.element, log(event), details, actions(app, event));
    if (!event.watching) history.refresh();
    if (event.phase === "finished" && event.table && !verdicts.has(event.table)) check(event.table);
  }

  // The verifier's verdict on the finished table: the node replays its transcript (POST /replay).
  // Said at once, and whatever fails is the verdict's line (asked once: a reload asks again).
  async function check(table) {
    verdicts.set(table, "Checking the transcript: every shuffle, move and hidden answer…");
    render();
    try {
      const { transcript } = await app.api.request("transcript", { table });
      const response = await fetch("/replay", {
        method: "POST", body: Uint8Array.from(atob(transcript), (c) => c.charCodeAt(0)),
        headers: { "content-type": "application/octet-stream", ...(app.token ? { authorization: `Bearer ${app.token}` } : {}) },
      });
      const record = await response.json();
      verdicts.set(table, response.ok ? verdictText(record) : `The transcript could not be checked: ${record.error}`);
    } catch (error) {
      verdicts.set(table, `The transcript could not be checked: ${error.message}`);
    }
    render();
  }

  render();
  return { element, update: (event) => event.lobby_id === lobbyId && render() };
}

// `shown` keeps, across redraws, whether the player asked to see the fingerprints.
function status(event, verdict, shown) {
  const view = event.view || {};
  const turn = typeof view.turn === "number" ? view.turn : null;
  const prints = event.fingerprints || [];
  // names first; a click on them shows each player's key fingerprint (what a person compares)
  const seats = event.seats.map((name, seat) => h("span", {
    class: `seat${seat === event.seat ? " me" : ""}${seat === turn && event.phase === "playing" ? " turn" : ""}`, title: prints[seat] || "", "data-seat": seat,
  }, seat === event.seat ? `${name} (you)` : name, prints[seat] ? h("small", { class: "fingerprint" }, ` ${prints[seat]}`) : null));
  return h("section", { class: "panel status" },
    h("h1", {}, `${event.game} · ${event.variant}`, event.table ? h("small", { class: "table-id" }, ` table ${tableId(event.table)}`) : null),
    h("p", {
      class: `seats${shown.prints ? " prints" : ""}`, id: "seats", title: "show or hide the key fingerprints",
      onclick: (click) => { shown.prints = click.currentTarget.classList.toggle("prints"); },
    }, seats),
    h("p", { class: `turn${event.your_turn ? " yours" : ""}`, id: "turn" }, turnText(event, turn),
      event.deadline !== null && event.phase === "playing"
        ? [" · ", h("span", { class: "clock", id: "clock", "data-deadline": performance.now() + event.deadline * 1000 }, `${Math.ceil(event.deadline)} s`)] : null),
    clocks(event),
    event.result ? h("p", { class: "result", id: "result" }, outcome(event.result, event.seat, event.seats, event.game), event.standing ? `. Final ${event.standing}` : "") : null,
    event.result ? h("p", { class: "verdict", id: "verdict" }, event.phase === "finished" ? verdict || ""
      : "Waiting for every seat to reveal its seed (after a resignation or a claim the table first waits a grace for a late message); then the transcript is checked.") : null,
    event.violations.length
      ? h("ul", { class: "violations", id: "violations" }, event.violations.map((v) => h("li", {}, violationText(v, event.seats)))) : null,
    event.stalled ? h("p", { class: "error" }, event.stalled) : null);
}

function turnText(event, turn) {
  if (event.phase === "lobby") return "Waiting for the host to start the table";
  if (event.phase === "finished") return "Game over";
  if (event.phase === "closed") return "The table is closed";
  if (event.watching) return turn !== null ? `Watching: turn of ${seatName(turn, null, event.seats)}` : "Watching";
  if (event.your_turn) {
    if (event.prompt) return `Your turn: ${event.prompt}`;
    return { hidden: "Your turn: choose your hidden data", choice: "Your turn: choose", deck: "Your turn: choose your deck" }[event.decision] || "Your turn";
  }
  return turn !== null ? `Turn of ${seatName(turn, event.seat, event.seats)}` : "Waiting for the other seats";
}

// The hand cards the rules refuse now (client-api.md, `unplayable`): each move's key to its one-word mark and the refusal's words.
function unplayableMarks(event) {
  return new Map((event.unplayable || []).map((entry) => [moveKey(entry.move), entry]));
}

// The table's log (client-api.md): what happened to a player without their hand on it, newest last and marked.
function log(event) {
  const entries = event.log || [];
  if (!entries.length) return null;
  return h("section", { class: "panel log" }, h("h3", {}, "The table's log"),
    h("ol", { id: "log" }, entries.map((entry, index) => h("li", { class: `${entry.kind}${index === entries.length - 1 ? " newest" : ""}` }, entry.text))));
}

function actions(app, event) {
  if (!event.table) return null;
  const message = h("span", { class: "message" });
  const transcript = async () => {
    const { transcript } = await app.api.request("transcript", { table: event.table });
    return Uint8Array.from(atob(transcript), (c) => c.charCodeAt(0));
  };
  const download = async () => {
    const link = h("a", { href: URL.createObjectURL(new Blob([await transcript()])), download: `${event.game}-${tableId(event.table)}.ftt` });
    link.click();
  };
  const replay = async () => {
    app.pendingReplay = await transcript();
    location.hash = "#/replay";
  };
  // the button gives up the keys first: a Space or Enter typed later never presses it again
  const resign = async (click) => {
    click.currentTarget.blur();
    if (!confirm("Give up this game?")) return;
    try {
      await app.api.request("resign", { table: event.table });
    } catch (error) {
      message.textContent = error.message;
    }
  };
  // an invite a friend's node watches this table through (any seat's node serves spectators)
  const spectators = async (click) => {
    click.currentTarget.blur();
    try {
      const { invite } = await app.api.request("watch_invite", { table: event.table });
      fill(message, "Spectators watch with: ", h("input", { readonly: true, value: invite, class: "invite-code", id: "watch-invite", onfocus: (e) => e.target.select() }));
    } catch (error) {
      message.textContent = error.message;
    }
  };
  return h("section", { class: "panel actions" },
    event.phase === "playing" && !event.watching ? h("button", { id: "resign", onclick: resign }, "Resign") : null,
    event.watching ? null : h("button", { id: "invite-spectators", onclick: spectators }, "Invite spectators"),
    h("button", { id: "download", onclick: download }, "Download transcript"),
    h("button", { id: "replay-this", onclick: replay }, "Open in the replay viewer"),
    h("a", { class: "button", href: "#/" }, "Lobby"), message);
}
