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

// Variants: the rules come from the game's variant, not from formulas.

// A 4×4 jigsaw: pieces drawn row by row.
const JIGSAW_PIECES = [0, 0, 0, 1, 2, 2, 0, 1, 2, 3, 1, 1, 2, 3, 3, 3];
const JIGSAW_SOLUTION = [1, 2, 3, 4, 2, 1, 4, 3, 3, 4, 1, 2, 4, 3, 2, 1];
const jigsaw = (variant = {}, puzzle = Array(16).fill(0)) => new Game({
  size: 4, box: 2, symbols: "1234", puzzle,
  variant: { name: "jigsaw", pieces: JIGSAW_PIECES, boxes: false, extras: [], cages: [], thermos: [], ...variant },
});

test("a variant's units are its pieces, extra regions and cages, and its peers follow them", () => {
  const game = jigsaw({ extras: [{ kind: "diagonal", cells: [0, 5, 10, 15] }], cages: [{ cells: [12, 13], sum: 7 }] });
  const { units } = game.geometry;
  // Rows, columns, four pieces, the diagonal, the cage: the server's numbering.
  assert.equal(units.length, 4 + 4 + 4 + 1 + 1);
  assert.deepEqual(units[8], [0, 1, 2, 6]);
  assert.deepEqual(units[12], [0, 5, 10, 15]);
  assert.deepEqual(units[13], [12, 13]);
  assert.ok(game.isPeer(2, 6), "same piece, not the same box of a classic 4×4");
  assert.ok(game.isPeer(0, 5), "the diagonal");
  assert.ok(!game.isPeer(2, 5), "neither row, column, piece nor diagonal");
  // A digit entered leaves the marks of its piece's cells.
  game.toggleCorner(6, 3);
  game.toggleCorner(5, 3);
  game.set(2, 3);
  assert.deepEqual(game.cornerMarks(6), [], "same piece");
  assert.deepEqual(game.cornerMarks(5), [3], "not a peer");
});

test("conflicts cover pieces, cages (repeat and sum), pair rules, non-consecutive and thermometers", () => {
  const conflicts = (game) => [...game.conflicts()].sort((a, b) => a - b);
  let game = jigsaw();
  game.set(2, 1); game.set(6, 1);
  assert.deepEqual(conflicts(game), [2, 6], "a repeat in a jigsaw piece");

  game = jigsaw({ cages: [{ cells: [12, 13], sum: 7 }] });
  game.set(12, 2);
  assert.deepEqual(conflicts(game), [], "a cage not full says nothing of its sum");
  game.set(13, 4);
  assert.deepEqual(conflicts(game), [12, 13], "2 + 4 is not 7");
  game.set(13, 5 - 1);
  game.set(12, 3);
  assert.deepEqual(conflicts(game), []);

  game = jigsaw({ anti_knight: true });
  game.set(0, 2); game.set(7, 3); game.set(9, 2);
  assert.deepEqual(conflicts(game), [0, 9], "r1c1 and r3c2 are a knight's move apart");
  game = jigsaw({ anti_king: true });
  game.set(0, 3); game.set(5, 3);
  assert.deepEqual(conflicts(game), [0, 5]);
  game = jigsaw({ non_consecutive: true });
  game.set(0, 2); game.set(1, 3);
  assert.deepEqual(conflicts(game), [0, 1]);
  game = jigsaw({ thermos: [[12, 8, 4]] });
  game.set(12, 3); game.set(4, 2);
  assert.deepEqual(conflicts(game), [4, 12], "the bulb must be the smallest");
});

test("auto notes take the variant's rules, and a variant game is won on its own rules", () => {
  const game = jigsaw({ anti_king: true, thermos: [[12, 8, 4]] });
  game.set(2, 3);
  game.set(3, 4);
  assert.ok(game.fillNotes());
  assert.deepEqual(game.cornerMarks(6), [1, 2], "its piece holds 3, its column 4");
  assert.deepEqual(game.cornerMarks(7), [1, 2], "its column holds 4, a king's move away 3");
  assert.deepEqual(game.cornerMarks(12), [1, 2], "a bulb of three cells is at most 2");
  assert.deepEqual(game.cornerMarks(4), [3, 4], "the tip of three cells is at least 3");
  assert.deepEqual(game.cornerMarks(8), [2, 3], "the middle of three cells is 2 or 3");
  const plain = jigsaw();
  JIGSAW_SOLUTION.forEach((d, cell) => plain.set(cell, d));
  assert.equal(plain.status, "won");
  const broken = jigsaw({ cages: [{ cells: [0, 1], sum: 4 }] });
  JIGSAW_SOLUTION.forEach((d, cell) => broken.set(cell, d));
  assert.equal(broken.status, "playing", "1 + 2 is not 4: no win");
});

test("a killer cage's combinations leave out what the digits placed rule out", () => {
  const game = jigsaw({ cages: [{ cells: [12, 13], sum: 5 }, { cells: [14, 15], sum: null }] });
  assert.deepEqual(game.cageCombinations(12), { sum: 5, cells: 2, ways: [[1, 4], [2, 3]] });
  game.set(13, 3);
  assert.deepEqual(game.cageCombinations(12).ways, [[2, 3]]);
  assert.equal(game.cageCombinations(14), null, "no sum");
  assert.equal(game.cageCombinations(0), null, "no cage");
  // Auto notes keep a cage's cells to the digits of its ways.
  const notes = jigsaw({ cages: [{ cells: [12, 13], sum: 3 }] });
  assert.ok(notes.fillNotes());
  assert.deepEqual(notes.cornerMarks(12), [1, 2], "3 is 1 + 2");
  assert.deepEqual(notes.cornerMarks(13), [1, 2]);
  assert.deepEqual(notes.cornerMarks(14), [1, 2, 3, 4], "not in the cage");
});

test("a variant saves with its rules and text, and a classic game saved before variants still loads", () => {
  const game = jigsaw({ cages: [{ cells: [12, 13], sum: 7 }] });
  game.text = "a text to share";
  game.set(0, 1);
  const saved = JSON.parse(JSON.stringify(game.save()));
  assert.equal(saved.format, 3);
  const back = Game.load(saved);
  assert.deepEqual(back.save(), game.save());
  assert.deepEqual(back.variant.pieces, JIGSAW_PIECES);
  assert.equal(back.puzzleText(), "a text to share");
  assert.equal(Game.load({ ...saved, variant: { ...saved.variant, pieces: [0, 1] } }), null, "damaged pieces");
  assert.equal(Game.load({ ...saved, format: 2 }), null, "format 2 had no variants");

  // Format 2, as the page saved a classic game before variants.
  const old = classic().save();
  delete old.variant;
  delete old.text;
  old.format = 2;
  old.cells = old.cells.slice();
  old.cells[2] = 4;
  const loaded = Game.load(JSON.parse(JSON.stringify(old)));
  assert.ok(loaded, "a classic save of format 2 loads");
  assert.equal(loaded.variant, null);
  assert.equal(loaded.cells[2], 4);
  assert.equal(loaded.puzzleText(), classic().puzzleText());
  assert.equal(loaded.save().format, 3);
});

test("a variant that does not fit its grid is refused", () => {
  assert.throws(() => jigsaw({ pieces: [0, 1, 2] }));
  assert.throws(() => jigsaw({ pieces: Array(16).fill(0) }), "a piece of 16 cells");
  assert.throws(() => jigsaw({ cages: [{ cells: [0, 99], sum: 3 }] }));
  assert.throws(() => jigsaw({ cages: [{ cells: [0, 0], sum: 3 }] }));
  assert.throws(() => jigsaw({ thermos: "no" }));
  assert.throws(() => new Game({ size: 6, box: 3, symbols: "123456", puzzle: Array(36).fill(0) }), "6×6 only as a variant");
  assert.ok(new Game({ size: 6, box: 3, symbols: "123456", puzzle: Array(36).fill(0), variant: { name: "latin" } }));
});
