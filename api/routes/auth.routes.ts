import { completeGoogleSignIn } from '../../domain/users/operations/complete-google-sign-in.js';
import { getCurrentUser } from '../../domain/users/operations/get-current-user.js';
import { getGoogleSignInUrl } from '../../domain/users/operations/get-google-sign-in-url.js';
import { issueCsrfCookie } from '../../domain/users/operations/issue-csrf-cookie.js';
import { loginUser } from '../../domain/users/operations/login-user.js';
import { logoutUser } from '../../domain/users/operations/logout-user.js';
import { registerUser } from '../../domain/users/operations/register-user.js';
import { requestPasswordReset } from '../../domain/users/operations/request-password-reset.js';
import { resendEmailVerification } from '../../domain/users/operations/resend-email-verification.js';
import { resetPassword } from '../../domain/users/operations/reset-password.js';
import { verifyEmail } from '../../domain/users/operations/verify-email.js';
import {
  respondToLogout,
  respondWithCsrfCookie,
  respondWithGoogleSignIn,
  respondWithGoogleUrl,
  respondWithSignIn,
} from '../http/auth-responders.js';
import type { RouteSpec } from '../http/route-spec.js';

const tag = 'Auth';

export const authRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/api/v1/auth/register',
    operation: registerUser,
    tag,
    auth: ['none'],
    rateLimit: 'credentials',
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
    rateLimit: 'credentials',
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
    rateLimit: 'credentials',
    envelope: 'raw',
  },
  {
    method: 'post',
    path: '/api/v1/auth/reset-password',
    operation: resetPassword,
    tag,
    auth: ['none'],
    rateLimit: 'credentials',
    envelope: 'raw',
  },
  {
    method: 'post',
    path: '/api/v1/auth/verify-email',
    operation: verifyEmail,
    tag,
    auth: ['none'],
    rateLimit: 'credentials',
    envelope: 'raw',
  },
  {
    method: 'post',
    path: '/api/v1/auth/verify-email/resend',
    operation: resendEmailVerification,
    tag,
    auth: ['bearer', 'cookie'],
    rateLimit: 'credentials',
    envelope: 'raw',
  },
  {
    method: 'get',
    path: '/api/v1/auth/google',
    operation: getGoogleSignInUrl,
    tag,
    auth: ['none'],
    envelope: 'raw',
    respond: respondWithGoogleUrl,
    // 503: Google sign-in is not configured on this server.
    errors: [503],
  },
  {
    method: 'get',
    path: '/api/v1/auth/google/callback',
    operation: completeGoogleSignIn,
    tag,
    auth: ['none'],
    rateLimit: 'credentials',
    envelope: 'raw',
    respond: respondWithGoogleSignIn,
    // 401: the sign-in was not started in this browser, expired or was refused; 503: not configured.
    errors: [401, 503],
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
