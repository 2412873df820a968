import type { EmptyInput } from '../../../schemas/common.js';
import { defineQuery } from '../../shared/operation.js';

/** The route's respond hook sets the cookie (api/http/session-cookies.ts); the operation does nothing. */
export const issueCsrfCookie = defineQuery<EmptyInput, null>({
  name: 'issue_csrf_cookie',
  summary:
    'Start the dashboard browser flow: sets the readable XSRF-TOKEN cookie, to echo in X-XSRF-TOKEN on login and on cookie-authenticated changes.',
  input: 'EmptyInput',
  output: 'CsrfCookie',
  callers: ['anonymous'],
  transactional: false,
  async run() {
    return null;
  },
});
