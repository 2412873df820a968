import type { ExecutionContext } from 'ava';
import { readJson } from './http.js';

/** An error in the specification's shape: the status, `code` = `error_code`, `error` in lower case, a message. */
// biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary fields
export async function expectRefusal(t: ExecutionContext, res: Response, status: number, code: string): Promise<any> {
  const body = await readJson(res);
  t.is(res.status, status, JSON.stringify(body));
  t.is(body.code, code, JSON.stringify(body));
  t.is(body.error_code, code);
  t.is(body.error, code.toLowerCase());
  t.is(typeof body.message, 'string');
  return body;
}

/** A 422 validation failure naming `field` (with exactly `message`, when given). */
// biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary fields
export async function expectInvalid(t: ExecutionContext, res: Response, field: string, message?: string): Promise<any> {
  const body = await readJson(res);
  t.is(res.status, 422, JSON.stringify(body));
  t.truthy(body.errors?.[field], `errors.${field} in ${JSON.stringify(body)}`);
  if (message) t.deepEqual(body.errors[field], [message]);
  return body;
}
