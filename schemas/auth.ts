import type { FromSchema } from 'json-schema-to-ts';

// Dashboard users: registration, sign-in (password, Google, cookie session), password reset.

const email = { type: 'string', format: 'email', maxLength: 255, description: 'Login e-mail.' } as const;
const newPassword = {
  type: 'string',
  maxLength: 200,
  description:
    'At least 10 characters and 5 different ones, mixing at least two of: lowercase, uppercase, digits, other characters; not the e-mail.',
} as const;
const name = (description: string) =>
  ({ type: 'string', minLength: 1, maxLength: 100, pattern: '\\S', description }) as const;

export const User = {
  $id: 'User',
  type: 'object',
  description: 'A dashboard account.',
  additionalProperties: false,
  required: [
    'id',
    'email',
    'first_name',
    'last_name',
    'phone',
    'role',
    'is_active',
    'avatar_url',
    'email_verified_at',
    'last_login_at',
    'created_at',
  ],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Id of the user.' },
    email: { type: 'string', description: 'Login e-mail (lower case).' },
    first_name: { type: 'string', description: 'First name.' },
    last_name: { type: 'string', description: 'Last name.' },
    phone: { type: ['string', 'null'], description: 'Phone number in E.164 form (`+33612345678`).' },
    role: { type: 'string', enum: ['user', 'admin'], description: '`user`, or `admin` for operators.' },
    is_active: { type: 'boolean', description: 'False once an admin disabled the account.' },
    avatar_url: { type: ['string', 'null'], description: 'Picture URL (from Google sign-in), if any.' },
    email_verified_at: {
      type: ['string', 'null'],
      format: 'date-time',
      description:
        'When the e-mail was proven (the mailed link, Google sign-in or a password reset); null until then. Production API keys need it.',
    },
    last_login_at: { type: ['string', 'null'], format: 'date-time', description: 'Last sign-in.' },
    created_at: { type: 'string', format: 'date-time', description: 'When the account was created.' },
  },
} as const;
export type User = FromSchema<typeof User>;

export const AuthSession = {
  $id: 'AuthSession',
  type: 'object',
  description:
    'A signed-in user. `token` is the bearer token; in the dashboard browser flow it is null and the session lives only in the HttpOnly cookie.',
  additionalProperties: false,
  required: ['message', 'user', 'token', 'token_type', 'expires_at'],
  properties: {
    message: { type: 'string', description: 'What happened, in words.' },
    user: { $ref: 'User', description: 'The signed-in user.' },
    token: {
      type: ['string', 'null'],
      description: 'Access token for `Authorization: Bearer`; null when a session cookie was set instead.',
    },
    token_type: {
      type: 'string',
      enum: ['bearer', 'session'],
      description: '`bearer` (token in the body) or `session` (HttpOnly cookie `einvoice_session`).',
    },
    expires_at: { type: 'string', format: 'date-time', description: 'When the token or session ends.' },
  },
} as const;
/** The registry's `$ref: 'User'` is resolved by naming the User schema as a reference. */
export type AuthSession = FromSchema<typeof AuthSession, { references: [typeof User] }>;

export const AuthMessage = {
  $id: 'AuthMessage',
  type: 'object',
  description: 'A confirmation.',
  additionalProperties: false,
  required: ['message'],
  properties: { message: { type: 'string', description: 'What happened, in words.' } },
} as const;
export type AuthMessage = FromSchema<typeof AuthMessage>;

export const RegisterUserInput = {
  $id: 'RegisterUserInput',
  type: 'object',
  description: 'A new dashboard account, with its own workspace.',
  additionalProperties: false,
  required: ['email', 'password', 'first_name', 'last_name', 'phone'],
  properties: {
    email,
    password: newPassword,
    first_name: name('First name.'),
    last_name: name('Last name.'),
    phone: {
      type: 'string',
      minLength: 1,
      maxLength: 32,
      description: 'International phone number (`+33 6 12 34 56 78`); stored in E.164 form.',
    },
  },
} as const;
export type RegisterUserInput = FromSchema<typeof RegisterUserInput>;

export const LoginUserInput = {
  $id: 'LoginUserInput',
  type: 'object',
  description: 'E-mail and password of a dashboard account.',
  additionalProperties: false,
  required: ['email', 'password'],
  properties: {
    email: { type: 'string', minLength: 1, maxLength: 255, description: 'Login e-mail.' },
    password: { type: 'string', minLength: 1, maxLength: 200, description: 'Password.' },
  },
} as const;
export type LoginUserInput = FromSchema<typeof LoginUserInput>;

export const ForgotPasswordInput = {
  $id: 'ForgotPasswordInput',
  type: 'object',
  description: 'The e-mail of the account whose password was forgotten.',
  additionalProperties: false,
  required: ['email'],
  properties: { email },
} as const;
export type ForgotPasswordInput = FromSchema<typeof ForgotPasswordInput>;

export const ResetPasswordInput = {
  $id: 'ResetPasswordInput',
  type: 'object',
  description: 'The token from the reset e-mail and the new password.',
  additionalProperties: false,
  required: ['token', 'email', 'password', 'password_confirmation'],
  properties: {
    token: { type: 'string', minLength: 1, maxLength: 200, description: 'Token from the reset link.' },
    email,
    password: newPassword,
    password_confirmation: { type: 'string', maxLength: 200, description: 'The new password again.' },
  },
} as const;
export type ResetPasswordInput = FromSchema<typeof ResetPasswordInput>;

export const CreatePasswordResetInput = {
  $id: 'CreatePasswordResetInput',
  type: 'object',
  description: 'Worker step of a password reset: make the token to mail.',
  additionalProperties: false,
  required: ['user_id'],
  properties: { user_id: { type: 'string', format: 'uuid', description: 'The user who asked.' } },
} as const;
export type CreatePasswordResetInput = FromSchema<typeof CreatePasswordResetInput>;

export const PasswordResetCreated = {
  $id: 'PasswordResetCreated',
  type: 'object',
  description: 'A reset token to mail (shown this once: only its SHA-256 is kept), or null when none is due.',
  additionalProperties: false,
  required: ['token', 'email', 'first_name', 'expires_at'],
  properties: {
    token: { type: ['string', 'null'], description: 'The reset token; null for a missing or disabled user.' },
    email: { type: ['string', 'null'], description: 'Where to send it.' },
    first_name: { type: ['string', 'null'], description: 'For the greeting.' },
    expires_at: { type: ['string', 'null'], format: 'date-time', description: 'When the token stops working.' },
  },
} as const;
export type PasswordResetCreated = FromSchema<typeof PasswordResetCreated>;

export const VerifyEmailInput = {
  $id: 'VerifyEmailInput',
  type: 'object',
  description: 'The token of the verification link (its `token` query parameter).',
  additionalProperties: false,
  required: ['token'],
  properties: {
    token: { type: 'string', minLength: 1, maxLength: 1000, description: 'Token from the verification link.' },
  },
} as const;
export type VerifyEmailInput = FromSchema<typeof VerifyEmailInput>;

export const PrepareEmailVerificationInput = {
  $id: 'PrepareEmailVerificationInput',
  type: 'object',
  description: 'Worker step of an e-mail verification: make the token to mail.',
  additionalProperties: false,
  required: ['user_id'],
  properties: { user_id: { type: 'string', format: 'uuid', description: 'The user to verify.' } },
} as const;
export type PrepareEmailVerificationInput = FromSchema<typeof PrepareEmailVerificationInput>;

export const EmailVerificationPrepared = {
  $id: 'EmailVerificationPrepared',
  type: 'object',
  description: 'A verification token to mail, or nulls when none is due (user disabled or already verified).',
  additionalProperties: false,
  required: ['token', 'email', 'first_name', 'expires_at'],
  properties: {
    token: { type: ['string', 'null'], description: 'The verification token.' },
    email: { type: ['string', 'null'], description: 'Where to send it.' },
    first_name: { type: ['string', 'null'], description: 'For the greeting.' },
    expires_at: { type: ['string', 'null'], format: 'date-time', description: 'When the token stops working.' },
  },
} as const;
export type EmailVerificationPrepared = FromSchema<typeof EmailVerificationPrepared>;

export const GoogleSignInUrl = {
  $id: 'GoogleSignInUrl',
  type: 'object',
  description: 'Where to send the browser to sign in with Google; the state in it is valid 10 minutes.',
  additionalProperties: false,
  required: ['url'],
  properties: { url: { type: 'string', format: 'uri', description: "Google's authorization page URL." } },
} as const;
export type GoogleSignInUrl = FromSchema<typeof GoogleSignInUrl>;

const callbackParam = (description: string) => ({ type: 'string', maxLength: 4096, description }) as const;

export const GoogleCallbackInput = {
  $id: 'GoogleCallbackInput',
  type: 'object',
  description: 'The query string Google redirects back with (OAuth 2.0 authorization response).',
  additionalProperties: false,
  properties: {
    code: callbackParam('Authorization code.'),
    state: callbackParam('The state from GET /v1/auth/google, returned unchanged.'),
    error: callbackParam('Set instead of `code` when the user refused or Google failed (`access_denied`).'),
    error_description: callbackParam('Details of `error`.'),
    error_uri: callbackParam('A page about `error` (RFC 6749 §4.1.2.1).'),
    scope: callbackParam('Scopes granted (sent by Google, ignored).'),
    authuser: callbackParam('Google account index (sent by Google, ignored).'),
    prompt: callbackParam('Prompt shown (sent by Google, ignored).'),
    hd: callbackParam('Hosted domain (sent by Google, ignored).'),
    iss: callbackParam('Issuer (sent by Google, ignored).'),
  },
} as const;
export type GoogleCallbackInput = FromSchema<typeof GoogleCallbackInput>;

export const CsrfCookie = {
  $id: 'CsrfCookie',
  type: 'null',
  description: 'No body (204): the readable XSRF-TOKEN cookie is set.',
} as const;

export const authSchemas = [
  User,
  AuthSession,
  AuthMessage,
  RegisterUserInput,
  LoginUserInput,
  ForgotPasswordInput,
  ResetPasswordInput,
  CreatePasswordResetInput,
  PasswordResetCreated,
  VerifyEmailInput,
  PrepareEmailVerificationInput,
  EmailVerificationPrepared,
  GoogleSignInUrl,
  GoogleCallbackInput,
  CsrfCookie,
];
