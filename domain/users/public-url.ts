import type { Config } from '../shared/config.js';

/** The service's external base URL, for links in mail and OAuth redirects (no trailing slash). */
export const publicBaseUrlOf = (config: Config): string =>
  (config.publicBaseUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, '');
