// The page: log in, keep the node's table events, route between lobby, table and replay viewer.
import { Api, ApiError, exchange, takeLoginCode } from "./api.js";
import { LANGUAGES, chooseLanguage, fill, h, language } from "./dom.js";
import { lobbyPage } from "./lobby.js";
import { alertSetting, alertTurn, turnCame } from "./notify.js";
import { replayPage } from "./replay.js";
import { tablePage } from "./table.js";

const KEY = "fairtable-token";
const RETRY_MS = 2000;
const main = document.getElementById("main");
const app = { api: null, token: null, games: [], node: null, tables: new Map(), page: null };

// The language menu: one language at a time; a change redraws the page in it.
function languageMenu() {
  const menu = document.getElementById("lang");
  fill(menu, Object.entries(LANGUAGES).map(([code, label]) => h("option", { value: code }, label)));
  menu.value = language();
  menu.onchange = () => { chooseLanguage(menu.value); location.reload(); };
}
languageMenu();
alertSetting(document.getElementById("turn-alert"));

function banner(text) {
  const element = document.getElementById("banner");
  element.hidden = !text;
  element.textContent = text || "";
}

async function connect(code) {
  const api = new Api();
  const hello = await api.open(`ws://${location.host}/`);
  if (hello.api !== 1) throw new ApiError("version", `this page speaks API version 1, the node ${hello.api}`);
  app.token = null;
  if (hello.auth) {
    const token = code ? await exchange(code) : sessionStorage.getItem(KEY);
    if (!token) {
      api.close();
      return null;
    }
    try {
      await api.request("auth", { token });
    } catch (error) {
      api.close();
      sessionStorage.removeItem(KEY);
      throw error;
    }
    sessionStorage.setItem(KEY, token);
    app.token = token;
  }
  return api;
}

async function start(code = null) {
  let api;
  try {
    api = await connect(code);
  } catch (error) {
    if (error.code === "closed" && sessionStorage.getItem(KEY)) return reconnect(error.message);
    return loginScreen(error.message);
  }
  if (api === null) return loginScreen();
  app.api = api;
  app.tables.clear();
  const [games, node] = await Promise.all([api.request("games"), api.request("node")]);
  app.games = games.games;
  app.node = node;
  document.getElementById("who").textContent = `${app.node.name} · ${app.node.fingerprint}`;
  api.onEvent((event) => {
    if (event.event !== "table") return;
    if (turnCame(app.tables.get(event.lobby_id), event)) alertTurn(event);
    app.tables.set(event.lobby_id, event);
    if (app.page && app.page.update) app.page.update(event);
  });
  api.onClose(() => reconnect("The connection to your node was lost"));
  await api.request("subscribe");
  banner(null);
  route();
}

function reconnect(why) {
  app.api = null;
  banner(`${why}; reconnecting…`);
  setTimeout(() => start(), RETRY_MS);
}

function loginScreen(problem) {
  app.page = null;
  const input = h("input", { id: "login-input", type: "password", autocomplete: "off", placeholder: "login link or token" });
  const submit = (event) => {
    event.preventDefault();
    const value = input.value.trim();
    const code = value.match(/#login=([A-Za-z0-9_-]+)/);
    if (code) return start(code[1]);
    sessionStorage.setItem(KEY, value);
    return start();
  };
  fill(main, h("section", { class: "login panel" },
    h("h1", {}, "Log in to your node"),
    problem ? h("p", { class: "error" }, problem) : null,
    h("p", {}, "Open the login link your node printed when it started (",
      h("code", {}, "fairtable node --api-port 7467 …"), "). A link works once: paste a new one, or the token from the ",
      h("code", {}, "api-token"), " file in the node's data directory."),
    h("form", { onsubmit: submit }, input, h("button", { type: "submit", id: "login-button" }, "Log in"))));
}

function route() {
  if (!app.api) return;
  const [, page, argument] = location.hash.split("/");
  if (app.page && app.page.leave) app.page.leave();
  if (page === "table" && argument) app.page = tablePage(app, decodeURIComponent(argument));
  else if (page === "replay") app.page = replayPage(app);
  else app.page = lobbyPage(app);
  fill(main, app.page.element);
}

// Every countdown on the page: elements with data-deadline (a time in ms since the page loaded),
// then, with data-grace, the grace after it (a seat's clock, client-api.md `clocks`).
setInterval(() => {
  for (const element of document.querySelectorAll("[data-deadline]")) {
    const left = Math.max(0, (Number(element.dataset.deadline) - performance.now()) / 1000);
    const graced = element.dataset.grace !== undefined && left === 0;
    const grace = graced ? Math.max(0, (Number(element.dataset.grace) - performance.now()) / 1000) : 0;
    element.textContent = graced ? `grace ${Math.ceil(grace)} s` : `${Math.ceil(left)} s`;
    element.classList.toggle("late", left < 10);
    element.classList.toggle("grace", graced);
  }
}, 250);

window.addEventListener("hashchange", () => {
  const code = takeLoginCode();
  if (code === null) return route();
  if (app.api) app.api.close();
  app.api = null;
  return start(code);
});
start(takeLoginCode());
