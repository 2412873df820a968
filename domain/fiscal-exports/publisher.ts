import type { Config } from '../shared/config.js';
import { softwareIdentity } from '../shared/software.js';

/** The publisher (éditeur) as the attestations name it, from the PUBLISHER_* settings. */
export function publisherOf(config: Pick<Config, 'publisher'>) {
  const p = config.publisher;
  return {
    name: p.name,
    siren: p.siren,
    address: p.address,
    signatory: p.signatory,
    contact: p.contact,
    configured: p.name !== null,
  };
}
export type Publisher = ReturnType<typeof publisherOf>;

/** The software and its version (package.json), under SOFTWARE_NAME when set. */
export function softwareOf(config: Pick<Config, 'publisher'>) {
  const identity = softwareIdentity();
  return { name: config.publisher.softwareName ?? identity.name, version: identity.version };
}
export type Software = ReturnType<typeof softwareOf>;

/** How a missing setting is printed: plainly, with the variable that sets it. */
export const notSet = (variable: string) => `non renseigné (${variable})`;
