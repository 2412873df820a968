/**
 * Strings that make a backtracking pattern retry every split: a long run of one character the
 * pattern's classes accept, then one that ends the match (a separator, a line break, a character
 * outside every class). A linear pattern answers each in one pass.
 */
const RUNS = ['a', 'A', '0', ' ', '.', '-', '_', 'a.', '\u00a0', 'é'];
const ENDINGS = ['', '|', '\n', '\t', '!', '@', '\u0000', 'x', ' '];

export function hostileStrings(length: number): string[] {
  return RUNS.flatMap((run) => {
    const body = run.repeat(Math.ceil(length / run.length)).slice(0, length);
    return ENDINGS.map((end) => `${body}${end}`);
  });
}
