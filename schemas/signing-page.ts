import type { FromSchema } from 'json-schema-to-ts';

/** The signing page's JSON calls (`/sign/{token}/…`): the token in the path is the signer's permission. */
const token = {
  type: 'string',
  minLength: 20,
  maxLength: 100,
  description: "The signer's signing-page token.",
} as const;

export const SigningTokenInput = {
  $id: 'SigningTokenInput',
  type: 'object',
  description: "A signer's signing-page token.",
  additionalProperties: false,
  required: ['token'],
  properties: { token },
} as const;
export type SigningTokenInput = FromSchema<typeof SigningTokenInput>;

export const SigningCodeInput = {
  $id: 'SigningCodeInput',
  type: 'object',
  description: 'The one-time code the signer received.',
  additionalProperties: false,
  required: ['token', 'code'],
  properties: { token, code: { type: 'string', pattern: '^[0-9]{6}$', description: 'The 6-digit code.' } },
} as const;
export type SigningCodeInput = FromSchema<typeof SigningCodeInput>;

export const SignDocumentInput = {
  $id: 'SignDocumentInput',
  type: 'object',
  description: 'The signature: a typed name or a drawing, as the request’s signature_mode allows.',
  additionalProperties: false,
  required: ['token'],
  properties: {
    token,
    typed_name: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S', description: 'The name typed.' },
    drawing: {
      type: 'string',
      maxLength: 2_000_000,
      pattern: '^data:image/png;base64,[A-Za-z0-9+/]+=*$',
      description: 'The drawn signature as a PNG data URL.',
    },
  },
} as const;
export type SignDocumentInput = FromSchema<typeof SignDocumentInput>;

export const RefuseSigningInput = {
  $id: 'RefuseSigningInput',
  type: 'object',
  description: 'Why the signer refuses to sign.',
  additionalProperties: false,
  required: ['token', 'reason'],
  properties: {
    token,
    reason: { type: 'string', minLength: 1, maxLength: 1000, pattern: '\\S', description: 'The reason.' },
  },
} as const;
export type RefuseSigningInput = FromSchema<typeof RefuseSigningInput>;

export const SigningStep = {
  $id: 'SigningStep',
  type: 'object',
  description: 'The outcome of a step on the signing page.',
  additionalProperties: false,
  required: ['message', 'status'],
  properties: {
    message: { type: 'string', description: 'What happened, for the signer.' },
    status: { type: 'string', description: "The request's status after the step." },
    redirect_url: { type: ['string', 'null'], description: 'Where the page goes next, when the request says.' },
    attempts_left: { type: 'integer', description: 'Wrong codes left before the code is locked.' },
    verified: { type: 'boolean', description: 'Whether the code was right (code checks only).' },
  },
} as const;
export type SigningStep = FromSchema<typeof SigningStep>;

const nullableText = (description: string) => ({ type: ['string', 'null'], description }) as const;

export const SigningPage = {
  $id: 'SigningPage',
  type: 'object',
  description: 'What the signing page shows a signer.',
  additionalProperties: false,
  required: [
    'status',
    'signer_status',
    'environment',
    'title',
    'description',
    'document_name',
    'signer_name',
    'signature_mode',
    'ui_config',
    'redirect_complete_url',
    'redirect_cancel_url',
  ],
  properties: {
    status: { type: 'string', description: "The request's status (expired once past its deadline)." },
    signer_status: { type: 'string', description: "The signer's status." },
    environment: { type: 'string', description: 'sandbox or production.' },
    title: { type: 'string', description: 'Title.' },
    description: nullableText('Description.'),
    document_name: { type: 'string', description: 'File name.' },
    signer_name: { type: 'string', description: "The signer's full name." },
    signature_mode: { type: 'string', description: 'typed, drawn or both.' },
    ui_config: { type: ['object', 'null'], description: 'Branding.', additionalProperties: true },
    redirect_complete_url: nullableText('Where the page goes after signing.'),
    redirect_cancel_url: nullableText('Where the page goes after a refusal.'),
  },
} as const;

export const SigningDocument = {
  $id: 'SigningDocument',
  type: 'string',
  description: 'The document to sign (PDF), as uploaded.',
} as const;

export const IssueSigningCodeInput = {
  $id: 'IssueSigningCodeInput',
  type: 'object',
  description: 'The signer to make a one-time code for.',
  additionalProperties: false,
  required: ['signer_id'],
  properties: { signer_id: { type: 'string', format: 'uuid', description: 'Signer id.' } },
} as const;
export type IssueSigningCodeInput = FromSchema<typeof IssueSigningCodeInput>;

export const SigningCodeMessage = {
  $id: 'SigningCodeMessage',
  type: 'object',
  description: 'A one-time code to send, and where.',
  additionalProperties: false,
  required: ['sent', 'email', 'phone', 'channels', 'subject', 'text'],
  properties: {
    sent: { type: 'boolean', description: 'False when the signer or the request has answered meanwhile.' },
    email: { type: ['string', 'null'], description: 'E-mail.' },
    phone: { type: ['string', 'null'], description: 'Mobile number.' },
    channels: { type: 'array', items: { type: 'string', enum: ['email', 'sms'] }, description: 'Where to send.' },
    subject: { type: 'string', description: 'Mail subject.' },
    text: { type: 'string', description: 'The message, with the code.' },
  },
} as const;

export const signingPageSchemas = [
  IssueSigningCodeInput,
  SigningCodeMessage,
  SigningTokenInput,
  SigningCodeInput,
  SignDocumentInput,
  RefuseSigningInput,
  SigningStep,
  SigningPage,
  SigningDocument,
] as const;
