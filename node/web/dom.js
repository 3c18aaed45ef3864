// Tiny DOM helpers: h() builds HTML elements, s() SVG elements; no framework.
const SVG = "http://www.w3.org/2000/svg";

function build(element, attrs, children) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

export function s(tag, attrs, ...children) {
  return build(document.createElementNS(SVG, tag), attrs, children);
}

// A move as the data-move attribute holds it: JSON with sorted keys, as the node sends moves.
export function moveKey(move) {
  const sorted = (value) => Array.isArray(value) ? value.map(sorted)
    : value && typeof value === "object" ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted(value[k])]))
    : value;
  return JSON.stringify(sorted(move));
}

// A button that sends a move: the one element every board uses, so tests and users click alike.
export function moveButton(ctx, move, label, attrs = {}) {
  return h("button", { ...attrs, "data-move": moveKey(move), disabled: !ctx.send, onclick: () => ctx.send && ctx.send(move) }, label);
}

export function short(fingerprint) {
  return fingerprint ? fingerprint.slice(0, 9) : "?";
}

const cache = new Map();
const LANGUAGE_KEY = "fairtable-lang";
export const LANGUAGES = { en: "English", orig: "Original (LV/NL)" };

// The language the page shows game texts in: the menu's choice, kept in the browser; English by default.
export function language() {
  const chosen = localStorage.getItem(LANGUAGE_KEY);
  return chosen in LANGUAGES ? chosen : "en";
}

export function chooseLanguage(chosen) {
  localStorage.setItem(LANGUAGE_KEY, chosen);
}

function fetched(path) {
  if (!cache.has(path)) {
    cache.set(path, fetch(path).then((r) => {
      if (!r.ok) throw new Error(`no catalogue ${path}`);
      return r.json();
    }));
  }
  return cache.get(path);
}

// The node's message catalogue of the page's language (games/texts.py): key -> text.
export function words() {
  return fetched(`/catalogue/${language()}.json`);
}

// An entry of a game's data file with its words from the catalogue: ``name`` and ``name_en`` both
// read the language's name (so no board shows two languages), ``names`` keeps both originals for
// matching what a person types, ``text``, ``plural_en`` and ``type_name`` the language's effect,
// field name and card type.
function worded(said, key, entry) {
  const name = said[key];
  const type = said[`${key.split(".")[0]}.types.${entry.type}`];
  if (name === undefined) return entry;
  const text = said[`${key}.text`];
  const field = said[`${key}.field`];
  return { ...entry, name, name_en: name, names: [entry.name, entry.name_en],
    ...(text === undefined ? {} : { text }), ...(field === undefined ? {} : { plural_en: field }),
    ...(type === undefined ? {} : { type_name: type }) };
}

function wordedFile(said, prefix, data) {
  if (Array.isArray(data)) {
    return data.map((entry) => {
      const named = worded(said, `${prefix}.${entry.id}`, entry);
      return entry.ships ? { ...named, ships: entry.ships.map((ship, i) => worded(said, `${prefix}.${entry.id}.${i}`, ship)) } : named;
    });
  }
  const out = data.id === undefined ? { ...data } : worded(said, `${prefix}.${data.id}`, data);
  for (const [field, value] of Object.entries(data)) {
    if (Array.isArray(value)) out[field] = wordedFile(said, prefix, value);
    else if (value && typeof value === "object" && "name" in value) out[field] = worded(said, `${prefix}.${value.id ?? field}`, value);
  }
  return out;
}

// A game's data file (card texts, fleets) from the node: the same files the rules load, its names
// and texts in the page's language.
export function catalogue(game, name) {
  const key = `${game}/${name}/${language()}`;
  if (!cache.has(key)) {
    cache.set(key, Promise.all([fetched(`/catalogue/${game}/${name}.json`), words()])
      .then(([data, said]) => wordedFile(said, `${game}.${name}`, data)));
  }
  return cache.get(key);
}

// Replace an element's children, skipping null and false as h() does.
export function fill(element, ...children) {
  element.replaceChildren();
  return build(element, {}, children);
}

// The one word beside a hand card whose `move` the rules refuse now (the table event's `unplayable`:
// "cost", "follow", "full"), with the refusal's words as its title; nothing for a card that may be played.
export function refusedMark(ctx, move) {
  const refused = ctx.unplayable && ctx.unplayable.get(moveKey(move));
  return refused ? h("small", { class: "mark", title: refused.text }, refused.mark) : null;
}
