// The lobby: your tables (open, start, leave, rejoin), hosting with every option as a form, joining
// by invite, from a node's address or from the tables announced nearby.
import { fill, h, short } from "./dom.js";
import { outcome, tableId } from "./words.js";

const ADDRESS = /^\S+:\d+$/;
const NEARBY_MS = 3000;
// How often the list of tables nearby is asked for again while the lobby is open.

export function lobbyPage(app) {
  const yours = h("section", { class: "panel", id: "your-tables" });
  let hosted = new Map();
  const render = () => fill(yours, h("h2", {}, "Your tables"), tablesList(app, hosted, refresh));
  async function refresh() {
    try {
      hosted = new Map((await app.api.request("list")).tables.map((table) => [table.lobby_id, table]));
    } catch (error) {
      hosted = new Map();
    }
    render();
  }
  refresh();
  const join = joinForm(app, refresh);
  const element = h("div", { class: "lobby" }, yours, hostForm(app, refresh), join.element);
  return {
    element, leave: join.leave,
    update: (event) => (event.phase === "lobby" || !hosted.has(event.lobby_id) ? refresh() : render()),
  };
}

function tablesList(app, hosted, refresh) {
  const events = [...app.tables.values()].sort((a, b) => rank(a) - rank(b));
  if (!events.length) return h("p", { class: "hint" }, "No tables yet: host one below, or join one.");
  return h("ul", { class: "tables" }, events.map((event) => tableRow(app, event, hosted.get(event.lobby_id), refresh)));
}

function rank(event) {
  return { playing: event.your_turn ? 0 : 1, lobby: 2, finished: 3, closed: 4 }[event.phase] ?? 5;
}

function tableRow(app, event, listing, refresh) {
  const message = h("span", { class: "message" });
  // a question first (leaving) and the button gives up the keys, so typed text never presses it
  const act = (op, question) => async (click) => {
    click.currentTarget.blur();
    if (question && !confirm(question)) return;
    try {
      await app.api.request(op, { lobby_id: event.lobby_id });
      if (op === "start") location.hash = `#/table/${encodeURIComponent(event.lobby_id)}`;
      refresh();
    } catch (error) {
      message.textContent = error.message;
    }
  };
  const status = event.phase === "lobby"
    ? `waiting for players: ${listing ? `${listing.joined.length} of ${listing.seats}` : event.seats.length} seated`
    : event.phase === "playing" ? (event.watching ? "watching" : event.your_turn ? "your turn" : "playing")
      : outcome(event.result, event.seat, event.seats, event.game) || event.phase;
  const actions = [];
  if (event.phase === "lobby" && listing) {
    actions.push(h("label", { class: "invite" }, "Invite: ", h("input", { readonly: true, value: listing.invite, class: "invite-code", onfocus: (e) => e.target.select() })));
    actions.push(h("button", { class: "start", onclick: act("start") }, "Start"));
  }
  if (event.phase === "lobby") actions.push(h("button", { class: "leave", onclick: act("leave", "Leave this table? Your seat is given up.") }, "Leave"));
  else actions.push(h("a", { class: "button open", href: `#/table/${encodeURIComponent(event.lobby_id)}` },
    event.phase === "playing" ? (event.watching ? "Watch" : "Play") : "Open"));
  return h("li", { class: `table ${event.phase}${event.your_turn ? " your-turn" : ""}`, "data-lobby": event.lobby_id },
    h("strong", {}, `${event.game} ${event.variant}`), " ", h("span", { class: "status" }, status), " ",
    h("small", { class: "table-id" }, event.table ? tableId(event.table) : `open table ${event.lobby_id}`), " ", actions, message);
}

function hostForm(app, done) {
  const game = h("select", { id: "host-game" }, app.games.map((g) => h("option", { value: g.id }, g.id)));
  const variant = h("select", { id: "host-variant" });
  const seats = h("input", { id: "host-seats", type: "number" });
  const options = h("div", { id: "host-options", class: "options" });
  const message = h("p", { class: "message", id: "host-message" });
  const chosen = () => app.games.find((g) => g.id === game.value);
  function fillVariants() {
    fill(variant, ...chosen().variants.map((v) => h("option", { value: v }, v)));
    fillOptions();
  }
  function fillOptions() {
    const [fewest, most] = chosen().seats[variant.value];
    Object.assign(seats, { min: fewest, max: most, value: fewest, disabled: fewest === most });
    fill(options, ...chosen().options[variant.value].map(optionField));
  }
  game.addEventListener("change", fillVariants);
  variant.addEventListener("change", fillOptions);
  if (app.games.length) fillVariants();
  async function submit(event) {
    event.preventDefault();
    const values = {};
    for (const field of options.querySelectorAll("[data-option]")) {
      values[field.dataset.option] = field.type === "checkbox" ? field.checked : field.dataset.type === "integer" ? Number(field.value) : field.value;
    }
    try {
      const { lobby, invite } = await app.api.request("host", { game: game.value, variant: variant.value, seats: Number(seats.value), options: values });
      message.textContent = `Table ${lobby.lobby_id} offered. Invite: ${invite}`;
      done();
    } catch (error) {
      message.textContent = error.message;
    }
  }
  return h("section", { class: "panel" }, h("h2", {}, "Host a table"),
    h("form", { id: "host-form", onsubmit: submit },
      h("label", {}, "Game ", game), h("label", {}, "Variant ", variant), h("label", {}, "Seats ", seats), options,
      h("button", { type: "submit", id: "host-button" }, "Host")), message);
}

function optionField(option) {
  const data = { "data-option": option.name, "data-type": option.type, id: `option-${option.name}` };
  let input;
  if (option.type === "flag") input = h("input", { ...data, type: "checkbox", checked: option.default });
  else if (option.type === "choice") {
    input = h("select", data, option.values.map((v) => h("option", { value: v, selected: v === option.default }, v)));
  } else input = h("input", { ...data, type: "number", min: option.lowest, max: option.highest, value: option.default, step: 1 });
  const range = option.type === "integer" ? ` ${option.lowest}–${option.highest},` : "";
  const shown = option.type === "flag" ? (option.default ? "on" : "off") : String(option.default);
  return h("label", { title: `${option.type},${range} default ${shown}` }, `${option.name.replaceAll("_", " ")} `, input,
    h("small", { class: "default" }, `${range} default ${shown}`));
}

function joinForm(app, done) {
  const invite = h("input", { id: "join-invite", placeholder: "an invite (ft1…) or a node's HOST:PORT" });
  const found = h("ul", { class: "tables", id: "join-found" });
  const nearby = h("ul", { class: "tables", id: "nearby" });
  const message = h("p", { class: "message", id: "join-message" });
  async function join(args) {
    try {
      const { lobby } = await app.api.request("join", args);
      message.textContent = `Seated at ${lobby.game} table ${lobby.lobby_id}; it starts when the host starts it.`;
      fill(found);
      done();
    } catch (error) {
      message.textContent = error.message;
    }
  }
  const offered = (table, args, id) => h("li", { class: "table" },
    h("strong", {}, `${table.game} ${table.variant}`), ` ${table.joined.length} of ${table.seats} seated, host ${table.host || short(table.fingerprint)} `,
    Object.keys(table.options || {}).length ? h("small", {}, Object.entries(table.options).map(([k, v]) => `${k}=${v}`).join(", "), " ") : null,
    h("button", { class: "join", "data-lobby": table.lobby_id, id, onclick: () => join(args) }, "Join"));
  // a started table's invite (from any of its players) opens it to watch, as a spectator
  async function watch(click) {
    click.currentTarget.blur();
    const text = invite.value.trim();
    if (!/^ft[1:]/i.test(text)) {
      message.textContent = "To watch, paste an invite to the table (one word starting ft1) from any of its players.";
      return;
    }
    try {
      const { update } = await app.api.request("watch", { invite: text });
      app.tables.set(update.lobby_id, app.tables.get(update.lobby_id) || update);
      location.hash = `#/table/${encodeURIComponent(update.lobby_id)}`;
    } catch (error) {
      message.textContent = error.message;
    }
  }
  async function submit(event) {
    event.preventDefault();
    const text = invite.value.trim();
    if (/^ft[1:]/i.test(text)) return join({ invite: text });
    if (!ADDRESS.test(text)) {
      message.textContent = "An invite is one word starting ft1 (copy it whole); an address looks like 192.0.2.7:7400.";
      return;
    }
    try {
      const { tables } = await app.api.request("list", { peer: text });
      message.textContent = tables.length ? `Tables at ${text}:` : `No open tables at ${text}.`;
      fill(found, ...tables.map((table) => offered(table, { peer: text, lobby_id: table.lobby_id })));
    } catch (error) {
      message.textContent = error.message;
    }
  }
  async function look() {
    try {
      const { tables } = await app.api.request("discovered");
      fill(nearby, ...(tables.length ? tables.map((table) => offered(table,
        { peer: table.address, lobby_id: table.lobby_id, fingerprint: table.fingerprint }))
        : [h("li", { class: "hint" }, "No open tables announced on your network.")]));
    } catch (error) {
      fill(nearby, h("li", { class: "hint" }, error.message));
    }
  }
  look();
  const timer = setInterval(look, NEARBY_MS);
  const element = h("section", { class: "panel" }, h("h2", {}, "Join a table"),
    h("form", { id: "join-form", onsubmit: submit }, invite, h("button", { type: "submit", id: "join-button" }, "Join or list"),
      h("button", { type: "button", id: "watch-button", onclick: watch }, "Watch")),
    message, found, h("h3", {}, "Open tables nearby"), nearby);
  return { element, leave: () => clearInterval(timer) };
}
