import { createHash } from 'node:crypto';
import { postJson, readJson } from './http.js';

type Request = (path: string, init?: RequestInit) => Promise<Response>;

export interface SimulatedCompany {
  company_name?: string;
  siret?: string;
  email?: string;
  review_seconds?: string;
  decision?: 'approve' | 'refuse';
}

/** A valid SIRET (Luhn) distinct per call: 9-digit SIREN stem + NIC, fixed up to pass the check. */
export function freshSiret(): string {
  for (;;) {
    const digits = Array.from({ length: 13 }, () => Math.floor(Math.random() * 10)).join('');
    for (let last = 0; last < 10; last++) {
      const candidate = `${digits}${last}`;
      let sum = 0;
      for (let i = 0; i < 14; i++) {
        let d = Number(candidate[13 - i]);
        if (i % 2 === 1) {
          d *= 2;
          if (d > 9) d -= 9;
        }
        sum += d;
      }
      if (sum % 10 === 0) return candidate;
    }
  }
}

/**
 * What a browser does on the simulator's authorization page, without one: the form's GET to
 * `/decide` with the authorization request's fields, then the redirect to the callback page,
 * whose query is returned (`code` and `state`, or `error`).
 */
export async function passSimulator(
  request: Request,
  authorizeUrl: string,
  company: SimulatedCompany = {},
): Promise<URLSearchParams> {
  const url = new URL(authorizeUrl);
  const form = new URLSearchParams();
  for (const name of ['state', 'redirect_uri', 'code_challenge', 'code_challenge_method']) {
    form.set(name, url.searchParams.get(name) ?? '');
  }
  form.set('decision', company.decision ?? 'approve');
  form.set('company_name', company.company_name ?? 'Dupont SARL');
  form.set('siret', company.siret ?? freshSiret());
  form.set('email', company.email ?? `owner-${Math.random().toString(36).slice(2)}@example.com`);
  form.set('review_seconds', company.review_seconds ?? '0');
  const res = await request(`/simulator/superpdp/oauth2/decide?${form}`, { redirect: 'manual' });
  if (res.status !== 302) throw new Error(`simulator answered ${res.status}: ${await res.text()}`);
  return new URL(res.headers.get('location') ?? '').searchParams;
}

export const s256 = (verifier: string): string => createHash('sha256').update(verifier, 'ascii').digest('base64url');

/** Session → authorize → simulator → callback (partner or tenant routes), returning each step's answer. */
export async function onboardThroughSimulator(
  request: Request,
  options: {
    variant: 'partner' | 'tenant';
    publishableKey: string;
    /** Who creates the session (a tenant key may, for sub-tenants); the publishable key by default. */
    sessionHeaders?: Record<string, string>;
    company?: SimulatedCompany;
    session?: Record<string, unknown>;
  },
) {
  const base = options.variant === 'partner' ? '/api/v1/onboarding' : '/api/v1/tenant/onboarding';
  const pk = { 'X-Publishable-Key': options.publishableKey };
  const created = await request(
    `${base}/sessions`,
    postJson({ mode: 'embedded', ...options.session }, options.sessionHeaders ?? pk),
  );
  const session = (await readJson(created)).data;
  if (created.status !== 201) throw new Error(`session: ${created.status} ${JSON.stringify(session)}`);
  const authorized = await readJson(
    await request(`${base}/superpdp/authorize`, postJson({ session_id: session.id }, pk)),
  );
  const authorization = options.variant === 'partner' ? authorized.data : authorized;
  const redirect = await passSimulator(request, authorization.authorize_url, options.company);
  const callback = await request(
    `${base}/superpdp/callback`,
    postJson({ session_id: session.id, code: redirect.get('code') ?? '', state: redirect.get('state') ?? '' }, pk),
  );
  return { session, authorization, redirect, callback, callbackBody: await readJson(callback) };
}
