// cover play: the game as a model, apart from the page. This file owns a
// game's grid, marks, move history, clock and status, the rules that
// judge them (conflicts, the win, mistakes against a solution), what is
// saved of a game and how it is read back, and the player's statistics.
// It knows nothing of the DOM, the server or localStorage: the page gives
// it keys and clicks as moves and stores what `save` returns. It runs in
// the page as a plain script (`window.CoverModel`) and under Node for its
// unit tests (crates/cover-play/tests/js/model.test.js).
(function (root, factory) {
  const model = factory();
  if (typeof module === "object" && module.exports) module.exports = model;
  else root.CoverModel = model;
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  /// What `save` writes. `load` reads it and the format before it (2:
  /// classic games, saved before variants), and refuses anything else.
  const FORMAT = 3;
  const READS = [2, 3];

  /// The most numbers the undo and redo history may hold together (about
  /// 4 per changed cell): a 16×16 played with full marks fits many times,
  /// and the saved game stays well under localStorage's quota.
  const HISTORY_LIMIT = 60000;

  /// Move kinds, as saved.
  const SET = 0, CORNER = 1, CENTRE = 2, NOTES = 3, SOLVE = 4;

  /// The mistakes a player may choose to see.
  const MISTAKES = ["off", "conflicts", "solution"];

  const bit = (d) => 1 << (d - 1);
  const digitsOf = (mask) => {
    const out = [];
    for (let d = 1; mask; d++, mask >>>= 1) if (mask & 1) out.push(d);
    return out;
  };

  /// The piece of each cell of a classic `size`×`size` grid with square
  /// boxes `box` on a side.
  function boxPieces(size, box) {
    return [...Array(size * size).keys()].map((cell) =>
      Math.floor(Math.floor(cell / size) / box) * (size / box) + Math.floor((cell % size) / box));
  }

  /// The rules of a grid as units and pairs: `units` are the cells of
  /// each row, column, piece (box or jigsaw piece), extra region and
  /// cage, in that order (the server numbers a hint's units the same
  /// way); `cellUnits` each cell's units; `pairs` the cells a knight's or
  /// king's move apart that must differ; `neighbours` the orthogonal
  /// neighbours kept from consecutive digits (non-consecutive only);
  /// `thermos` and `cages` as the variant gives them; `peers` for each
  /// cell the set of cells that may not hold its digit.
  function geometry(size, box, variant) {
    const v = variant || {};
    const units = [];
    for (let r = 0; r < size; r++) units.push([...Array(size).keys()].map((c) => r * size + c));
    for (let c = 0; c < size; c++) units.push([...Array(size).keys()].map((r) => r * size + c));
    const pieces = variant ? v.pieces || null : boxPieces(size, box);
    if (pieces) {
      const count = Math.max(...pieces) + 1;
      const members = [...Array(count)].map(() => []);
      pieces.forEach((p, cell) => members[p].push(cell));
      units.push(...members);
    }
    const regions = units.length + (v.extras || []).length;
    for (const extra of v.extras || []) units.push(extra.cells.slice());
    const cages = (v.cages || []).map((cage) => ({ cells: cage.cells.slice(), sum: cage.sum ?? null }));
    for (const cage of cages) units.push(cage.cells);
    const moves = [];
    if (v.anti_knight) moves.push([1, 2], [2, 1], [1, -2], [2, -1]);
    if (v.anti_king) moves.push([0, 1], [1, 0], [1, 1], [1, -1]);
    const pairs = [], neighbours = [];
    const inside = (r, c) => r >= 0 && c >= 0 && r < size && c < size;
    for (let r = 0; r < size; r++) {
      for (let c = 0; c < size; c++) {
        for (const [dr, dc] of moves) if (inside(r + dr, c + dc)) pairs.push([r * size + c, (r + dr) * size + c + dc]);
        if (v.non_consecutive) {
          if (c + 1 < size) neighbours.push([r * size + c, r * size + c + 1]);
          if (r + 1 < size) neighbours.push([r * size + c, (r + 1) * size + c]);
        }
      }
    }
    const cellUnits = [...Array(size * size)].map(() => []);
    units.forEach((unit, u) => unit.forEach((cell) => cellUnits[cell].push(u)));
    const peerSets = [...Array(size * size)].map(() => new Set());
    units.forEach((unit) => unit.forEach((a) => unit.forEach((b) => { if (a !== b) peerSets[a].add(b); })));
    for (const [a, b] of pairs) { peerSets[a].add(b); peerSets[b].add(a); }
    const cageOf = Array(size * size).fill(-1);
    cages.forEach((cage, k) => cage.cells.forEach((cell) => { cageOf[cell] = k; }));
    const thermos = (v.thermos || []).map((t) => t.slice());
    return { units, cellUnits, pieces, regions, cages, cageOf, pairs, neighbours, thermos, peers: peerSets };
  }

  const geometries = new Map();
  function geometryOf(size, box, variant) {
    const key = size + "/" + box + "/" + (variant ? JSON.stringify(variant) : "");
    if (!geometries.has(key)) geometries.set(key, geometry(size, box, variant));
    return geometries.get(key);
  }

  /// Whether two cells share a row, column or box (of a classic grid).
  function peers(a, b, size, box) {
    const [ra, ca, rb, cb] = [Math.floor(a / size), a % size, Math.floor(b / size), b % size];
    return ra === rb || ca === cb ||
      (Math.floor(ra / box) === Math.floor(rb / box) && Math.floor(ca / box) === Math.floor(cb / box));
  }

  const isCells = (a, n, max) => Array.isArray(a) && a.length > 0 && a.length <= max &&
    a.every((c) => Number.isInteger(c) && c >= 0 && c < n) && new Set(a).size === a.length;

  /// A variant as the server sends it, checked against the grid's side;
  /// null when it is not one.
  function readVariant(variant, size) {
    if (variant === undefined || variant === null) return null;
    const n = size * size;
    const v = variant;
    if (typeof v !== "object" || size < 4 || size > 16) throw new Error("not a variant");
    if (v.pieces != null) {
      if (!Array.isArray(v.pieces) || v.pieces.length !== n || !v.pieces.every((p) => Number.isInteger(p) && p >= 0 && p < size)) {
        throw new Error("the variant's pieces do not match the grid");
      }
      const counts = Array(size).fill(0);
      v.pieces.forEach((p) => counts[p]++);
      if (counts.some((k) => k !== size)) throw new Error("a piece of the variant is not a piece of the grid");
    }
    const list = (a) => a === undefined || Array.isArray(a);
    if (!list(v.extras) || !list(v.cages) || !list(v.thermos)) throw new Error("not a variant");
    if (!(v.extras || []).every((e) => e && isCells(e.cells, n, size) && typeof e.kind === "string")) throw new Error("a bad region");
    if (!(v.cages || []).every((c) => c && isCells(c.cells, n, size) && (c.sum == null || Number.isInteger(c.sum)))) throw new Error("a bad cage");
    if (!(v.thermos || []).every((t) => isCells(t, n, size))) throw new Error("a bad thermometer");
    return {
      name: typeof v.name === "string" ? v.name : "", pieces: v.pieces ? v.pieces.slice() : null, boxes: !!v.boxes,
      extras: (v.extras || []).map((e) => ({ kind: e.kind, cells: e.cells.slice() })),
      cages: (v.cages || []).map((c) => ({ cells: c.cells.slice(), sum: c.sum ?? null })),
      thermos: (v.thermos || []).map((t) => t.slice()),
      anti_knight: !!v.anti_knight, anti_king: !!v.anti_king, non_consecutive: !!v.non_consecutive,
    };
  }

  /// The ways `count` distinct digits of 1..`size` add up to `sum`, none
  /// of them in `without` (a mask): each a sorted list.
  function combinations(count, sum, size, without = 0) {
    const out = [];
    const walk = (from, left, total, chosen) => {
      if (left === 0) { if (total === sum) out.push(chosen.slice()); return; }
      for (let d = from; d <= size && total + d <= sum; d++) {
        if (without & bit(d)) continue;
        chosen.push(d); walk(d + 1, left - 1, total + d, chosen); chosen.pop();
      }
    };
    walk(1, count, 0, []);
    return out;
  }

  const isGrid = (a, n, max) => Array.isArray(a) && a.length === n &&
    a.every((d) => Number.isInteger(d) && d >= 0 && d <= max);

  /// One game: the givens, the player's digits and marks, the moves made
  /// (to undo) and undone (to redo), the clock and the status.
  class Game {
    /// A new game from what the server answers (`/api/new`, `/api/import`).
    constructor(puzzle) {
      const { size, box, symbols } = puzzle;
      const variant = readVariant(puzzle.variant, size);
      const boxed = variant ? box >= 1 && box <= size : box * box === size;
      if (!Number.isInteger(size) || !Number.isInteger(box) || !boxed || size > 25) {
        throw new Error(`not a playable size: ${size}`);
      }
      if (typeof symbols !== "string" || [...symbols].length !== size) {
        throw new Error("the symbols do not match the size");
      }
      if (!isGrid(puzzle.puzzle, size * size, size)) throw new Error("the grid does not match the size");
      this.size = size;
      this.box = box;
      this.symbols = symbols;
      this.variant = variant; // null for a classic game
      this.text = typeof puzzle.text === "string" ? puzzle.text : null; // a variant's text to share
      this.puzzle = puzzle.puzzle.slice();
      this.cells = puzzle.puzzle.slice();
      this.corner = this.cells.map(() => 0);
      this.centre = this.cells.map(() => 0);
      this.grade = puzzle.grade || "";
      this.rating = typeof puzzle.rating === "number" ? puzzle.rating : null;
      this.seed = puzzle.seed ?? null;
      this.solution = isGrid(puzzle.solution, size * size, size) ? puzzle.solution.slice() : null;
      this.done = []; // moves made, oldest first
      this.undone = []; // moves undone, the next to redo last
      this.elapsed = 0; // seconds of play
      this.status = "playing"; // "playing", "won" (by the player) or "revealed" (by Solve)
      this.assisted = false; // Solve was used at some point
      this.hints = 0;
      this.mistakes = 0; // wrong digits entered while mistakes are checked against the solution
      this.recorded = false; // the win is in the statistics
      this.started = puzzle.started ?? Date.now();
      this.id = puzzle.id ?? `${this.started.toString(36)}-${Math.floor(Math.random() * 1e9).toString(36)}`;
      this.rev = 0; // bumped by every change: answers about an older board are stale
    }

    get length() { return this.cells.length; }
    given(cell) { return this.puzzle[cell] !== 0; }
    symbol(d) { return [...this.symbols][d - 1]; }
    cornerMarks(cell) { return digitsOf(this.corner[cell]); }
    centreMarks(cell) { return digitsOf(this.centre[cell]); }
    get geometry() { return this.cachedGeometry || (this.cachedGeometry = geometryOf(this.size, this.box, this.variant)); }

    /// Whether `b` may not hold the digit of `a` (they share a unit or a
    /// pair rule).
    isPeer(a, b) { return a !== b && this.geometry.peers[a].has(b); }

    /// Cells that break a rule with another filled cell: a digit repeated
    /// in a row, column, region or cage, or a knight's or king's move
    /// apart under those rules; consecutive neighbours under
    /// non-consecutive; a thermometer that does not increase; and every
    /// cell of a full cage that misses its sum.
    conflicts() {
      const bad = new Set();
      const { units, pairs, neighbours, thermos, cages } = this.geometry;
      const cells = this.cells;
      for (const unit of units) {
        const seen = new Map();
        for (const cell of unit) {
          const d = cells[cell];
          if (!d) continue;
          if (seen.has(d)) { bad.add(cell); bad.add(seen.get(d)); } else seen.set(d, cell);
        }
      }
      const clash = (a, b, broken) => { if (broken) { bad.add(a); bad.add(b); } };
      for (const [a, b] of pairs) clash(a, b, cells[a] && cells[a] === cells[b]);
      for (const [a, b] of neighbours) clash(a, b, cells[a] && cells[b] && Math.abs(cells[a] - cells[b]) === 1);
      for (const t of thermos) {
        for (let i = 0; i < t.length; i++) {
          for (let j = i + 1; j < t.length; j++) clash(t[i], t[j], cells[t[i]] && cells[t[j]] && cells[t[i]] >= cells[t[j]]);
        }
      }
      for (const cage of cages) {
        if (cage.sum === null || cage.cells.some((c) => !cells[c])) continue;
        if (cage.cells.reduce((s, c) => s + cells[c], 0) !== cage.sum) cage.cells.forEach((c) => bad.add(c));
      }
      return bad;
    }

    /// Every cell filled and no rule broken: whatever the puzzle's other
    /// solutions, this grid keeps every given and every rule.
    complete() { return !this.cells.includes(0) && this.conflicts().size === 0; }

    /// The digits each empty cell may take (0 for filled cells): none a
    /// peer holds, none consecutive to a neighbour's under
    /// non-consecutive, within a thermometer's bounds from the digits
    /// placed along it, and in a killer cage only digits of some way to
    /// its sum that keeps the digits placed in it.
    candidates() {
      const { units, cellUnits, pairs, neighbours, thermos, cages } = this.geometry;
      const cells = this.cells, size = this.size;
      const used = units.map((unit) => unit.reduce((m, c) => (cells[c] ? m | bit(cells[c]) : m), 0));
      const all = (2 ** size) - 1;
      const out = cells.map((d, cell) => (d ? 0 : all & ~cellUnits[cell].reduce((m, u) => m | used[u], 0)));
      for (const [a, b] of pairs) {
        if (cells[a]) out[b] &= ~bit(cells[a]);
        if (cells[b]) out[a] &= ~bit(cells[b]);
      }
      for (const [a, b] of neighbours) {
        for (const [from, to] of [[a, b], [b, a]]) {
          const d = cells[from];
          if (d > 1) out[to] &= ~bit(d - 1);
          if (d && d < size) out[to] &= ~bit(d + 1);
        }
      }
      for (const t of thermos) {
        t.forEach((cell, i) => {
          let low = i + 1, high = size - (t.length - 1 - i);
          t.forEach((other, j) => {
            const d = cells[other];
            if (!d || j === i) return;
            if (j < i) low = Math.max(low, d + (i - j)); else high = Math.min(high, d - (j - i));
          });
          for (let d = 1; d <= size; d++) if (d < low || d > high) out[cell] &= ~bit(d);
        });
      }
      cages.forEach((cage, k) => {
        if (cage.sum === null) return;
        const ways = this.cageWays(cage);
        const allowed = ways.reduce((m, way) => way.reduce((w, d) => w | bit(d), m), 0);
        for (const cell of cage.cells) out[cell] &= allowed;
      });
      return out.map((m, cell) => (cells[cell] ? 0 : m));
    }

    /// The killer cage of `cell` and the ways its sum can still be made
    /// (digits placed in it kept, no digit twice), or null when the cell
    /// is in no cage with a sum.
    cageCombinations(cell) {
      const { cages, cageOf } = this.geometry;
      const k = cageOf[cell];
      if (k < 0 || cages[k].sum === null) return null;
      const cage = cages[k];
      return { sum: cage.sum, cells: cage.cells.length, ways: this.cageWays(cage) };
    }

    /// The sets of digits that make a cage's sum and keep its digits placed.
    cageWays(cage) {
      const placed = cage.cells.map((c) => this.cells[c]).filter(Boolean);
      return combinations(cage.cells.length, cage.sum, this.size)
        .filter((combo) => placed.every((d) => combo.includes(d)));
    }

    /// How many of each digit are still to place (index 1..=size).
    remaining() {
      const left = Array(this.size + 1).fill(this.size);
      left[0] = 0;
      for (const d of this.cells) if (d) left[d]--;
      return left;
    }

    /// The cells to flag under a mistakes setting: none, the conflicts,
    /// or also the entries that differ from the solution (when known).
    flagged(mode) {
      if (mode === "off") return new Set();
      const bad = this.conflicts();
      if (mode === "solution" && this.solution) {
        this.cells.forEach((d, cell) => { if (d && d !== this.solution[cell]) bad.add(cell); });
      }
      return bad;
    }

    /// Entries that differ from the solution (empty when it is unknown).
    wrong() {
      if (!this.solution) return [];
      return this.cells.flatMap((d, cell) => (d && d !== this.solution[cell] ? [cell] : []));
    }

    // Moves. Each returns whether it changed anything; one that did is a
    // step of the history, undone whole.

    /// Puts `digit` in `cell` (0 clears it; clearing an empty cell clears
    /// its marks). With `autoClean`, the digit leaves its peers' marks.
    set(cell, digit, { autoClean = true, mistakes = "conflicts" } = {}) {
      if (!this.playable(cell) || digit < 0 || digit > this.size) return false;
      if (digit && this.cells[cell] === digit) return false;
      if (!digit && !this.cells[cell] && !this.corner[cell] && !this.centre[cell]) return false;
      const changed = this.act([SET, cell, digit, autoClean ? 1 : 0]);
      if (changed && digit && mistakes === "solution" && this.solution && this.solution[cell] !== digit) this.mistakes++;
      return changed;
    }

    /// Adds or removes a corner mark (the small digits at fixed places
    /// about the cell: pencil marks). Filled cells take no marks.
    toggleCorner(cell, digit) {
      if (!this.playable(cell) || this.cells[cell] || digit < 1 || digit > this.size) return false;
      return this.act([CORNER, cell, digit]);
    }

    /// Adds or removes a centre mark (digits written small in the middle).
    toggleCentre(cell, digit) {
      if (!this.playable(cell) || this.cells[cell] || digit < 1 || digit > this.size) return false;
      return this.act([CENTRE, cell, digit]);
    }

    /// Auto-notes: every empty cell's corner marks become its candidates
    /// (the digits no peer holds).
    fillNotes() {
      if (this.status !== "playing") return false;
      const candidates = this.candidates();
      if (candidates.every((m, cell) => this.cells[cell] || m === this.corner[cell])) return false;
      return this.act([NOTES, -1, 0]);
    }

    /// Solve: the solution, as one move (undone like any other).
    reveal(solution) {
      if (this.status !== "playing" || !isGrid(solution, this.length, this.size)) return false;
      if (solution.some((d, cell) => !d || (this.puzzle[cell] && this.puzzle[cell] !== d))) return false;
      this.solution = solution.slice();
      return this.act([SOLVE, -1, 0]);
    }

    playable(cell) {
      return this.status === "playing" && Number.isInteger(cell) && cell >= 0 && cell < this.length && !this.given(cell);
    }

    /// Applies a move, keeps what it changed to undo it, forgets the redo
    /// history, and judges the board.
    act(move) {
      const before = this.apply(move);
      if (!before.length) return false;
      this.done.push(move.slice(0, 3).concat(before));
      this.undone = [];
      this.trim();
      this.settle();
      return true;
    }

    /// Applies `[kind, cell, digit, …]`; answers the changed cells as they
    /// were, four numbers each: cell, digit, corner marks, centre marks.
    apply([kind, cell, digit, autoClean]) {
      const before = [];
      const touch = (c) => { before.push(c, this.cells[c], this.corner[c], this.centre[c]); };
      if (kind === SET) {
        touch(cell);
        this.cells[cell] = digit;
        if (digit) {
          this.corner[cell] = 0;
          this.centre[cell] = 0;
          if (autoClean) {
            for (let c = 0; c < this.length; c++) {
              if (c !== cell && ((this.corner[c] | this.centre[c]) & bit(digit)) && this.isPeer(c, cell)) {
                touch(c);
                this.corner[c] &= ~bit(digit);
                this.centre[c] &= ~bit(digit);
              }
            }
          }
        } else if (before[1] === 0) {
          this.corner[cell] = 0;
          this.centre[cell] = 0;
        }
      } else if (kind === CORNER || kind === CENTRE) {
        touch(cell);
        const marks = kind === CORNER ? this.corner : this.centre;
        marks[cell] ^= bit(digit);
      } else if (kind === NOTES) {
        this.candidates().forEach((m, c) => {
          if (!this.cells[c] && m !== this.corner[c]) { touch(c); this.corner[c] = m; }
        });
      } else if (kind === SOLVE) {
        this.solution.forEach((d, c) => {
          if (this.cells[c] !== d || this.corner[c] || this.centre[c]) {
            touch(c);
            this.cells[c] = d; this.corner[c] = 0; this.centre[c] = 0;
          }
        });
        this.assisted = true;
      }
      return before;
    }

    restore(before) {
      for (let k = 0; k < before.length; k += 4) {
        const c = before[k];
        this.cells[c] = before[k + 1]; this.corner[c] = before[k + 2]; this.centre[c] = before[k + 3];
      }
    }

    /// The status follows the board: complete is a win, or a reveal when
    /// the last move was Solve; anything else is play. So undoing a win
    /// or a reveal goes back to play, and redoing it wins again.
    settle() {
      this.rev++;
      const last = this.done[this.done.length - 1];
      this.status = !this.complete() ? "playing" : last && last[0] === SOLVE ? "revealed" : "won";
    }

    canUndo() { return this.done.length > 0; }
    canRedo() { return this.undone.length > 0; }

    undo() {
      const move = this.done.pop();
      if (!move) return false;
      this.restore(move.slice(3));
      // Redo re-applies the move; marks auto-clean took are in `before`.
      this.undone.push(move.slice(0, 3).concat([move[0] === SET ? autoCleaned(move) : 0]));
      this.settle();
      return true;
    }

    redo() {
      const move = this.undone.pop();
      if (!move) return false;
      const [kind, cell, digit, autoClean] = move;
      const before = this.apply([kind, cell, digit, autoClean]);
      this.done.push([kind, cell, digit].concat(before));
      this.settle();
      return true;
    }

    /// Undoes moves until no entry differs from the solution; answers how
    /// many (0 when the solution is unknown or nothing is wrong).
    undoToCorrect() {
      if (!this.solution) return 0;
      let count = 0;
      while (this.wrong().length && this.undo()) count++;
      return count;
    }

    /// Drops the oldest history past [`HISTORY_LIMIT`]: redo first, then
    /// the oldest moves.
    trim(limit = HISTORY_LIMIT) {
      const size = () => this.done.reduce((n, m) => n + m.length, 0) + this.undone.reduce((n, m) => n + m.length, 0);
      let total = size();
      while (total > limit && this.undone.length) total -= this.undone.shift().length;
      while (total > limit && this.done.length > 1) total -= this.done.shift().length;
    }

    /// Seconds of play to add to the clock (only while playing).
    tick(seconds) {
      if (this.status === "playing" && seconds > 0 && seconds < 3600) this.elapsed += seconds;
    }

    /// The puzzle as one line: its symbols, `.` for empty (what a shared
    /// link carries and `cover sudoku` reads); a variant's text, as the
    /// server gave it.
    puzzleText() {
      if (this.variant) return this.text || "";
      const symbols = [...this.symbols];
      return this.puzzle.map((d) => (d ? symbols[d - 1] : ".")).join("");
    }

    /// What to store: plain JSON, history included, marks as bit masks.
    save() {
      const { size, box, symbols, variant, text, puzzle, cells, corner, centre, grade, rating, seed, solution, done,
        undone, elapsed, status, assisted, hints, mistakes, recorded, started, id } = this;
      return { format: FORMAT, size, box, symbols, variant, text, puzzle, cells, corner, centre, grade, rating, seed,
        solution, done, undone, elapsed, status, assisted, hints, mistakes, recorded, started, id };
    }

    /// A game from what `save` wrote, checked; null when it is not one
    /// (another format, a damaged store).
    static load(saved) {
      try {
        if (!saved || !READS.includes(saved.format)) return null;
        if (saved.format === 2 && saved.variant != null) return null; // format 2 had no variants
        const game = new Game(saved);
        const n = game.length, all = (2 ** game.size) - 1;
        if (!isGrid(saved.cells, n, game.size) || saved.cells.some((d, c) => game.puzzle[c] && d !== game.puzzle[c])) return null;
        const masks = (a) => Array.isArray(a) && a.length === n && a.every((m) => Number.isInteger(m) && m >= 0 && m <= all);
        if (!masks(saved.corner) || !masks(saved.centre)) return null;
        const moves = (a) => Array.isArray(a) && a.every((m) => Array.isArray(m) && m.length >= 3 &&
          m.every(Number.isInteger) && m[0] >= SET && m[0] <= SOLVE);
        if (!moves(saved.done) || !moves(saved.undone)) return null;
        Object.assign(game, {
          cells: saved.cells.slice(), corner: saved.corner.slice(), centre: saved.centre.slice(),
          done: saved.done, undone: saved.undone,
          elapsed: Number.isFinite(saved.elapsed) && saved.elapsed >= 0 ? saved.elapsed : 0,
          assisted: !!saved.assisted, hints: saved.hints | 0, mistakes: saved.mistakes | 0, recorded: !!saved.recorded,
        });
        game.settle();
        game.rev = 0;
        return game;
      } catch (e) {
        return null;
      }
    }
  }

  /// Whether a SET move cleaned its peers' marks (its `before` names cells
  /// beyond its own).
  function autoCleaned(move) { return move.length > 7 ? 1 : 0; }

  // Statistics: per size and level, games started and won, best and
  // total time of wins without Solve; and the streak of days with a win.

  function emptyStats() { return { format: 1, kinds: {}, streak: { current: 0, best: 0, last: null } }; }

  function readStats(saved) {
    if (!saved || saved.format !== 1 || typeof saved.kinds !== "object" || !saved.streak) return emptyStats();
    return saved;
  }

  /// A kind of game in the statistics: `9×9 easy`, `9×9 killer imported`.
  const kindOf = (size, grade, variant = "") =>
    `${size}×${size} ${variant ? variant + " " : ""}${grade || "imported"}`;

  function entry(stats, size, grade, variant) {
    const key = kindOf(size, grade, variant);
    if (!stats.kinds[key]) stats.kinds[key] = { started: 0, won: 0, best: null, total: 0 };
    return stats.kinds[key];
  }

  function recordStart(stats, size, grade, variant) { entry(stats, size, grade, variant).started++; return stats; }

  /// The local calendar day of `time` (ms), as YYYY-MM-DD.
  function dayOf(time) {
    const d = new Date(time);
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
  }

  function dayAfter(day) {
    const [y, m, d] = day.split("-").map(Number);
    return dayOf(new Date(y, m - 1, d + 1).getTime());
  }

  /// Records a game's win once (not a win by Solve); answers whether it was new.
  function recordWin(stats, game, now = Date.now()) {
    if (game.recorded || game.status !== "won" || game.assisted) return false;
    const kind = entry(stats, game.size, game.grade, game.variant ? game.variant.name : "");
    const seconds = Math.round(game.elapsed);
    kind.won++;
    kind.total += seconds;
    if (kind.best === null || seconds < kind.best) kind.best = seconds;
    const today = dayOf(now), streak = stats.streak;
    if (streak.last !== today) {
      streak.current = streak.last && dayAfter(streak.last) === today ? streak.current + 1 : 1;
      streak.last = today;
      streak.best = Math.max(streak.best, streak.current);
    }
    game.recorded = true;
    return true;
  }

  /// The streak as of `now`: it lapses once a whole day passes without a win.
  function currentStreak(stats, now = Date.now()) {
    const { last, current } = stats.streak, today = dayOf(now);
    return last && (last === today || dayAfter(last) === today) ? current : 0;
  }

  function summary(stats, size, grade, now = Date.now(), variant = "") {
    const kind = stats.kinds[kindOf(size, grade, variant)] || { started: 0, won: 0, best: null, total: 0 };
    return { kind: kindOf(size, grade, variant), started: kind.started, won: kind.won, best: kind.best,
      average: kind.won ? Math.round(kind.total / kind.won) : null,
      streak: currentStreak(stats, now), bestStreak: stats.streak.best };
  }

  function formatTime(seconds) {
    const s = Math.floor(seconds), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, r = String(s % 60).padStart(2, "0");
    return h ? `${h}:${String(m).padStart(2, "0")}:${r}` : `${m}:${r}`;
  }

  return { Game, FORMAT, HISTORY_LIMIT, MISTAKES, peers, digitsOf, formatTime, dayOf, combinations,
    stats: { empty: emptyStats, read: readStats, recordStart, recordWin, summary, currentStreak, kindOf } };
});
