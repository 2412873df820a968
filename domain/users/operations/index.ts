/** The operations of the users context: what routes, job handlers and the CLI call through execute(). */

export { completeGoogleSignIn } from './complete-google-sign-in.js';
export { createAdmin } from './create-admin.js';
export { createPasswordReset } from './create-password-reset.js';
export { getCurrentUser } from './get-current-user.js';
export { getGoogleSignInUrl } from './get-google-sign-in-url.js';
export { issueCsrfCookie } from './issue-csrf-cookie.js';
export { loginUser } from './login-user.js';
export { logoutUser } from './logout-user.js';
export { prepareEmailVerification } from './prepare-email-verification.js';
export { registerUser } from './register-user.js';
export { requestPasswordReset } from './request-password-reset.js';
export { resendEmailVerification } from './resend-email-verification.js';
export { resetPassword } from './reset-password.js';
export { verifyEmail } from './verify-email.js';
