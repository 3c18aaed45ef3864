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
// A game's data file (card texts, fleets) from the node: the same files the rules load.
export function catalogue(game, name) {
  const key = `${game}/${name}`;
  if (!cache.has(key)) {
    cache.set(key, fetch(`/catalogue/${key}.json`).then((r) => {
      if (!r.ok) throw new Error(`no catalogue ${key}`);
      return r.json();
    }));
  }
  return cache.get(key);
}

// Replace an element's children, skipping null and false as h() does.
export function fill(element, ...children) {
  element.replaceChildren();
  return build(element, {}, children);
}
