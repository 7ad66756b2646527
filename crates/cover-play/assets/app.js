// cover play: the page. It draws the game model (model.js) and turns keys,
// clicks and taps into its moves; it keeps the game, the settings and the
// statistics in localStorage, keeps two windows of the page in step, and
// asks the server (/api/...) for what needs a solver: new games, imports,
// hints, checks and the solution. It decides no rule of the game itself.
"use strict";

const { Game, stats: Stats, formatTime, HISTORY_LIMIT } = window.CoverModel;

/// What the page keeps in localStorage: the game in play, the one before
/// it and the one after it (Undo and Redo go across New game), the
/// settings and the statistics.
const STORE = {
  game: "cover-play-game", previous: "cover-play-previous", next: "cover-play-next",
  settings: "cover-play-settings", stats: "cover-play-stats",
};
const LEVELS = ["easy", "medium", "hard", "expert", "extreme"];
const DEFAULTS = { mistakes: "conflicts", autoClean: true, highlight: true, digitFirst: false, theme: "system",
  size: 9, difficulty: "easy", variant: "classic" };
/// How long a request may take before the page gives up on it.
const REQUEST_TIME = 30000;

let game = null; // the Game in play
let selected = 0; // the selected cell
let mode = "digit"; // what a plain digit key writes: "digit", "corner" or "centre"
let activeDigit = 0; // digit-first input: the digit a tap on a cell writes
let hint = { game: null, rev: -1, answer: null, level: 0, cells: new Set(), cell: -1, pending: false };
let checked = { game: null, rev: -1, wrong: new Set() }; // what Check found, for the board it saw
let settings = loadSettings();
let statistics = Stats.read(readJSON(STORE.stats));
let levels = null; // sizes and the levels each can make, from /api/levels
let variants = []; // the variants a new game can be, with their sizes and levels, from /api/levels
let variantsKnown = false; // whether /api/levels has said which variants there are
let busy = false;
let saveFailed = false;
let lastTick = Date.now();
let ticks = 0;
let drawn = { game: null, cells: [], pad: [] }; // the elements of the board and pad drawn for `game`

const $ = (id) => document.getElementById(id);

// Storage: every access may throw (storage off, quota full).

function readJSON(key) {
  try { return JSON.parse(localStorage.getItem(key)); } catch (e) { return null; }
}

/// Writes `value` under `key`; false when the store refused it, and then
/// `storeFull` says whether for its quota (rather than being off).
let storeFull = false;
function writeJSON(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch (e) {
    storeFull = !!e && (e.name === "QuotaExceededError" || e.name === "NS_ERROR_DOM_QUOTA_REACHED");
    return false;
  }
}

function stored(key) { try { return localStorage.getItem(key) !== null; } catch (e) { return false; } }

function forget(key) { try { localStorage.removeItem(key); } catch (e) { /* nothing to forget */ } }

function loadSettings() {
  const saved = readJSON(STORE.settings) || {};
  const out = { ...DEFAULTS };
  for (const key of Object.keys(DEFAULTS)) if (typeof saved[key] === typeof DEFAULTS[key]) out[key] = saved[key];
  if (!["off", "conflicts", "solution"].includes(out.mistakes)) out.mistakes = DEFAULTS.mistakes;
  if (!["system", "light", "dark"].includes(out.theme)) out.theme = DEFAULTS.theme;
  return out;
}

function saveSettings() { writeJSON(STORE.settings, settings); }

/// Saves the game. When the store is full, the games kept for Undo go
/// first, then the older half of the history; whatever still fails is
/// shown until a save succeeds.
function saveGame() {
  if (!game) return;
  let ok = writeJSON(STORE.game, game.save());
  if (!ok && storeFull && (stored(STORE.previous) || stored(STORE.next))) {
    forget(STORE.previous); forget(STORE.next); ok = writeJSON(STORE.game, game.save());
  }
  if (!ok && storeFull) { game.trim(HISTORY_LIMIT / 8); ok = writeJSON(STORE.game, game.save()); }
  if (!ok && !saveFailed) {
    const why = storeFull ? "This browser's storage is full" : "This browser keeps no storage for this page";
    say(`${why}: play goes on, but a reload would lose this game.`);
    $("storage-warning").textContent = `${why}: the game is not saved.`;
  }
  $("storage-warning").hidden = ok;
  saveFailed = !ok;
}

// The server.

async function api(path, body) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), REQUEST_TIME);
  let response;
  try {
    response = await fetch("/api/" + path, {
      method: body === undefined ? "GET" : "POST", signal: abort.signal,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new Error(abort.signal.aborted ? "the server took too long to answer" : "the server cannot be reached");
  } finally { clearTimeout(timer); }
  const answer = await response.json().catch(() => ({ error: `the server answered ${response.status} without JSON` }));
  if (!response.ok) throw new Error(answer.error || response.statusText);
  return answer;
}

function say(text) { $("message").textContent = text; }

const article = (word) => (/^[aeiou]/.test(word) ? "an" : "a");

/// Shows the spinner over the board while `work` runs, with `why` after a
/// moment (most answers come before anyone would read it).
async function whileBusy(why, slow, work) {
  busy = true;
  $("board").setAttribute("aria-busy", "true");
  const show = setTimeout(() => { $("busy").hidden = false; $("busy-text").textContent = why; }, 250);
  const longer = setTimeout(() => { $("busy-text").textContent = `${why} ${slow}`; }, 2000);
  try { return await work(); } finally {
    clearTimeout(show); clearTimeout(longer);
    $("busy").hidden = true; busy = false;
    $("board").removeAttribute("aria-busy");
  }
}

// Games in and out.

/// Makes `next` the game in play: drawn, saved, and the page's notes
/// about the old board dropped.
function adopt(next, message) {
  game = next;
  if (selected >= game.length) selected = 0;
  activeDigit = 0;
  dropNotes();
  if (game.status !== "won") closeDialog("win");
  saveGame();
  render();
  if (message) say(message);
  document.body.dataset.ready = "1";
}

function dropNotes() {
  hint = { game: null, rev: -1, answer: null, level: 0, cells: new Set(), cell: -1, pending: false };
  checked = { game: null, rev: -1, wrong: new Set() };
}

/// Starts a game the server made or read; the game it replaces is kept
/// one Undo away.
function start(answer) {
  const next = new Game(answer);
  if (game && (game.done.length || game.status !== "playing")) writeJSON(STORE.previous, game.save());
  forget(STORE.next);
  Stats.recordStart(statistics, next.size, next.grade, variantName(next));
  writeJSON(STORE.stats, statistics);
  selected = 0;
  adopt(next);
  if (settings.mistakes === "solution") fetchSolution(next);
}

/// The variant's name for people ("" for a classic game).
function variantName(g) { return g.variant ? g.variant.name : ""; }

/// What the server needs to know of the game's rules: its variant, if any.
function rulesOf(g) { return g.variant ? { variant: g.variant } : {}; }

function inProgress() { return game && game.status === "playing" && game.done.length > 0; }

async function newGame(ask = true) {
  if (busy) return;
  if (ask && inProgress() && !(await confirmDialog("Start a new game?",
    "The game in progress stays one Undo away."))) return;
  const size = Number($("size").value), level = $("difficulty").value, variant = $("variant").value;
  const kind = variant === "classic" ? `${size}×${size}` : `${size}×${size} ${variant}`;
  try {
    const answer = await whileBusy(`Making ${article(level)} ${level} ${kind} puzzle…`,
      "Harder levels take longer: puzzles are made until one needs that level's techniques.",
      () => api("new", variant === "classic" ? { size, difficulty: level } : { size, difficulty: level, variant }));
    start(answer);
    const rated = answer.rating == null ? "" : `, rated ${answer.rating.toFixed(1)}`;
    say(answer.target_met ? `${article(answer.grade)} ${answer.grade} puzzle, ${answer.clues} clues${rated}`
      : `no ${level} ${kind} puzzle came in time; this one is ${answer.grade}${rated}`);
  } catch (e) { say(e.message); }
}

async function importPuzzle(text, what) {
  if (busy) return false;
  try {
    const answer = await whileBusy("Reading the puzzle…", "Large puzzles take a moment to prove unique.",
      () => api("import", { text }));
    start(answer);
    say(what || "imported");
    return true;
  } catch (e) { say(e.message); return false; }
}

/// The solution, asked once per game, for mistakes checked as you type.
async function fetchSolution(g) {
  if (g.solution) return;
  try {
    const answer = await api("solve", { puzzle: g.puzzle, ...rulesOf(g) });
    if (g.solution) return;
    g.solution = answer.solution;
    if (g === game) { saveGame(); render(); }
  } catch (e) { if (g === game) say(`mistakes cannot be checked: ${e.message}`); }
}

// Moves.

/// Writes `digit` (0 erases) in `cell` the way `how` says; the model
/// refuses what the rules do not allow.
function write(cell, digit, how = mode) {
  if (!game || busy) return;
  if (game.status === "won") { say("Solved! Undo goes back, New game starts another."); return; }
  if (game.status === "revealed") { say("The solution is shown: Undo takes it back."); return; }
  let changed;
  if (!digit) changed = game.set(cell, 0);
  else if (how === "corner") changed = game.toggleCorner(cell, digit);
  else if (how === "centre") changed = game.toggleCentre(cell, digit);
  else changed = game.set(cell, digit, { autoClean: settings.autoClean, mistakes: settings.mistakes });
  if (changed) afterMove();
}

function afterMove(message = "") {
  const wasWon = $("win").open;
  dropNotes();
  say(message);
  saveGame();
  render();
  if (game.status === "won" && !wasWon) won();
  if (game.status !== "won") closeDialog("win");
}

function undo() {
  if (!game || busy) return;
  if (game.undo()) return afterMove();
  const previous = Game.load(readJSON(STORE.previous));
  if (!previous) return;
  writeJSON(STORE.next, game.save());
  forget(STORE.previous);
  adopt(previous, "back to the game before (Redo returns to the newer one)");
}

function redo() {
  if (!game || busy) return;
  if (game.redo()) return afterMove();
  const next = Game.load(readJSON(STORE.next));
  if (!next) return;
  writeJSON(STORE.previous, game.save());
  forget(STORE.next);
  adopt(next, "forward to the newer game");
}

function won() {
  game.elapsed = Math.floor(game.elapsed); // the time shown is the time kept
  const fresh = Stats.recordWin(statistics, game);
  if (fresh) writeJSON(STORE.stats, statistics);
  saveGame();
  const s = Stats.summary(statistics, game.size, game.grade, Date.now(), variantName(game));
  const kind = `${game.size}×${game.size} ${variantName(game)} ${game.grade || ""}`.replace(/ +/g, " ").trim();
  const extras = [game.mistakes && `${game.mistakes} mistake${game.mistakes > 1 ? "s" : ""}`,
    game.hints && `${game.hints} hint${game.hints > 1 ? "s" : ""}`,
    game.assisted && "with Solve's help, so not in the statistics"].filter(Boolean);
  $("win-text").textContent = `Solved in ${formatTime(game.elapsed)}: ${kind}${extras.length ? `, ${extras.join(", ")}` : ""}.`;
  const rows = [["Best", s.best == null ? "—" : formatTime(s.best)], ["Average", s.average == null ? "—" : formatTime(s.average)],
    ["Won", `${s.won} of ${s.started}`], ["Streak", `${s.streak} day${s.streak === 1 ? "" : "s"} (best ${s.bestStreak})`]];
  $("win-stats").replaceChildren(...rows.flatMap(([k, v]) => [element("dt", k), element("dd", v)]));
  say(`Solved in ${formatTime(game.elapsed)}!`);
  const dialog = $("win");
  dialog.returnValue = "";
  if (!dialog.open) dialog.showModal();
}

function element(tag, text) { const e = document.createElement(tag); e.textContent = text; return e; }

// Closed with an empty return value: a value left from an earlier close
// (the win screen's "new") must not act again.
function closeDialog(id) { const d = $(id); if (d.open) d.close(""); }

/// A yes-or-no question in a dialog; answers true for yes.
function confirmDialog(title, text) {
  const dialog = $("confirm");
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = text;
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => { resolve(dialog.returnValue === "yes"); $("board").focus(); }, { once: true });
  });
}

// Hints: each press on the same board shows more: where to look, then the
// technique and its pattern, then the whole step. An answer that comes
// back after the board changed is dropped, and nothing moves the
// selection but a press the player made on an answer already here.
async function askHint() {
  if (!game || busy || game.status !== "playing") return;
  const g = game, rev = g.rev;
  const here = hint.game === g && hint.rev === rev && hint.answer;
  if (!here) {
    if (hint.pending && hint.game === g && hint.rev === rev) return;
    hint = { game: g, rev, answer: null, level: 0, cells: new Set(), cell: -1, pending: true };
    say("looking for the next step…");
    let answer;
    try {
      answer = await api("hint", { puzzle: g.puzzle, cells: g.cells, symbols: g.symbols, ...rulesOf(g) });
    } catch (e) {
      if (hint.game === g && hint.rev === rev) { hint.pending = false; say(e.message); }
      return;
    }
    if (game !== g || g.rev !== rev || hint.game !== g) return;
    hint.pending = false;
    hint.answer = answer;
    g.hints++;
    saveGame();
  }
  showHint(!!here);
}

function showHint(pressed) {
  const a = hint.answer;
  if (a.kind !== "step") {
    hint.cell = a.cell ?? -1;
    hint.cells = new Set(hint.cell >= 0 ? [hint.cell] : []);
    say(a.text);
    return render();
  }
  hint.level = Math.min(hint.level + 1, 3);
  if (hint.level === 1) {
    // The unit's cells, as the server names them (an older server sends
    // only its number, which the classic model numbers the same way).
    hint.cells = new Set(a.unit_cells && a.unit_cells.length ? a.unit_cells
      : a.units.length ? game.geometry.units[a.units[0]] : a.cells);
    say(`${a.nudge} (Hint again for more)`);
  } else if (hint.level === 2) {
    hint.cells = new Set(a.cells);
    say(`${a.pattern} (rated ${a.rating.toFixed(1)}; Hint again for the whole step)`);
  } else {
    hint.cells = new Set([...a.cells, ...a.eliminations.map((e) => e.cell)]);
    const target = a.cell ?? (a.then ? a.then.cell : null);
    if (target !== null) { hint.cell = target; if (pressed) selected = target; }
    say(a.text + (a.then ? `. Then: ${a.then.text}` : ""));
  }
  render();
}

async function check() {
  if (!game || busy) return;
  const g = game, rev = g.rev;
  try {
    const answer = await api("check", { puzzle: g.puzzle, cells: g.cells, ...rulesOf(g) });
    if (game !== g || g.rev !== rev) return;
    checked = { game: g, rev, wrong: new Set(answer.wrong) };
    render();
    say(answer.solved ? "solved" : answer.wrong.length ? `${answer.wrong.length} wrong` : "nothing wrong so far");
  } catch (e) { say(e.message); }
}

async function solve() {
  if (!game || busy || game.status !== "playing") return;
  if (!(await confirmDialog("Show the solution?", "The game ends without a win; Undo takes the solution back."))) return;
  const g = game;
  try {
    const answer = g.solution ? { solution: g.solution } : await api("solve", { puzzle: g.puzzle, ...rulesOf(g) });
    if (game !== g || !g.reveal(answer.solution)) return;
    afterMove("solved by the computer");
  } catch (e) { say(e.message); }
}

function autoNotes() {
  if (!game || busy) return;
  if (game.fillNotes()) afterMove("corner marks now hold every empty cell's candidates");
  else say(game.status === "playing" ? "the notes already hold every candidate" : "");
}

function rewind() {
  if (!game || busy) return;
  const count = game.undoToCorrect();
  if (count) afterMove(`${count} move${count > 1 ? "s" : ""} undone: every digit left is right`);
}

function share() {
  if (!game) return;
  const url = new URL("/", location.href);
  url.searchParams.set("p", game.puzzleText());
  $("share-link").textContent = url.href;
  const copied = navigator.clipboard && navigator.clipboard.writeText(url.href);
  if (copied) copied.then(() => say("link copied"), () => say("copy the link shown below"));
  else say("copy the link shown below");
}

// Drawing. The board's cells are made once per game and then only
// changed where their look changes.

function build() {
  const { size, box, symbols } = game;
  const board = $("board");
  board.style.setProperty("--n", size);
  board.style.setProperty("--box", box);
  document.body.classList.toggle("large", size > 9);
  const rows = [];
  drawn = { game, cells: [], pad: [] };
  for (let r = 0; r < size; r++) {
    const row = document.createElement("div");
    row.className = "row";
    row.setAttribute("role", "row");
    for (let c = 0; c < size; c++) {
      const cell = document.createElement("div");
      const i = r * size + c;
      cell.id = `cell-${i}`;
      cell.dataset.cell = i;
      cell.setAttribute("role", "gridcell");
      cell.look = "";
      row.append(cell);
      drawn.cells.push(cell);
    }
    rows.push(row);
  }
  board.replaceChildren(...rows);
  board.classList.toggle("variant", !!game.variant);
  $("board-frame").classList.toggle("variant", !!game.variant);
  drawRules();
  const pad = $("pad");
  pad.style.setProperty("--pad-columns", size <= 9 ? size : size === 16 ? 8 : 9);
  drawn.pad = [...symbols].map((s, k) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "pad";
    b.dataset.digit = k + 1;
    b.append(element("span", s), element("small", ""));
    return b;
  });
  pad.replaceChildren(...drawn.pad);
}

// A variant's rules, drawn once per game in the layer under the cells
// (which are see-through on a variant board): extra regions shaded,
// diagonals as a faint line, thermometers, killer cages with their sums.

const SVG_NS = "http://www.w3.org/2000/svg";

function svgElement(tag, attributes, text) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

function drawRules() {
  const layer = $("rules-layer");
  const v = game.variant, n = game.size;
  layer.replaceChildren();
  layer.toggleAttribute("hidden", !v); // an SVG element has no `hidden` property
  $("rules").textContent = v ? rulesText(v) : "";
  if (!v) return;
  layer.setAttribute("viewBox", `0 0 ${n} ${n}`);
  const centre = (cell) => [(cell % n) + 0.5, Math.floor(cell / n) + 0.5];
  // Shading first, so that the lines drawn after it stay on top.
  for (const extra of v.extras.filter((e) => e.kind !== "diagonal")) {
    for (const cell of extra.cells) {
      layer.append(svgElement("rect", { class: `shade ${extra.kind}`, x: cell % n, y: Math.floor(cell / n), width: 1, height: 1 }));
    }
  }
  for (const extra of v.extras.filter((e) => e.kind === "diagonal")) {
    const down = extra.cells.includes(0);
    layer.append(svgElement("line", { class: "diagonal", x1: down ? 0 : n, y1: 0, x2: down ? n : 0, y2: n }));
  }
  for (const thermo of v.thermos) {
    const points = thermo.map((cell) => centre(cell).join(",")).join(" ");
    layer.append(svgElement("polyline", { class: "thermo", points }));
    const [x, y] = centre(thermo[0]);
    layer.append(svgElement("circle", { class: "thermo bulb", cx: x, cy: y, r: 0.36 }));
  }
  for (const cage of v.cages) {
    layer.append(svgElement("path", { class: "cage", d: cageOutline(cage.cells, n) }));
    if (cage.sum !== null) {
      const first = Math.min(...cage.cells);
      const [x, y] = [first % n, Math.floor(first / n)];
      const text = String(cage.sum);
      layer.append(svgElement("rect", { class: "cage-sum-back", x: x + 0.03, y: y + 0.03, width: 0.13 * text.length + 0.06, height: 0.26 }));
      layer.append(svgElement("text", { class: "cage-sum", x: x + 0.06, y: y + 0.24 }, text));
    }
  }
}

/// The dashed line just inside a cage's edge: a segment per cell side on
/// the edge, run on to meet its neighbours' at the corners.
function cageOutline(cells, n) {
  const inCage = new Set(cells);
  const has = (r, c) => r >= 0 && c >= 0 && r < n && c < n && inCage.has(r * n + c);
  const i = 0.08, parts = [];
  const end = (beside, diagonal, at, out) => (!beside ? at - out * i : diagonal ? at + out * i : at);
  for (const cell of cells) {
    const [r, c] = [Math.floor(cell / n), cell % n];
    if (!has(r - 1, c)) {
      const y = r + i;
      parts.push(`M${end(has(r, c - 1), has(r - 1, c - 1), c, -1)} ${y}H${end(has(r, c + 1), has(r - 1, c + 1), c + 1, 1)}`);
    }
    if (!has(r + 1, c)) {
      const y = r + 1 - i;
      parts.push(`M${end(has(r, c - 1), has(r + 1, c - 1), c, -1)} ${y}H${end(has(r, c + 1), has(r + 1, c + 1), c + 1, 1)}`);
    }
    if (!has(r, c - 1)) {
      const x = c + i;
      parts.push(`M${x} ${end(has(r - 1, c), has(r - 1, c - 1), r, -1)}V${end(has(r + 1, c), has(r + 1, c - 1), r + 1, 1)}`);
    }
    if (!has(r, c + 1)) {
      const x = c + 1 - i;
      parts.push(`M${x} ${end(has(r - 1, c), has(r - 1, c + 1), r, -1)}V${end(has(r + 1, c), has(r + 1, c + 1), r + 1, 1)}`);
    }
  }
  return parts.join("");
}

/// The variant's rules in a line: the base rule, then each extra one.
function rulesText(v) {
  const digits = `1–${[...game.symbols].pop()}`;
  const rules = [];
  if (!v.pieces) rules.push(`each row and column holds ${digits} once (there are no boxes)`);
  else if (!v.boxes) rules.push(`each row, column and outlined region holds ${digits} once`);
  else rules.push(`each row, column and box holds ${digits} once`);
  const has = (kind) => v.extras.some((e) => e.kind === kind);
  if (has("diagonal")) rules.push("so does each main diagonal");
  if (has("window")) rules.push("so does each shaded window");
  if (has("region")) rules.push("no digit repeats in a shaded region");
  if (v.cages.length) rules.push("digits in a dashed cage differ and add up to its small number");
  if (v.thermos.length) rules.push("digits increase from a thermometer's bulb");
  if (v.anti_knight) rules.push("cells a knight's move apart differ");
  if (v.anti_king) rules.push("cells a king's move apart (diagonally too) differ");
  if (v.non_consecutive) rules.push("side-by-side cells never hold consecutive digits");
  const name = v.name || "variant";
  return `${name[0].toUpperCase()}${name.slice(1)}: ${rules.join("; ")}.`;
}

/// Where a cell is among the variant's rules, for its label.
function placeOf(i) {
  const v = game.variant;
  if (!v) return "";
  const geometry = game.geometry;
  const words = [];
  if (v.pieces && !v.boxes) words.push(`region ${v.pieces[i] + 1}`);
  const k = geometry.cageOf[i];
  if (k >= 0) {
    const cage = geometry.cages[k];
    words.push(cage.sum === null ? `in a cage of ${cage.cells.length} cells`
      : `in a cage of ${cage.cells.length} cells adding up to ${cage.sum}`);
  }
  if (v.extras.some((e) => e.kind === "diagonal" && e.cells.includes(i))) words.push("on a diagonal");
  if (v.extras.some((e) => e.kind === "window" && e.cells.includes(i))) words.push("in a window");
  if (v.thermos.some((t) => t[0] === i)) words.push("a thermometer's bulb");
  else if (v.thermos.some((t) => t.includes(i))) words.push("on a thermometer");
  return words.length ? `, ${words.join(", ")}` : "";
}

/// The selected cell's killer cage and the ways its sum can be made.
function cageInfo() {
  const info = game.variant && game.cageCombinations(selected);
  if (!info) return "";
  const symbols = [...game.symbols];
  const ways = info.ways.map((w) => w.map((d) => symbols[d - 1]).join("")).join(", ");
  return `Cage ${info.sum} in ${info.cells}: ${ways || "no way left (a digit placed does not fit)"}`;
}

function render() {
  if (!game) return;
  if (drawn.game !== game) build();
  const { size } = game;
  const pieces = game.geometry.pieces;
  const cageHeads = new Set(game.geometry.cages.filter((c) => c.sum !== null).map((c) => Math.min(...c.cells)));
  const symbols = [...game.symbols];
  // Against the solution, a flagged cell may be repeated or just wrong.
  const flagged = game.flagged(settings.mistakes);
  const repeated = settings.mistakes === "solution" ? game.conflicts() : flagged;
  const wrong = checked.game === game && checked.rev === game.rev ? checked.wrong : new Set();
  const hintOn = hint.game === game && hint.rev === game.rev;
  const focus = settings.highlight ? ((settings.digitFirst && activeDigit) || game.cells[selected]) : 0;
  for (let i = 0; i < game.length; i++) {
    const el = drawn.cells[i], d = game.cells[i], given = game.given(i);
    const [r, c] = [Math.floor(i / size), i % size];
    const classes = ["cell"];
    if (given) classes.push("given");
    // The cell a cage's sum is written in: its corner marks move down.
    if (cageHeads.has(i)) classes.push("cage-head");
    // Thick lines between pieces: boxes, or a jigsaw's regions.
    if (pieces && c < size - 1 && pieces[i] !== pieces[i + 1]) classes.push("box-right");
    if (pieces && r < size - 1 && pieces[i] !== pieces[i + size]) classes.push("box-bottom");
    const peer = game.isPeer(i, selected);
    if (i !== selected && peer) classes.push("peer");
    if (focus && d === focus && i !== selected) classes.push("same");
    if (i === selected) classes.push("selected");
    const bad = flagged.has(i), miss = wrong.has(i);
    if (bad) classes.push("conflict");
    if (miss) classes.push("wrong");
    if (hintOn && hint.cells.has(i)) classes.push("hint-pattern");
    if (hintOn && hint.cell === i) classes.push("hinted");
    const corner = d ? [] : game.cornerMarks(i), centre = d ? [] : game.centreMarks(i);
    const name = (list) => list.map((m) => symbols[m - 1]).join(" ");
    let label = `row ${r + 1}, column ${c + 1}${placeOf(i)}: `;
    if (given) label += `given ${symbols[d - 1]}`;
    else if (d) label += symbols[d - 1];
    else label += "empty";
    if (corner.length) label += `, corner marks ${name(corner)}`;
    if (centre.length) label += `, centre marks ${name(centre)}`;
    if (bad) label += settings.mistakes === "solution" && game.solution && !repeated.has(i) ? ", a mistake" : ", repeated";
    if (miss) label += ", wrong";
    if (hintOn && (hint.cell === i || hint.cells.has(i))) label += ", in the hint";
    // The look of the cell, then what is inside it (redrawn only when its
    // digit, marks, or the highlighted digit among its marks change).
    const look = `${classes.join(" ")}|${label}`;
    if (el.look !== look) {
      el.look = look;
      el.className = classes.join(" ");
      el.setAttribute("aria-label", label);
      el.setAttribute("aria-selected", String(i === selected));
      if (given) el.setAttribute("aria-readonly", "true"); else el.removeAttribute("aria-readonly");
    }
    const marked = focus && (corner.includes(focus) || centre.includes(focus)) ? focus : 0;
    const inside = `${d}|${corner}|${centre}|${marked}`;
    if (el.inside === inside) continue;
    el.inside = inside;
    el.dataset.value = d;
    if (d) { el.textContent = symbols[d - 1]; continue; }
    const parts = [];
    if (corner.length) {
      const grid = document.createElement("div");
      grid.className = "marks";
      grid.setAttribute("aria-hidden", "true");
      for (let m = 1; m <= size; m++) {
        const span = document.createElement("span");
        if (corner.includes(m)) {
          span.className = m === focus ? "mark same" : "mark";
          span.dataset.mark = m;
          span.textContent = symbols[m - 1];
        }
        grid.append(span);
      }
      parts.push(grid);
    }
    if (centre.length) {
      const middle = document.createElement("div");
      middle.className = "centre";
      middle.setAttribute("aria-hidden", "true");
      for (const m of centre) {
        const span = element("span", symbols[m - 1]);
        span.dataset.centre = m;
        if (m === focus) span.className = "same";
        middle.append(span);
      }
      parts.push(middle);
    }
    el.replaceChildren(...parts);
  }
  const board = $("board");
  board.setAttribute("aria-activedescendant", `cell-${selected}`);
  board.classList.toggle("done", game.status !== "playing");
  const left = game.remaining();
  drawn.pad.forEach((b, k) => {
    const d = k + 1;
    b.lastChild.textContent = String(left[d]);
    b.classList.toggle("done", left[d] <= 0);
    b.setAttribute("aria-label", `${symbols[k]}, ${left[d]} left`);
    if (settings.digitFirst) b.setAttribute("aria-pressed", String(activeDigit === d)); else b.removeAttribute("aria-pressed");
  });
  for (const b of document.querySelectorAll(".mode")) b.setAttribute("aria-pressed", String(b.dataset.mode === mode));
  $("undo").disabled = !game.canUndo() && !stored(STORE.previous);
  $("redo").disabled = !game.canRedo() && !stored(STORE.next);
  const playing = game.status === "playing";
  for (const id of ["erase", "notes", "hint", "check", "solve"]) $(id).disabled = !playing;
  $("rewind").hidden = !(settings.mistakes === "solution" && game.solution && game.wrong().length);
  const kind = `${size}×${size} ${variantName(game)} ${game.grade}`.replace(/ +/g, " ").trim();
  const cage = cageInfo();
  if ($("cage-info").textContent !== cage) $("cage-info").textContent = cage;
  $("level").textContent = game.rating == null ? kind : `${kind}, rated ${game.rating.toFixed(1)}`;
  $("mistakes-count").textContent = settings.mistakes === "solution" ? `mistakes: ${game.mistakes}` : "";
  showTime();
}

function showTime() {
  if (!game) return;
  const text = formatTime(game.elapsed);
  if ($("timer").textContent !== text) $("timer").textContent = text;
}

function applySettings() {
  const root = document.documentElement;
  if (settings.theme === "system") delete root.dataset.theme; else root.dataset.theme = settings.theme;
  $("theme").setAttribute("aria-label", `colour theme: ${settings.theme} (press to change)`);
  $("theme").title = `Theme: ${settings.theme}`;
  $("size").value = String(settings.size);
  offerLevels();
}

/// The level menu offers what the chosen size (and variant) can make (all
/// levels until the server says); the variant menu shows only when the
/// server makes some variant, the size menu what that variant comes in.
function offerLevels() {
  const variantMenu = $("variant");
  const names = ["classic", ...variants.map((v) => v.variant)];
  if (variantMenu.options.length !== names.length) {
    variantMenu.replaceChildren(...names.map((name) => element("option", name)));
  }
  variantMenu.value = names.includes(settings.variant) ? settings.variant : "classic";
  // Shown from the first paint (the server makes variants), hidden only
  // once it says it makes none: showing it late shifted the page (CLS).
  $("variant-field").hidden = variantsKnown && names.length < 2;
  const chosen = variants.find((v) => v.variant === variantMenu.value);
  const sizes = chosen ? chosen.sizes : levels;
  for (const option of $("size").options) option.disabled = !!sizes && !sizes.some((s) => s.size === Number(option.value));
  if ($("size").selectedOptions[0] && $("size").selectedOptions[0].disabled && sizes && sizes.length) {
    $("size").value = String(sizes[0].size);
  }
  const size = Number($("size").value);
  const entry = sizes && sizes.find((s) => s.size === size);
  const offered = entry ? entry.levels : LEVELS;
  const select = $("difficulty");
  select.replaceChildren(...offered.map((level) => element("option", level)));
  select.value = offered.includes(settings.difficulty) ? settings.difficulty : offered[0];
}

async function fetchLevels() {
  try {
    const answer = await api("levels");
    if (Array.isArray(answer.variants)) { variants = answer.variants; variantsKnown = true; }
    if (Array.isArray(answer.sizes)) { levels = answer.sizes; offerLevels(); }
  } catch (e) { /* an older server: every level stays offered */ }
}

function openSettings() {
  const form = $("settings").querySelector("form");
  for (const input of form.querySelectorAll("input")) {
    if (input.type === "radio") input.checked = settings[input.name] === input.value;
    else input.checked = !!settings[input.name];
  }
  $("settings").showModal();
}

function changeSetting(input) {
  settings[input.name] = input.type === "checkbox" ? input.checked : input.value;
  saveSettings();
  applySettings();
  if (settings.mistakes === "solution" && game) fetchSolution(game);
  if (!settings.digitFirst) activeDigit = 0;
  render();
}

function openStats() {
  const rows = Object.entries(statistics.kinds).sort(([a], [b]) => a.localeCompare(b, "en", { numeric: true }));
  $("stats-rows").replaceChildren(...(rows.length ? rows.map(([kind, k]) => {
    const tr = document.createElement("tr");
    const cells = [kind, k.started, k.won, k.best == null ? "—" : formatTime(k.best),
      k.won ? formatTime(Math.round(k.total / k.won)) : "—"];
    tr.append(...cells.map((v) => element("td", String(v))));
    return tr;
  }) : [(() => { const tr = document.createElement("tr"); const td = element("td", "No games yet."); td.colSpan = 5; tr.append(td); return tr; })()]));
  const streak = Stats.currentStreak(statistics);
  $("streak").textContent = `Streak: ${streak} day${streak === 1 ? "" : "s"} with a win (best ${statistics.streak.best}).`;
  $("stats").showModal();
}

// The clock counts while the page is visible and the game is on; it is
// saved every few seconds and when the page is hidden or left.
function runClock() {
  const now = Date.now();
  if (game && !document.hidden) game.tick((now - lastTick) / 1000);
  lastTick = now;
}
setInterval(() => {
  runClock();
  showTime();
  if (++ticks % 5 === 0) saveGame();
}, 1000);
document.addEventListener("visibilitychange", () => {
  if (document.hidden) { game && game.tick((Date.now() - lastTick) / 1000); saveGame(); }
  lastTick = Date.now();
});
window.addEventListener("pagehide", () => { runClock(); saveGame(); });

// Another window of the page saved: take its game (the same game keeps
// the longer clock), settings or statistics, so no window overwrites
// another's newer game.
window.addEventListener("storage", (e) => {
  if (e.key === STORE.game && e.newValue) {
    let saved = null;
    try { saved = JSON.parse(e.newValue); } catch (error) { return; }
    const other = Game.load(saved);
    if (!other) return;
    const same = game && other.id === game.id;
    const board = (g) => JSON.stringify([g.cells, g.corner, g.centre, g.done.length, g.undone.length, g.status, g.solution]);
    if (same && board(other) === board(game)) {
      game.elapsed = Math.max(game.elapsed, other.elapsed);
      return;
    }
    if (same) other.elapsed = Math.max(other.elapsed, game.elapsed);
    game = other;
    if (selected >= game.length) selected = 0;
    dropNotes();
    if (game.status !== "won") closeDialog("win");
    render();
    say(same ? "updated from another window" : "another window started this game");
  } else if (e.key === STORE.settings) {
    settings = loadSettings(); applySettings(); render();
  } else if (e.key === STORE.stats) {
    statistics = Stats.read(readJSON(STORE.stats));
  }
});

// Keys.

function digitOfKey(e) {
  const code = /^(?:Digit|Numpad)(\d)$/.exec(e.code || "");
  const letter = /^Key([A-Z])$/.exec(e.code || "");
  let ch = e.key.length === 1 ? e.key : "";
  // Shift+1 is "!" and Alt+a may be "å": the key's place says the symbol.
  if ((e.shiftKey || e.altKey || e.ctrlKey) && code) ch = code[1];
  else if (e.altKey && letter) ch = letter[1];
  if (!ch) return 0;
  return game.symbols.toLowerCase().indexOf(ch.toLowerCase()) + 1;
}

document.addEventListener("keydown", (e) => {
  // Dialogs take the keys, but for Ctrl+Z and Ctrl+Y on the win screen.
  const dialog = document.querySelector("dialog[open]");
  if (!game || (dialog && !(dialog.id === "win" && (e.ctrlKey || e.metaKey)))) return;
  const target = e.target;
  if (target.closest && target.closest("textarea, select, input")) return;
  const onButton = target.closest && target.closest("button, summary");
  if (onButton && (e.key === " " || e.key === "Enter")) return;
  const key = e.key, ctrl = e.ctrlKey || e.metaKey;
  if (ctrl && key.toLowerCase() === "z") { if (e.shiftKey) redo(); else undo(); }
  else if (ctrl && key.toLowerCase() === "y") redo();
  else if (key.startsWith("Arrow") && !ctrl && !e.altKey) {
    const { size } = game;
    const [r, c] = [Math.floor(selected / size), selected % size];
    const [dr, dc] = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[key];
    selected = ((r + dr + size) % size) * size + ((c + dc + size) % size);
    render();
  } else {
    // Ctrl with a letter stays the browser's (copy, paste…); with a digit
    // it writes a centre mark, as Alt does with either.
    const d = e.metaKey || (e.ctrlKey && !/^(Digit|Numpad)\d$/.test(e.code || "")) ? 0 : digitOfKey(e);
    if (d > 0) write(selected, d, e.shiftKey ? "corner" : e.ctrlKey || e.altKey ? "centre" : mode);
    else if (ctrl || e.altKey) return;
    else if (["Backspace", "Delete", "0", "."].includes(key)) write(selected, 0);
    else if (key === " " && e.shiftKey) setMode(mode === "centre" ? "digit" : "centre");
    else if (key === " " || key === "p") setMode(mode === "corner" ? "digit" : "corner");
    else if (key === "?" || key === "h") askHint();
    else if (key === "Escape") { dropNotes(); render(); say(""); }
    else return;
  }
  e.preventDefault();
});

function setMode(next) { mode = next; render(); }

// Pointer and buttons.

$("board").addEventListener("click", (e) => {
  const cell = e.target.closest(".cell");
  if (!cell || !game) return;
  selected = Number(cell.dataset.cell);
  if (settings.digitFirst && activeDigit && !game.given(selected)) write(selected, activeDigit);
  render();
  $("board").focus({ preventScroll: true });
});
$("pad").addEventListener("click", (e) => {
  const button = e.target.closest(".pad");
  if (!button || !game) return;
  const d = Number(button.dataset.digit);
  if (settings.digitFirst) { activeDigit = activeDigit === d ? 0 : d; render(); } else write(selected, d);
});
$("new").addEventListener("click", () => newGame());
$("undo").addEventListener("click", undo);
$("redo").addEventListener("click", redo);
$("erase").addEventListener("click", () => write(selected, 0));
for (const b of document.querySelectorAll(".mode")) b.addEventListener("click", () => setMode(b.dataset.mode));
$("notes").addEventListener("click", autoNotes);
$("hint").addEventListener("click", askHint);
$("check").addEventListener("click", check);
$("solve").addEventListener("click", solve);
$("rewind").addEventListener("click", rewind);
$("import").addEventListener("click", () => importPuzzle($("import-text").value));
$("share").addEventListener("click", share);
$("print").addEventListener("click", () => window.print());
$("stats-open").addEventListener("click", openStats);
$("settings-open").addEventListener("click", openSettings);
$("settings").addEventListener("change", (e) => changeSetting(e.target));
$("theme").addEventListener("click", () => {
  const order = ["system", "light", "dark"];
  settings.theme = order[(order.indexOf(settings.theme) + 1) % order.length];
  saveSettings(); applySettings();
  say(`theme: ${settings.theme}`);
});
$("size").addEventListener("change", () => { settings.size = Number($("size").value); saveSettings(); offerLevels(); });
$("difficulty").addEventListener("change", () => { settings.difficulty = $("difficulty").value; saveSettings(); });
$("variant").addEventListener("change", () => { settings.variant = $("variant").value; saveSettings(); offerLevels(); });
$("win").addEventListener("close", () => { if ($("win").returnValue === "new") newGame(false); else $("board").focus(); });

// For tests and the curious: the game as the page has it.
window.coverPlay = {
  state: () => game && {
    size: game.size, box: game.box, symbols: game.symbols, variant: game.variant, text: game.text, puzzle: game.puzzle.slice(), cells: game.cells.slice(),
    marks: game.cells.map((_, i) => game.cornerMarks(i)), centre: game.cells.map((_, i) => game.centreMarks(i)),
    selected, mode, pencil: mode === "corner", hinted: hint.game === game && hint.rev === game.rev ? hint.cell : -1,
    elapsed: game.elapsed, status: game.status, won: game.status === "won", solved: game.status === "revealed",
    undo: game.done.length, redo: game.undone.length, mistakes: game.mistakes, hints: game.hints, grade: game.grade,
    rating: game.rating, id: game.id, rev: game.rev, settings: { ...settings }, saveFailed,
  },
};

// A link with a puzzle (`/?p=…`) starts that game, unless it is the game
// already in play; otherwise the saved game comes back, or a new one.
async function boot() {
  applySettings();
  fetchLevels();
  const saved = Game.load(readJSON(STORE.game));
  const shared = new URLSearchParams(location.search).get("p");
  if (shared) history.replaceState(null, "", location.pathname);
  if (saved) {
    adopt(saved, saved.status === "won" ? `Solved in ${formatTime(saved.elapsed)}.` : "");
    if (settings.mistakes === "solution") fetchSolution(saved);
  }
  if (shared && !(saved && saved.puzzleText() === shared)) {
    if (await importPuzzle(shared, "the puzzle of the link")) return;
  }
  if (!saved && !game) await newGame(false);
}
boot();
