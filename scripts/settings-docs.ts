import { SETTINGS, type Setting } from '../domain/shared/settings.js';

/** The generated part of docs/configuration.md sits between these two lines. */
export const TABLE_START =
  '<!-- settings:start: generated from domain/shared/settings.ts by `npm run docs:settings`; edit there -->';
export const TABLE_END = '<!-- settings:end -->';

const rows = (): [string, Setting<unknown>][] => Object.entries(SETTINGS) as [string, Setting<unknown>][];

/** `.env.example`: every setting with its help and default; unset ones, secrets and deprecated ones commented out. */
export function renderEnvExample(): string {
  const lines = [
    '# Configuration of the e-invoicing service: environment variables only, checked once at boot.',
    '# Generated from domain/shared/settings.ts by `npm run docs:settings`: edit there, not here.',
    '# The service does not read this file itself: export the variables, or have your process manager',
    '# load a copy named .env. An unset or empty variable takes the default shown.',
    '# [processes that read the variable; secret: a credential, keep it out of version control]',
  ];
  for (const [name, s] of rows()) {
    const derived = s.shownDefault ? ` (default: ${s.shownDefault})` : '';
    lines.push(
      '',
      `# ${s.help.replaceAll('`', '')}${derived}`,
      `# [${s.processes.join(', ')}${s.secret ? '; secret' : ''}]`,
    );
    const commented = s.default === '' || s.secret || s.deprecated;
    lines.push(`${commented ? '# ' : ''}${name}=${s.secret ? '' : s.default}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The Markdown table of docs/configuration.md, markers included. */
export function renderSettingsTable(): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  const lines = [
    TABLE_START,
    '| Variable | Default | Read by | Meaning |',
    '| -------- | ------- | ------- | ------- |',
  ];
  for (const [name, s] of rows()) {
    const shown = s.shownDefault ? `\`${s.shownDefault}\`` : s.default === '' ? '(empty)' : `\`${s.default}\``;
    const notes = [s.secret ? '**secret**' : '', s.deprecated ? '**deprecated**' : ''].filter(Boolean).join(', ');
    const meaning = notes ? `${notes}: ${s.help}` : s.help;
    lines.push(`| \`${name}\` | ${cell(shown)} | ${s.processes.join(', ')} | ${cell(meaning)} |`);
  }
  lines.push(TABLE_END);
  return lines.join('\n');
}

/** `markdown` with the text between the markers replaced by the generated table. */
export function withSettingsTable(markdown: string): string {
  const start = markdown.indexOf(TABLE_START);
  const end = markdown.indexOf(TABLE_END);
  if (start < 0 || end < start)
    throw new Error(`docs/configuration.md lacks the markers ${TABLE_START} … ${TABLE_END}`);
  return markdown.slice(0, start) + renderSettingsTable() + markdown.slice(end + TABLE_END.length);
}
