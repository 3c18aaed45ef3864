// Each game's pictures live in games/<id>.js, exporting `async render(ctx)` that returns an element.
// ctx: { game, variant, view (the seat's or spectator's view), legal (legal moves), texts (their
//        words, as legal), text (the game's text rendering of the view, or null), decision, yourTurn,
//        send (move => Promise; null when nothing may be sent, e.g. in the replay viewer),
//        state (an object kept per table between renders: a placement in progress, a selection),
//        final (replay only: the last view from the same perspective), repaint (() => render again),
//        names (the players' names in seat order: name a seat with words.js seatName(seat, view.seat, ctx.names)) }.
// A game's file may export VARIANTS, the variants it draws; any other variant (a new one, whose
// view may differ) and any game without a file here are played through the generic view
// (generic.js). Adding a game's pictures is one file and its id below.
const BOARDS = ["drachenherz", "duel", "shengji", "towers", "zeeslag"];
const loaded = new Map();

export async function board(game, variant) {
  if (!BOARDS.includes(game)) return null;
  if (!loaded.has(game)) loaded.set(game, import(`./games/${game}.js`).catch(() => null));
  const renderer = await loaded.get(game);
  return renderer && (!renderer.VARIANTS || renderer.VARIANTS.includes(variant)) ? renderer : null;
}
