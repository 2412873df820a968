import type { TimeStampAuthority } from './time-stamp-authority.js';
import { tsaUnavailable } from './time-stamp-authority.js';

/** Largest reply read: a token with a certificate chain is a few kilobytes. */
const MAX_REPLY_BYTES = 1024 * 1024;

/**
 * A remote TSA over HTTP (RFC 3161 §3.4): POST the DER request as `application/timestamp-query`,
 * expect `application/timestamp-reply`. Time-outs, network errors, 5xx and any other unexpected
 * answer are PROVIDER_UNAVAILABLE (retryable): the anchor stays pending and the job tries again.
 */
export class HttpTsaClient implements TimeStampAuthority {
  constructor(
    readonly url: string,
    private readonly caPems: string,
    private readonly timeoutMs: number,
  ) {}

  async stamp(request: Buffer): Promise<Buffer> {
    let res: Response;
    try {
      res = await fetch(this.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/timestamp-query', Accept: 'application/timestamp-reply' },
        body: new Uint8Array(request),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
    } catch (err) {
      const reason = (err as Error).name === 'TimeoutError' ? `no answer within ${this.timeoutMs} ms` : 'network error';
      throw tsaUnavailable(reason, err);
    }
    if (res.status !== 200) {
      await res.body?.cancel();
      throw tsaUnavailable(`HTTP ${res.status}`);
    }
    const type = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/timestamp-reply') {
      await res.body?.cancel();
      throw tsaUnavailable(`unexpected content type ${JSON.stringify(type)}`);
    }
    const body = Buffer.from(await res.arrayBuffer());
    if (body.length === 0 || body.length > MAX_REPLY_BYTES) throw tsaUnavailable(`a reply of ${body.length} bytes`);
    return body;
  }

  async trustedCaPems(): Promise<string[]> {
    return [this.caPems];
  }
}
