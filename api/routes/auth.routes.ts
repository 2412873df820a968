import { completeGoogleSignIn } from '../../domain/users/operations/complete-google-sign-in.js';
import { getCurrentUser } from '../../domain/users/operations/get-current-user.js';
import { getGoogleSignInUrl } from '../../domain/users/operations/get-google-sign-in-url.js';
import { issueCsrfCookie } from '../../domain/users/operations/issue-csrf-cookie.js';
import { loginUser } from '../../domain/users/operations/login-user.js';
import { logoutUser } from '../../domain/users/operations/logout-user.js';
import { registerUser } from '../../domain/users/operations/register-user.js';
import { requestPasswordReset } from '../../domain/users/operations/request-password-reset.js';
import { resetPassword } from '../../domain/users/operations/reset-password.js';
import { respondToLogout, respondWithCsrfCookie, respondWithSignIn } from '../http/auth-responders.js';
import type { RouteSpec } from '../http/route-spec.js';

const tag = 'Auth';

export const authRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/api/v1/auth/register',
    operation: registerUser,
    tag,
    auth: ['none'],
    status: 201,
    envelope: 'raw',
    respond: respondWithSignIn,
  },
  {
    method: 'post',
    path: '/api/v1/auth/login',
    operation: loginUser,
    tag,
    auth: ['none'],
    envelope: 'raw',
    respond: respondWithSignIn,
  },
  {
    method: 'post',
    path: '/api/v1/auth/logout',
    operation: logoutUser,
    tag,
    auth: ['bearer', 'cookie'],
    envelope: 'raw',
    respond: respondToLogout,
  },
  { method: 'get', path: '/api/v1/auth/me', operation: getCurrentUser, tag, auth: ['bearer', 'cookie'] },
  {
    method: 'post',
    path: '/api/v1/auth/forgot-password',
    operation: requestPasswordReset,
    tag,
    auth: ['none'],
    envelope: 'raw',
  },
  {
    method: 'post',
    path: '/api/v1/auth/reset-password',
    operation: resetPassword,
    tag,
    auth: ['none'],
    envelope: 'raw',
  },
  { method: 'get', path: '/api/v1/auth/google', operation: getGoogleSignInUrl, tag, auth: ['none'], envelope: 'raw' },
  {
    method: 'get',
    path: '/api/v1/auth/google/callback',
    operation: completeGoogleSignIn,
    tag,
    auth: ['none'],
    envelope: 'raw',
    respond: respondWithSignIn,
  },
  {
    method: 'get',
    path: '/sanctum/csrf-cookie',
    operation: issueCsrfCookie,
    tag,
    auth: ['none'],
    status: 204,
    respond: respondWithCsrfCookie,
  },
];
