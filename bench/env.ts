/** A whole-number setting of the bench, from the environment (`fallback` when unset). */
export function envInt(name: string, fallback: number, min: number): number {
  const text = process.env[name]?.trim();
  if (!text) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min) throw new Error(`${name} must be an integer >= ${min} (got ${text})`);
  return Number(text);
}

/** BENCH_SCENARIOS as a list of names, or null when every scenario runs. */
export function selectedScenarios(): string[] | null {
  const text = process.env.BENCH_SCENARIOS?.trim();
  return text ? text.split(',').map((name) => name.trim()) : null;
}
