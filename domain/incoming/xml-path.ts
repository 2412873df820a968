import type { QName } from './invoice-namespaces.js';
import type { XmlElement } from './safe-xml.js';

/**
 * Steps through a read document by namespace URI and local name (invoice-namespaces.ts), so that
 * a document reads the same whatever prefixes, or default namespaces, its sender wrote.
 */

/** Whether an element has this name. */
export const hasName = (element: XmlElement, name: QName): boolean =>
  element.local === name.local && element.ns === name.ns;

/** The first child with this name, following a path of names. */
export function child(element: XmlElement | null | undefined, ...path: QName[]): XmlElement | null {
  let current: XmlElement | null = element ?? null;
  for (const name of path) {
    current = current?.children.find((c) => hasName(c, name)) ?? null;
    if (!current) return null;
  }
  return current;
}

/** Every child with this name. */
export const children = (element: XmlElement | null, name: QName): XmlElement[] =>
  element ? element.children.filter((c) => hasName(c, name)) : [];

/** The trimmed text at a path, or null when absent or empty. */
export function textAt(element: XmlElement | null | undefined, ...path: QName[]): string | null {
  const found = child(element, ...path);
  const value = found?.text.trim();
  return value ? value : null;
}
