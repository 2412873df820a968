/** Lengths of the password policy (docs/decisions/0011-dashboard-passwords-and-sessions.md). */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MIN_DISTINCT = 5;

const CLASSES = [/\p{Ll}/u, /\p{Lu}/u, /\p{Nd}/u, /[^\p{Ll}\p{Lu}\p{Nd}]/u];

/**
 * The password policy for registration and reset, NIST SP 800-63B in spirit: length first, no
 * composition rules beyond refusing one-class and few-character passwords, and never the e-mail.
 * Returns the problems as messages for the `password` field (empty when the password is fine).
 */
export function passwordProblems(password: string, email: string): string[] {
  const problems: string[] = [];
  const chars = [...password];
  if (chars.length < PASSWORD_MIN_LENGTH) problems.push(`must be at least ${PASSWORD_MIN_LENGTH} characters`);
  const lower = password.toLowerCase();
  const address = email.trim().toLowerCase();
  const local = address.split('@')[0];
  if (address && (lower.includes(address) || (local.length >= 3 && lower.includes(local)))) {
    problems.push('must not contain your e-mail address');
  }
  if (CLASSES.filter((re) => re.test(password)).length < 2) {
    problems.push('must mix at least two of: lowercase letters, uppercase letters, digits, other characters');
  }
  if (new Set(chars).size < PASSWORD_MIN_DISTINCT) {
    problems.push(`must use at least ${PASSWORD_MIN_DISTINCT} different characters`);
  }
  return problems;
}
