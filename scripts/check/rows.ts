export type Result = 'PASS' | 'FAIL' | 'SKIP';

/** One line of the report: one check on one target. */
export interface Row {
  what: string;
  target: string;
  result: Result;
  detail: string;
  /** How long the request behind it took, when there was one. */
  ms?: number;
}

const HEADINGS = ['WHAT', 'TARGET', 'RESULT', 'DETAIL', 'TIME'];
/** Wider details run past their column rather than being cut: the cause must stay readable. */
const MAX_DETAIL_WIDTH = 72;

/** A plain-text table (one row per check) and a summary line. */
export function formatTable(rows: readonly Row[]): string {
  const cells = rows.map((row) => [
    row.what,
    row.target,
    row.result,
    row.detail,
    row.ms === undefined ? '' : `${Math.round(row.ms)} ms`,
  ]);
  const widths = HEADINGS.map((heading, column) =>
    Math.min(
      column === 3 ? MAX_DETAIL_WIDTH : Infinity,
      Math.max(heading.length, ...cells.map((line) => line[column].length)),
    ),
  );
  const line = (values: string[]): string =>
    values
      .map((value, column) => value.padEnd(widths[column]))
      .join('  ')
      .trimEnd();
  return [line(HEADINGS), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join(
    '\n',
  );
}

export function summary(rows: readonly Row[], baseUrl: string): string {
  const count = (result: Result): number => rows.filter((row) => row.result === result).length;
  return `check ${baseUrl}: ${count('PASS')} passed, ${count('FAIL')} failed, ${count('SKIP')} skipped`;
}
