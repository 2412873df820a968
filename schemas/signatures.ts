import type { FromSchema } from 'json-schema-to-ts';
import { pageOf, pageParams } from './common.js';

/** Signature request states (spec "Signature request") and signer states. */
export const SIGNATURE_STATUSES = ['pending', 'completed', 'refused', 'expired', 'cancelled', 'failed'] as const;
export const SIGNER_STATUSES = ['pending', 'signed', 'refused'] as const;
export const AUTH_METHODS = ['email', 'sms', 'both'] as const;
/** Files of a signature request: production names (spec "Signatures") and sandbox names (spec "Sandbox"). */
export const SIGNATURE_FILE_TYPES = ['original', 'signed', 'audit_trail'] as const;
export const SANDBOX_SIGNATURE_FILE_TYPES = ['original', 'signed_pdf', 'proof'] as const;

/** The largest document accepted: 20 MB decoded; its base64 form is 4/3 of that. */
export const SIGNATURE_DOCUMENT_MAX_BYTES = 20 * 1024 * 1024;
const BASE64_MAX_LENGTH = Math.ceil(SIGNATURE_DOCUMENT_MAX_BYTES / 3) * 4;

const id = (description: string) => ({ type: 'string', format: 'uuid', description }) as const;
const str = (description: string) => ({ type: 'string', description }) as const;
const text = (description: string, maxLength = 255) =>
  ({ type: 'string', minLength: 1, maxLength, pattern: '\\S', description }) as const;
const colour = (description: string) =>
  ({ type: 'string', pattern: '^#[0-9A-Fa-f]{6}$', description: `${description}, as #RRGGBB.` }) as const;
const flag = (description: string) => ({ type: 'boolean', description }) as const;
const url = (description: string) => ({ type: 'string', minLength: 1, maxLength: 2048, description }) as const;

const signer = {
  type: 'object',
  additionalProperties: false,
  required: ['first_name', 'last_name', 'auth_method'],
  description: 'A signer. `email` is needed for `email` and `both`, `phone` for `sms` and `both`.',
  properties: {
    first_name: text('First name.', 100),
    last_name: text('Last name.', 100),
    email: { type: 'string', format: 'email', maxLength: 255, description: 'E-mail address (OTP by e-mail).' },
    phone: {
      type: 'string',
      pattern: '^\\+[1-9][0-9]{6,14}$',
      description: 'Mobile number in international E.164 form (+33612345678), for the OTP by SMS.',
    },
    auth_method: { type: 'string', enum: AUTH_METHODS, description: 'How the signer receives the OTP.' },
    message: {
      type: 'string',
      maxLength: 500,
      description: 'Message of at most 500 characters; `{OTP}` is replaced by the code.',
    },
  },
} as const;

const position = {
  type: 'object',
  additionalProperties: false,
  required: ['page', 'x', 'y'],
  description: 'Where a signature block goes.',
  properties: {
    page: { type: 'integer', minimum: 1, description: 'Page, from 1; at most the page count of the document.' },
    x: { type: 'number', minimum: 0, maximum: 5000, description: 'Horizontal position, 0 to 5000.' },
    y: { type: 'number', minimum: 0, maximum: 5000, description: 'Vertical position, 0 to 5000.' },
    unit: { type: 'string', enum: ['percent', 'pixel'], default: 'percent', description: 'Unit of x and y.' },
    width: { type: 'number', exclusiveMinimum: 0, maximum: 5000, description: 'Block width.' },
    height: { type: 'number', exclusiveMinimum: 0, maximum: 5000, description: 'Block height.' },
    page_width_px: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 20000,
      description: 'Page width at 72 dpi; read from the PDF when absent (A4, 595, as a last resort).',
    },
    page_height_px: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 20000,
      description: 'Page height at 72 dpi; read from the PDF when absent (A4, 842, as a last resort).',
    },
  },
} as const;

export const UI_CONFIG_COLOURS = [
  'sidebar_background_color',
  'sidebar_title_color',
  'sidebar_text_color',
  'header_background_color',
  'header_title_color',
  'header_subtitle_color',
  'footer_background_color',
  'button_text_color',
  'button_text_color_hover',
  'button_background_color',
  'button_background_color_hover',
  'sign_button_text_color',
  'sign_button_text_color_hover',
  'sign_button_background_color',
  'sign_button_background_color_hover',
] as const;

const uiConfig = {
  type: 'object',
  additionalProperties: false,
  description:
    'Branding of the signing page. The older form (`logo_url`, `primary_color`, `company_name`) is accepted too.',
  properties: {
    sidebar_logo: url('Logo URL (https, a public address).'),
    sidebar_background_color: colour('Sidebar background'),
    sidebar_title_color: colour('Sidebar title'),
    sidebar_text_color: colour('Sidebar text'),
    header_background_color: colour('Header background'),
    header_title_color: colour('Header title'),
    header_subtitle_color: colour('Header subtitle'),
    footer_background_color: colour('Footer background'),
    button_text_color: colour('Button text'),
    button_text_color_hover: colour('Button text, hovered'),
    button_background_color: colour('Button background'),
    button_background_color_hover: colour('Button background, hovered'),
    sign_button_text_color: colour('Sign button text'),
    sign_button_text_color_hover: colour('Sign button text, hovered'),
    sign_button_background_color: colour('Sign button background'),
    sign_button_background_color_hover: colour('Sign button background, hovered'),
    hide_sidebar: flag('Hide the sidebar.'),
    hide_header: flag('Hide the header.'),
    hide_download_validated: flag('Hide the download of the validated document.'),
    hide_download_signed: flag('Hide the download of the signed document.'),
    iframe_ancestors: {
      type: 'array',
      maxItems: 20,
      items: url('An origin allowed to embed the signing page.'),
      description: 'Origins (https URLs) allowed to embed the signing page in an iframe, at most 20.',
    },
    logo_url: url('Older form: logo URL (https, a public address).'),
    primary_color: colour('Older form: main colour'),
    company_name: text('Older form: company name shown to signers.'),
  },
} as const;

const signatureOptions = {
  type: 'object',
  additionalProperties: false,
  description: 'How signers sign.',
  properties: {
    signature_mode: { type: 'string', enum: ['typed', 'drawn', 'both'], description: 'Typed, drawn, or either.' },
    signer_must_read: flag('The signer must scroll through the document before signing.'),
    user_editable_data: {
      type: 'object',
      additionalProperties: false,
      description: 'What the signer may change about themselves.',
      properties: {
        name: flag('Name.'),
        mobile: flag('Mobile number.'),
        email: flag('E-mail.'),
      },
    },
    timezone: { type: 'string', minLength: 1, maxLength: 64, description: 'IANA time zone (Europe/Paris).' },
  },
} as const;

export const CreateSignatureInput = {
  $id: 'CreateSignatureInput',
  type: 'object',
  description:
    'A signature request (spec "Signature request (creation body)"): a PDF, its signers and where they sign.',
  additionalProperties: false,
  required: ['title', 'document', 'document_name', 'signers'],
  properties: {
    external_id: text('Your reference.'),
    title: text('Title shown to signers.'),
    description: { type: 'string', maxLength: 2000, description: 'Shown to signers.' },
    document: {
      type: 'string',
      minLength: 1,
      // A little room over 20 MB of base64 for a `data:` prefix or line breaks: the decoded size is what counts.
      maxLength: BASE64_MAX_LENGTH + 1024,
      description: 'The PDF, base64; at most 20 MB decoded, checked by content.',
    },
    document_name: text('File name of the document.'),
    signers: { type: 'array', minItems: 1, maxItems: 10, items: signer, description: '1 to 10 signers.' },
    signature_positions: {
      type: 'array',
      maxItems: 100,
      items: position,
      description: 'Where the signature blocks go; a default placement when omitted.',
    },
    ui_config: uiConfig,
    signature_options: signatureOptions,
    redirect_complete_url: url('Where the signer goes after signing (http or https).'),
    redirect_cancel_url: url('Where the signer goes after refusing (http or https).'),
    expires_at: {
      type: 'string',
      format: 'date-time',
      description: 'Deadline: in the future, at most one year ahead; now + 30 days by default.',
    },
    archive_enabled: flag('Keep the signed document in the archive.'),
  },
} as const;
export type CreateSignatureInput = FromSchema<typeof CreateSignatureInput>;

export const SignatureSigner = {
  $id: 'SignatureSigner',
  type: 'object',
  description: 'A signer of a signature request.',
  additionalProperties: false,
  required: [
    'id',
    'first_name',
    'last_name',
    'full_name',
    'email',
    'phone',
    'auth_method',
    'status',
    'signing_url',
    'signed_at',
  ],
  properties: {
    id: id('Signer id.'),
    first_name: str('First name.'),
    last_name: str('Last name.'),
    full_name: str('First and last name.'),
    email: { type: ['string', 'null'], description: 'E-mail address.' },
    phone: { type: ['string', 'null'], description: 'Mobile number, E.164.' },
    auth_method: { type: 'string', enum: AUTH_METHODS, description: 'How the OTP is sent.' },
    status: { type: 'string', enum: SIGNER_STATUSES, description: 'pending, signed or refused.' },
    signing_url: {
      type: ['string', 'null'],
      format: 'uri',
      description:
        "The signer's own signing page; null until a production request is handed over to the signature provider (seconds), and for a `failed` request.",
    },
    signed_at: { type: ['string', 'null'], format: 'date-time', description: 'When the signer signed.' },
  },
} as const;

export const Signature = {
  $id: 'Signature',
  type: 'object',
  description: 'A signature request with its signers.',
  additionalProperties: false,
  required: [
    'id',
    'external_id',
    'title',
    'description',
    'document_name',
    'document_size',
    'status',
    'environment',
    'sub_tenant_id',
    'amount_charged',
    'signers',
    'refusal_reason',
    'failure_reason',
    'failed_at',
    'expires_at',
    'completed_at',
    'created_at',
    'updated_at',
  ],
  properties: {
    id: id('Signature request id.'),
    external_id: { type: ['string', 'null'], description: 'Your reference.' },
    title: str('Title.'),
    description: { type: ['string', 'null'], description: 'Shown to signers.' },
    document_name: str('File name of the document.'),
    document_size: { type: 'integer', description: 'Size of the document in bytes.' },
    status: {
      type: 'string',
      enum: SIGNATURE_STATUSES,
      description:
        'State of the request: `pending`, then `completed`, `refused`, `expired`, `cancelled`, or `failed` (the signature provider could not take it; refunded, see `failure_reason`).',
    },
    environment: { type: 'string', enum: ['sandbox', 'production'], description: "The key's environment." },
    sub_tenant_id: { type: ['string', 'null'], format: 'uuid', description: 'Sub-tenant, if any.' },
    amount_charged: {
      type: 'number',
      description:
        'What creating it cost (1.20 in production, 0 in sandbox). A `failed` request keeps it: its refund is a `signature_refunded` balance movement.',
    },
    signers: { type: 'array', items: { $ref: 'SignatureSigner' }, description: 'Signers, in order.' },
    refusal_reason: { type: ['string', 'null'], description: 'Why a signer refused.' },
    failure_reason: {
      type: ['string', 'null'],
      description:
        'Why the request is `failed`: the signature provider refused it, could not be reached after its retries, or reported an error. Its charge was refunded. Null otherwise.',
    },
    failed_at: { type: ['string', 'null'], format: 'date-time', description: 'When the request failed.' },
    expires_at: { type: 'string', format: 'date-time', description: 'Deadline.' },
    completed_at: { type: ['string', 'null'], format: 'date-time', description: 'When the last signer signed.' },
    created_at: { type: 'string', format: 'date-time', description: 'Creation time.' },
    updated_at: { type: 'string', format: 'date-time', description: 'Last change.' },
  },
} as const;

export const SignatureListInput = {
  $id: 'SignatureListInput',
  type: 'object',
  description: 'Filters of GET /v1/signatures.',
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: SIGNATURE_STATUSES, description: 'Status.' },
    environment: { type: 'string', enum: ['sandbox', 'production'], description: 'Environment.' },
    ...pageParams(25, 100),
  },
} as const;
export type SignatureListInput = FromSchema<typeof SignatureListInput>;

export const SignaturePage = pageOf('SignaturePage', 'Signature', 'A page of signature requests.');

export const SignatureIdInput = {
  $id: 'SignatureIdInput',
  type: 'object',
  description: 'A signature request id.',
  additionalProperties: false,
  required: ['id'],
  properties: { id: id('Signature request id.') },
} as const;
export type SignatureIdInput = FromSchema<typeof SignatureIdInput>;

export const SignatureDownloadInput = {
  $id: 'SignatureDownloadInput',
  type: 'object',
  description: 'Which file of a signature request to link to.',
  additionalProperties: false,
  required: ['id', 'type'],
  properties: {
    id: id('Signature request id.'),
    type: {
      type: 'string',
      enum: SIGNATURE_FILE_TYPES,
      description: '`original`: the document sent; `signed`: the signed PDF; `audit_trail`: the proof file.',
    },
  },
} as const;
export type SignatureDownloadInput = FromSchema<typeof SignatureDownloadInput>;

export const SandboxSignatureDownloadInput = {
  $id: 'SandboxSignatureDownloadInput',
  type: 'object',
  description: 'Which file of a sandbox signature request to link to.',
  additionalProperties: false,
  required: ['id', 'type'],
  properties: {
    id: id('Signature request id.'),
    type: {
      type: 'string',
      enum: SANDBOX_SIGNATURE_FILE_TYPES,
      description:
        '`signed_pdf`: the signed PDF; `proof`: the proof file; `original` (beyond the specification): the document sent.',
    },
  },
} as const;
export type SandboxSignatureDownloadInput = FromSchema<typeof SandboxSignatureDownloadInput>;

export const SignatureFileInput = {
  $id: 'SignatureFileInput',
  type: 'object',
  description: 'A signature download link token.',
  additionalProperties: false,
  required: ['token'],
  properties: {
    token: { type: 'string', maxLength: 4096, description: 'The signed token of the download link.' },
  },
} as const;
export type SignatureFileInput = FromSchema<typeof SignatureFileInput>;

export const SignatureFile = {
  $id: 'SignatureFile',
  type: 'string',
  description: 'The bytes of a signature file (PDF), named in Content-Disposition.',
} as const;

export const SignatureReminder = {
  $id: 'SignatureReminder',
  type: 'object',
  description: 'The outcome of a reminder.',
  additionalProperties: false,
  required: ['message', 'signers_reminded'],
  properties: {
    message: str('What was done.'),
    signers_reminded: { type: 'integer', description: 'How many pending signers are reminded.' },
  },
} as const;
export type SignatureReminder = FromSchema<typeof SignatureReminder>;

export const ExpiredSignatures = {
  $id: 'ExpiredSignatures',
  type: 'object',
  description: 'What the expiry job did.',
  additionalProperties: false,
  required: ['expired'],
  properties: { expired: { type: 'integer', description: 'Requests moved to `expired`.' } },
} as const;
export type ExpiredSignatures = FromSchema<typeof ExpiredSignatures>;

export const SignatureReminderInput = {
  $id: 'SignatureReminderInput',
  type: 'object',
  description: 'A reminder to send for a signature request (the reminder job).',
  additionalProperties: false,
  required: ['id'],
  properties: { id: id('Signature request id.') },
} as const;

export const SignatureReminderMails = {
  $id: 'SignatureReminderMails',
  type: 'object',
  description: 'What a reminder sends: one message per pending signer reachable by e-mail.',
  additionalProperties: false,
  required: ['title', 'environment', 'status', 'signers'],
  properties: {
    title: str('Title of the request.'),
    environment: { type: 'string', enum: ['sandbox', 'production'], description: 'Environment.' },
    status: { type: 'string', enum: SIGNATURE_STATUSES, description: 'Status now.' },
    signers: {
      type: 'array',
      description: 'Pending signers.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['email', 'phone', 'auth_method', 'full_name', 'signing_url'],
        description: 'A pending signer.',
        properties: {
          email: { type: ['string', 'null'], description: 'E-mail.' },
          phone: { type: ['string', 'null'], description: 'Mobile number.' },
          auth_method: { type: 'string', enum: AUTH_METHODS, description: 'OTP channel.' },
          full_name: str('Name.'),
          signing_url: { type: ['string', 'null'], description: 'Signing page (null before the handover).' },
        },
      },
    },
  },
} as const;
export type SignatureReminderMails = FromSchema<typeof SignatureReminderMails>;

export const signatureSchemas = [
  CreateSignatureInput,
  SignatureSigner,
  Signature,
  SignatureListInput,
  SignaturePage,
  SignatureIdInput,
  SignatureDownloadInput,
  SandboxSignatureDownloadInput,
  SignatureFileInput,
  SignatureFile,
  SignatureReminder,
  ExpiredSignatures,
  SignatureReminderInput,
  SignatureReminderMails,
] as const;
