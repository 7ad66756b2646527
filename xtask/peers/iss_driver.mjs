// Runs sigh's Interactive Sudoku Solver (a checkout outside this repository,
// given as the first argument) on constraint strings read from standard input,
// one puzzle per line, for `cargo xtask bench variants`. For each puzzle it
// counts solutions up to 2 (as the other solvers in the benchmark do) and prints
// one line: the count, the wall time of build and search in nanoseconds (the
// best of RUNS passes over the whole set, so the JIT is warm), and the first
// solution's digits (`-` when there is none).
//
// Usage: node xtask/peers/iss_driver.mjs ISS_ROOT [RUNS] < puzzles.iss (iss.sh run)
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(process.argv[2] ?? '');
const load = (path) => import(pathToFileURL(join(root, path)).href);
// ISS's own headless bootstrap (globals its modules expect outside a browser).
const { ensureGlobalEnvironment } = await load('tests/helpers/test_env.js');
ensureGlobalEnvironment();
const { SudokuParser } = await load('js/sudoku_parser.js');
const { SudokuBuilder } = await load('js/solver/sudoku_builder.js');

const runs = Math.max(1, Number(process.argv[3] ?? 1));
const lines = readFileSync(0, 'utf8').split('\n').filter((line) => line.trim() !== '');
const best = lines.map(() => null);
const answers = lines.map(() => null);
for (let run = 0; run < runs; run++) {
  lines.forEach((line, i) => {
    const start = process.hrtime.bigint();
    const constraint = SudokuParser.parseText(line);
    const solver = SudokuBuilder.build(SudokuBuilder.resolveConstraint(constraint));
    const first = solver.nthSolution(0);
    const second = first ? solver.nthSolution(1) : null;
    const nanos = process.hrtime.bigint() - start;
    if (best[i] === null || nanos < best[i]) best[i] = nanos;
    answers[i] = `${first ? (second ? 2 : 1) : 0} ${first ? first.join('') : '-'}`;
  });
}
lines.forEach((_, i) => {
  const [count, digits] = answers[i].split(' ');
  process.stdout.write(`${count} ${best[i]} ${digits}\n`);
});
