// Unit tests of the game model (assets/model.js), run by Node's own test
// runner: `node --test crates/cover-play/tests/js/` (tests/model.rs runs
// it under `cargo test`).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { Game, stats, HISTORY_LIMIT } = require("../../assets/model.js");

const digits = (text) => [...text].map((c) => (c === "." ? 0 : Number(c)));
const CLASSIC = digits("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79");
const SOLUTION = digits("534678912672195348198342567859761423426853791713924856961537284287419635345286179");
const classic = (extra = {}) => new Game({ size: 9, box: 3, symbols: "123456789", puzzle: CLASSIC, grade: "easy", ...extra });
const empties = (game) => game.cells.flatMap((d, c) => (d ? [] : [c]));

/// Plays the solution into every empty cell but the last; answers that cell.
function allButOne(game) {
  const cells = empties(game);
  for (const c of cells.slice(0, -1)) assert.ok(game.set(c, SOLUTION[c]));
  return cells[cells.length - 1];
}

test("a new game refuses what is not a grid", () => {
  assert.throws(() => new Game({ size: 9, box: 3, symbols: "12345678", puzzle: CLASSIC }));
  assert.throws(() => new Game({ size: 9, box: 3, symbols: "123456789", puzzle: CLASSIC.slice(1) }));
  assert.throws(() => new Game({ size: 8, box: 3, symbols: "12345678", puzzle: Array(64).fill(0) }));
  assert.throws(() => new Game({ size: 9, box: 3, symbols: "123456789", puzzle: CLASSIC.map((d) => d + 10) }));
});

test("givens cannot change, and conflicts are the repeated digits", () => {
  const game = classic();
  assert.equal(game.set(0, 1), false, "a given");
  assert.equal(game.set(2, 5), true);
  assert.deepEqual([...game.conflicts()].sort((a, b) => a - b), [0, 2]);
  assert.equal(game.set(2, 5), false, "the same digit again changes nothing");
  assert.equal(game.set(2, 4), true);
  assert.equal(game.conflicts().size, 0);
});

test("the win is judged on the board as it stands, and undo after a win plays on", () => {
  const game = classic();
  const last = allButOne(game);
  assert.equal(game.status, "playing");
  game.set(last, SOLUTION[last]);
  assert.equal(game.status, "won");
  assert.equal(game.set(last, 0), false, "a won board takes no keys");
  // Bug 1: undo after the win empties the cell and the game goes on.
  assert.ok(game.undo());
  assert.equal(game.status, "playing");
  assert.equal(game.cells[last], 0);
  assert.ok(game.set(last, SOLUTION[last] % 9 + 1), "typing works again");
  assert.equal(game.status, "playing", "a wrong last digit is no win");
  assert.ok(game.undo());
  assert.equal(game.canRedo(), true);
  // Bug 3: the win is judged as the last digit goes in, so a Backspace
  // just after it finds a won board, not a win over an empty cell.
  game.set(last, SOLUTION[last]);
  assert.equal(game.status, "won");
  assert.equal(game.set(last, 0), false);
  assert.equal(game.cells[last], SOLUTION[last]);
  game.undo();
  game.redo();
  assert.equal(game.status, "won", "redo wins again");
});

test("Solve is one move: undone, the puzzle plays on and the clock runs", () => {
  const game = classic();
  game.set(2, 4);
  game.tick(5);
  assert.ok(game.reveal(SOLUTION));
  assert.equal(game.status, "revealed");
  game.tick(5);
  assert.equal(game.elapsed, 5, "the clock stops at a reveal");
  assert.ok(game.undo());
  assert.equal(game.status, "playing");
  assert.deepEqual(game.cells.filter((d) => d).length, CLASSIC.filter((d) => d).length + 1);
  assert.ok(game.set(3, 6), "typing works after undoing Solve (bug 2)");
  game.tick(5);
  assert.equal(game.elapsed, 10, "and the clock runs");
  assert.equal(game.assisted, true, "a game once revealed stays assisted");
  assert.equal(game.reveal(SOLUTION.map((d, c) => (c === 0 ? 9 : d))), false, "a 'solution' that changes a given");
});

test("marks: corner and centre, not in filled cells, cleaned from peers and restored by undo", () => {
  const game = classic();
  assert.ok(game.toggleCorner(2, 1));
  assert.ok(game.toggleCorner(2, 2));
  assert.ok(game.toggleCentre(2, 4));
  assert.deepEqual(game.cornerMarks(2), [1, 2]);
  assert.deepEqual(game.centreMarks(2), [4]);
  assert.equal(game.toggleCorner(0, 1), false, "not in a given");
  game.set(3, 6);
  assert.equal(game.toggleCorner(3, 1), false, "not in a filled cell (bug 9)");
  game.set(3, 0);
  assert.deepEqual(game.cornerMarks(3), [], "no marks come back when it is cleared");
  // Entering 2 in a peer of cell 2 takes 2 out of its marks; undo puts it back.
  assert.ok(game.set(11, 2));
  assert.deepEqual(game.cornerMarks(2), [1]);
  game.undo();
  assert.deepEqual(game.cornerMarks(2), [1, 2]);
  game.redo();
  assert.deepEqual(game.cornerMarks(2), [1], "redo cleans again");
  game.undo();
  // Without auto-clean the marks stay.
  game.set(11, 2, { autoClean: false });
  assert.deepEqual(game.cornerMarks(2), [1, 2]);
  // Backspace on an empty cell with marks clears the marks.
  assert.ok(game.set(2, 0));
  assert.deepEqual([game.cornerMarks(2), game.centreMarks(2)], [[], []]);
});

test("auto-notes fill each empty cell's candidates, as one move", () => {
  const game = classic();
  assert.ok(game.fillNotes());
  assert.deepEqual(game.cornerMarks(2), [1, 2, 4]);
  assert.equal(game.fillNotes(), false, "twice changes nothing");
  for (const c of empties(game)) assert.ok(game.cornerMarks(c).includes(SOLUTION[c]), `cell ${c}`);
  game.undo();
  assert.ok(empties(game).every((c) => game.corner[c] === 0));
});

test("mistakes: flagged by the setting, counted, and undone back to the last correct state", () => {
  const game = classic({ solution: SOLUTION });
  game.set(2, 4, { mistakes: "solution" });
  game.set(3, 2, { mistakes: "solution" }); // the solution's is 6
  game.set(5, 6, { mistakes: "solution" }); // the solution's is 8
  assert.equal(game.mistakes, 2);
  assert.deepEqual([...game.flagged("off")], []);
  assert.deepEqual([...game.flagged("conflicts")], []);
  assert.ok(game.flagged("solution").has(3) && game.flagged("solution").has(5));
  assert.equal(game.flagged("solution").has(2), false);
  assert.equal(game.undoToCorrect(), 2);
  assert.deepEqual(game.wrong(), []);
  assert.equal(game.cells[2], 4, "the correct entry stays");
});

test("history is bounded, and a 16×16 full of marks saves small (bug 4)", () => {
  const game = new Game({ size: 16, box: 4, symbols: "123456789ABCDEFG", puzzle: Array(256).fill(0) });
  for (let round = 0; round < 8; round++) {
    for (let c = 0; c < 256; c++) game.toggleCorner(c, (round % 16) + 1);
  }
  game.fillNotes();
  assert.ok(game.done.length >= 2000);
  const text = JSON.stringify(game.save());
  assert.ok(text.length < 250000, `${text.length} characters`);
  for (let n = 0; n < 20000; n++) game.toggleCentre(n % 256, (n % 16) + 1);
  const total = game.done.reduce((n, m) => n + m.length, 0);
  assert.ok(total <= HISTORY_LIMIT, `${total} numbers of history`);
  assert.ok(JSON.stringify(game.save()).length < 600000);
  assert.ok(game.undo(), "what is kept still undoes");
});

test("a saved game loads back whole, and a damaged one does not load", () => {
  const game = classic();
  game.toggleCorner(2, 1);
  game.set(3, 6);
  game.tick(12.5);
  const saved = JSON.parse(JSON.stringify(game.save()));
  const back = Game.load(saved);
  assert.deepEqual(back.save(), game.save());
  back.undo();
  assert.equal(back.cells[3], 0);
  back.undo();
  assert.deepEqual(back.cornerMarks(2), []);
  assert.equal(Game.load({ ...saved, format: 1 }), null);
  assert.equal(Game.load({ ...saved, cells: saved.cells.slice(1) }), null);
  assert.equal(Game.load({ ...saved, cells: saved.cells.map((d, c) => (c === 0 ? 1 : d)) }), null, "a given changed");
  assert.equal(Game.load({ ...saved, corner: saved.corner.map(() => -1) }), null);
  assert.equal(Game.load({ ...saved, done: [["x"]] }), null);
  assert.equal(Game.load(null), null);
  assert.equal(Game.load("nonsense"), null);
  const won = classic();
  allButOne(won);
  won.set(empties(won)[0], SOLUTION[empties(won)[0]]);
  assert.equal(Game.load(JSON.parse(JSON.stringify(won.save()))).status, "won");
});

test("the puzzle as a line, for links", () => {
  assert.equal(classic().puzzleText(), "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79");
  const hex = new Game({ size: 16, box: 4, symbols: "0123456789ABCDEF", puzzle: [1, 16].concat(Array(254).fill(0)) });
  assert.ok(hex.puzzleText().startsWith("0F.."));
});

test("statistics: wins once, not by Solve, best and average, and a streak of days", () => {
  let s = stats.read(null);
  const day = (d, h = 12) => new Date(2026, 11, d, h).getTime();
  const win = (seconds, when) => {
    const game = classic();
    stats.recordStart(s, 9, "easy");
    game.tick(seconds);
    allButOne(game);
    game.set(empties(game)[0], SOLUTION[empties(game)[0]]);
    assert.ok(stats.recordWin(s, game, when));
    assert.equal(stats.recordWin(s, game, when), false, "once only");
    return game;
  };
  win(300, day(1));
  win(100, day(1, 20));
  win(200, day(2));
  const revealed = classic();
  revealed.reveal(SOLUTION);
  assert.equal(stats.recordWin(s, revealed, day(3)), false);
  let sum = stats.summary(s, 9, "easy", day(3));
  assert.deepEqual([sum.started, sum.won, sum.best, sum.average, sum.streak, sum.bestStreak], [3, 3, 100, 200, 2, 2]);
  assert.equal(stats.summary(s, 9, "easy", day(4)).streak, 0, "a day missed ends the streak");
  win(50, day(5));
  sum = stats.summary(s, 9, "easy", day(5));
  assert.deepEqual([sum.streak, sum.bestStreak, sum.best], [1, 2, 50]);
  // Across a month's end.
  s = stats.read({ format: 1, kinds: {}, streak: { current: 4, best: 4, last: "2026-11-30" } });
  win(10, new Date(2026, 11, 1, 9).getTime());
  assert.equal(s.streak.current, 5);
  assert.deepEqual(stats.read({ format: 9 }), stats.empty());
});
