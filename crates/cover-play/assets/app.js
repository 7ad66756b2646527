// cover play: the page. All puzzle work is the server's (/api/...); this
// file draws the board, takes keys and clicks, keeps undo history and
// saves the game in localStorage so a reload keeps it.
"use strict";

const KEY = "cover-play-game";
let game = null; // {size, box, symbols, puzzle, cells, marks, undo, redo, elapsed, solved, won}
let selected = 0;
let pencil = false;
let hinted = -1; // the cell a hint points at
let hintCells = new Set(); // the pattern a hint highlights
let hintLevel = 0; // how much of the current hint is shown (1 nudge, 2 pattern, 3 all)
let hintAnswer = null; // the hint for the board on screen, asked once
let wrong = new Set();
let lastTick = null;

const $ = (id) => document.getElementById(id);

async function api(path, body) {
  const response = await fetch("/api/" + path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({ error: "the server sent no JSON" }));
  if (!response.ok) throw new Error(answer.error || response.statusText);
  return answer;
}

function say(text) { $("message").textContent = text; }

function start(answer) {
  game = { size: answer.size, box: answer.box, symbols: answer.symbols, puzzle: answer.puzzle,
    cells: answer.puzzle.slice(), marks: answer.puzzle.map(() => []), undo: [], redo: [],
    elapsed: 0, solved: false, won: false };
  selected = 0; hinted = -1; hintCells = new Set(); hintAnswer = null; wrong = new Set();
  $("win").hidden = true;
  save(); render();
  document.body.dataset.ready = "1";
}

async function newGame() {
  say("generating…");
  try {
    const answer = await api("new", { size: Number($("size").value), difficulty: $("difficulty").value });
    start(answer);
    say(answer.target_met ? `a ${answer.grade} puzzle, ${answer.clues} clues`
      : `no ${$("difficulty").value} puzzle came out; this one is ${answer.grade}`);
  } catch (e) { say(e.message); }
}

// Which cells repeat a digit in their row, column or box.
function conflicts() {
  const { size, box, cells } = game, bad = new Set();
  for (let a = 0; a < cells.length; a++) {
    if (!cells[a]) continue;
    for (let b = a + 1; b < cells.length; b++) {
      if (cells[a] === cells[b] && peers(a, b, size, box)) { bad.add(a); bad.add(b); }
    }
  }
  return bad;
}

function peers(a, b, size, box) {
  const [ra, ca, rb, cb] = [Math.floor(a / size), a % size, Math.floor(b / size), b % size];
  return ra === rb || ca === cb ||
    (Math.floor(ra / box) === Math.floor(rb / box) && Math.floor(ca / box) === Math.floor(cb / box));
}

function render() {
  const board = $("board"), { size, box, symbols, cells, puzzle, marks } = game;
  board.style.gridTemplateColumns = `repeat(${size}, 1fr)`;
  const bad = conflicts();
  board.replaceChildren(...cells.map((d, i) => {
    const cell = document.createElement("div");
    const [r, c] = [Math.floor(i / size), i % size];
    cell.className = "cell";
    cell.setAttribute("role", "gridcell");
    cell.id = "cell-" + i;
    cell.dataset.cell = i;
    cell.dataset.value = d;
    cell.setAttribute("aria-label", `row ${r + 1} column ${c + 1}, ${d ? symbols[d - 1] : "empty"}`);
    if (puzzle[i]) cell.classList.add("given");
    if (c % box === box - 1 && c < size - 1) cell.classList.add("box-right");
    if (r % box === box - 1 && r < size - 1) cell.classList.add("box-bottom");
    if (i !== selected && peers(i, selected, size, box)) cell.classList.add("peer");
    if (d && d === cells[selected] && i !== selected) cell.classList.add("same");
    if (i === selected) { cell.classList.add("selected"); cell.setAttribute("aria-selected", "true"); }
    if (bad.has(i)) cell.classList.add("conflict");
    if (wrong.has(i)) cell.classList.add("wrong");
    if (i === hinted) cell.classList.add("hinted");
    if (hintCells.has(i)) cell.classList.add("hint-pattern");
    if (d) cell.textContent = symbols[d - 1];
    else if (marks[i].length) {
      const grid = document.createElement("div");
      grid.className = "marks";
      grid.style.gridTemplateColumns = `repeat(${box}, 1fr)`;
      for (let m = 1; m <= size; m++) {
        const span = document.createElement("span");
        if (marks[i].includes(m)) { span.className = "mark"; span.dataset.mark = m; span.textContent = symbols[m - 1]; }
        grid.append(span);
      }
      cell.append(grid);
    }
    cell.addEventListener("click", () => { selected = i; render(); board.focus(); });
    return cell;
  }));
  board.setAttribute("aria-activedescendant", "cell-" + selected);
  $("pad").replaceChildren(...[...Array(size + 1).keys()].map((d) => {
    const b = document.createElement("button");
    b.className = "pad"; b.dataset.digit = d; b.textContent = d ? symbols[d - 1] : "⌫";
    b.addEventListener("click", () => input(d));
    return b;
  }));
  $("pencil").setAttribute("aria-pressed", String(pencil));
  showTime();
}

// One undoable change: the cells and marks before it.
function change(apply) {
  game.undo.push({ cells: game.cells.slice(), marks: game.marks.map((m) => m.slice()) });
  game.redo = [];
  apply();
  wrong = new Set(); hinted = -1; hintCells = new Set(); hintAnswer = null;
  say(""); // a hint or a check is about the board before this change
  save(); render(); maybeWon();
}

function input(d) {
  if (!game || game.puzzle[selected] || game.won || game.solved) return;
  const i = selected;
  if (pencil && d) {
    change(() => {
      const m = game.marks[i];
      game.marks[i] = m.includes(d) ? m.filter((x) => x !== d) : [...m, d].sort((a, b) => a - b);
    });
  } else {
    change(() => {
      game.cells[i] = d;
      if (d) {
        // Entering a digit takes it out of the peers' pencil marks.
        game.marks[i] = [];
        game.marks.forEach((m, j) => { if (peers(i, j, game.size, game.box)) game.marks[j] = m.filter((x) => x !== d); });
      }
    });
  }
}

function step(from, to) {
  if (!game || !game[from].length) return;
  game[to].push({ cells: game.cells.slice(), marks: game.marks.map((m) => m.slice()) });
  const state = game[from].pop();
  game.cells = state.cells; game.marks = state.marks;
  wrong = new Set(); hinted = -1; hintCells = new Set(); hintAnswer = null;
  save(); render();
}

async function maybeWon() {
  if (game.cells.includes(0) || conflicts().size) return;
  try {
    const answer = await api("check", { puzzle: game.puzzle, cells: game.cells });
    if (answer.solved && !game.solved) {
      game.won = true; save();
      $("win").hidden = false;
      $("win").textContent = `Solved in ${formatTime(game.elapsed)}!`;
    } else if (!answer.solved) { wrong = new Set(answer.wrong); render(); say("not the solution yet"); }
  } catch (e) { say(e.message); }
}

// Each press of Hint on the same board shows more: where to look, then the
// technique and its pattern, then the whole step (and the digit it leads to).
async function hint() {
  try {
    if (!hintAnswer) {
      hintAnswer = await api("hint", { puzzle: game.puzzle, cells: game.cells, symbols: game.symbols });
      hintLevel = 0;
    }
    const a = hintAnswer;
    if (a.kind !== "step") {
      hinted = a.cell ?? -1;
      if (hinted >= 0) selected = hinted;
      say(a.text); render();
      return;
    }
    hintLevel = Math.min(hintLevel + 1, 3);
    const unitCells = (u) => {
      const { size, box } = game, out = [];
      for (let k = 0; k < size; k++) {
        if (u < size) out.push(u * size + k);
        else if (u < 2 * size) out.push(k * size + (u - size));
        else { const b = u - 2 * size; out.push((Math.floor(b / box) * box + Math.floor(k / box)) * size + (b % box) * box + (k % box)); }
      }
      return out;
    };
    if (hintLevel === 1) {
      hintCells = new Set(a.units.length ? unitCells(a.units[0]) : a.cells);
      say(a.nudge + " (Hint again for more)");
    } else if (hintLevel === 2) {
      hintCells = new Set(a.cells);
      say(`${a.pattern} (rated ${a.rating.toFixed(1)}; Hint again for the whole step)`);
    } else {
      hintCells = new Set([...a.cells, ...a.eliminations.map((e) => e.cell)]);
      const target = a.cell ?? (a.then ? a.then.cell : null);
      if (target !== null) { hinted = target; selected = target; }
      say(a.text + (a.then ? `. Then: ${a.then.text}` : ""));
    }
    render();
  } catch (e) { say(e.message); }
}

async function check() {
  try {
    const answer = await api("check", { puzzle: game.puzzle, cells: game.cells });
    wrong = new Set(answer.wrong);
    render();
    say(answer.solved ? "solved" : answer.wrong.length ? `${answer.wrong.length} wrong` : "nothing wrong so far");
  } catch (e) { say(e.message); }
}

async function solve() {
  try {
    const answer = await api("solve", { puzzle: game.puzzle });
    change(() => { game.cells = answer.solution; game.solved = true; });
    say("solved by the computer");
  } catch (e) { say(e.message); }
}

async function importPuzzle() {
  try {
    start(await api("import", { text: $("import-text").value }));
    say("imported");
  } catch (e) { say(e.message); }
}

function save() { if (game) localStorage.setItem(KEY, JSON.stringify(game)); }

function load() {
  try { game = JSON.parse(localStorage.getItem(KEY)); } catch (e) { game = null; }
  if (game && Array.isArray(game.cells)) {
    render(); document.body.dataset.ready = "1";
    if (game.won) { $("win").hidden = false; $("win").textContent = `Solved in ${formatTime(game.elapsed)}!`; }
  } else newGame();
}

function formatTime(seconds) {
  const s = Math.floor(seconds), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, r = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${r}` : `${m}:${r}`;
}

function showTime() { if (game) $("timer").textContent = formatTime(game.elapsed); }

// The timer counts only while the tab is visible and the game is on.
setInterval(() => {
  const now = Date.now();
  if (game && !game.won && !game.solved && !document.hidden && lastTick) game.elapsed += (now - lastTick) / 1000;
  lastTick = now;
  showTime();
  save();
}, 1000);
document.addEventListener("visibilitychange", () => { lastTick = Date.now(); });

document.addEventListener("keydown", (e) => {
  if (!game || e.target.closest("textarea, select")) return;
  const { size, symbols } = game, key = e.key;
  if ((e.ctrlKey || e.metaKey) && key.toLowerCase() === "z") { step(e.shiftKey ? "redo" : "undo", e.shiftKey ? "undo" : "redo"); }
  else if ((e.ctrlKey || e.metaKey) && key.toLowerCase() === "y") step("redo", "undo");
  else if (e.ctrlKey || e.metaKey || e.altKey) return;
  else if (key.startsWith("Arrow")) {
    const [r, c] = [Math.floor(selected / size), selected % size];
    const [dr, dc] = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[key];
    selected = ((r + dr + size) % size) * size + (c + dc + size) % size;
    render();
  } else {
    // A symbol first: an imported 16×16 may write "0" or "p" as a digit.
    const d = key.length === 1 ? symbols.toLowerCase().indexOf(key.toLowerCase()) + 1 : 0;
    if (d > 0) input(d);
    else if (["Backspace", "Delete", "0", "."].includes(key)) input(0);
    else if (key === " " || key === "p") { pencil = !pencil; render(); }
    else if (key === "?" || key === "h") hint();
    else return;
  }
  e.preventDefault();
});

$("new").addEventListener("click", newGame);
$("undo").addEventListener("click", () => step("undo", "redo"));
$("redo").addEventListener("click", () => step("redo", "undo"));
$("pencil").addEventListener("click", () => { pencil = !pencil; render(); });
$("hint").addEventListener("click", hint);
$("check").addEventListener("click", check);
$("solve").addEventListener("click", solve);
$("import").addEventListener("click", importPuzzle);

// For tests and the curious: the game as saved, and what is on screen.
window.coverPlay = {
  state: () => JSON.parse(JSON.stringify({ ...game, undo: undefined, redo: undefined, selected, pencil, hinted })),
};
load();
