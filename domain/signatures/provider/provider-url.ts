import type { Config } from '../../shared/config.js';
import { open, seal } from '../../shared/secret-box.js';
import type { SignerRow } from '../signature-row.js';

/** A signer's signing link at the provider opens the signer's session there: it is sealed at rest. */
const urlContext = (signerId: string) => `signature-signer:${signerId}:provider-url`;

export const sealProviderUrl = (appKey: Buffer, signerId: string, url: string): string =>
  seal(appKey, url, urlContext(signerId));

/** A signer's signing link at the provider, opened; null before the request was handed over. */
export function providerUrlOf(config: Config, signer: Pick<SignerRow, 'id' | 'provider_url_sealed'>): string | null {
  if (!signer.provider_url_sealed || !config.appKey) return null;
  return open(config.appKey, signer.provider_url_sealed, urlContext(signer.id));
}
