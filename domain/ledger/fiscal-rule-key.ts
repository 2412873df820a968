/**
 * A fiscal rule key: `namespace.name` with one to three dots, lower case. A key always has a dot,
 * so it is never `export` or `replay`, the words the rules routes keep for themselves.
 */
export const RULE_KEY_PATTERN = '^[a-z][a-z0-9_]{0,49}([.][a-z][a-z0-9_]{0,49}){1,3}$';
