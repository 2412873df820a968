import type { FromSchema } from 'json-schema-to-ts';

/**
 * The signature provider's side of a request (Openapi EU-SES): what the workers hand over, read back
 * and apply, and the provider's callback as received. Not for integrators.
 */

const str = (description: string, maxLength = 2048) => ({ type: 'string', maxLength, description }) as const;
const nullableStr = (description: string, maxLength = 2048) =>
  ({ type: ['string', 'null'], maxLength, description }) as const;
const base64 = (description: string) => ({ type: 'string', contentEncoding: 'base64', description }) as const;

const providerSigner = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'state', 'url', 'signed_at', 'reason'],
  properties: {
    id: str("The provider's signer id.", 255),
    state: { type: 'string', enum: ['pending', 'signed', 'refused'], description: "The signer's state." },
    url: nullableStr("The signer's signing link at the provider."),
    signed_at: { type: ['string', 'null'], format: 'date-time', description: 'When the signer signed, if said.' },
    reason: nullableStr("A refusal's reason, if given.", 1000),
  },
} as const;

export const ProviderSignatureState = {
  $id: 'ProviderSignatureState',
  type: 'object',
  description: 'A request as the provider reports it.',
  additionalProperties: false,
  required: ['id', 'state', 'signers', 'error'],
  properties: {
    id: str("The provider's request id.", 255),
    state: str('WAIT_VALIDATION, WAIT_SIGN, WAIT_SIGNER(S), DONE or ERROR.', 40),
    signers: { type: 'array', maxItems: 10, items: providerSigner, description: 'The signers, in their order.' },
    error: nullableStr("The provider's error, in state ERROR.", 600),
  },
} as const;
export type ProviderSignatureState = FromSchema<typeof ProviderSignatureState>;

export const SignatureHandover = {
  $id: 'SignatureHandover',
  type: 'object',
  description:
    'What submitting a request takes: nothing (`ready` false: not pending, not Openapi, or already handed over), or the request for the provider.',
  additionalProperties: false,
  required: ['ready', 'status', 'attempted_at'],
  properties: {
    ready: { type: 'boolean', description: 'Whether to hand the request over now.' },
    status: str('The request status.', 40),
    attempted_at: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'When an earlier attempt started whose answer was lost: look the request up first.',
    },
    request: {
      type: 'object',
      additionalProperties: false,
      required: [
        'document',
        'signers',
        'callback_url',
        'signature_mode',
        'complete_url',
        'cancel_url',
        'iframe_ancestors',
      ],
      description: 'The request, as the provider takes it.',
      properties: {
        document: base64('The original PDF.'),
        signers: {
          type: 'array',
          maxItems: 10,
          description: 'The signers, in their order.',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'surname', 'email', 'mobile', 'authentication', 'message', 'signatures'],
            properties: {
              name: str('First name.', 255),
              surname: str('Last name.', 255),
              email: nullableStr('E-mail.', 320),
              mobile: nullableStr('Mobile number.', 40),
              authentication: {
                type: 'array',
                items: { type: 'string', enum: ['email', 'sms'] },
                description: 'OTP channels.',
              },
              message: nullableStr('The OTP message.', 500),
              signatures: {
                type: 'array',
                description: 'Where the signer signs: page and top-left corner in points from the top-left.',
                items: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['page', 'x', 'y'],
                  properties: {
                    page: { type: 'integer', minimum: 1, description: 'Page, from 1.' },
                    x: { type: 'number', description: 'Points from the left.' },
                    y: { type: 'number', description: 'Points from the top.' },
                  },
                },
              },
            },
          },
        },
        callback_url: str('Our callback URL, with its opaque token.'),
        signature_mode: {
          type: 'array',
          items: { type: 'string', enum: ['typed', 'drawn'] },
          description: 'Accepted signatures.',
        },
        complete_url: nullableStr('Where a signer goes after signing.'),
        cancel_url: nullableStr('Where a signer goes after refusing.'),
        iframe_ancestors: { type: 'array', items: str('Origin.'), description: 'Origins allowed to frame the page.' },
      },
    },
  },
} as const;
export type SignatureHandover = FromSchema<typeof SignatureHandover>;

export const RecordSignatureHandoverInput = {
  $id: 'RecordSignatureHandoverInput',
  type: 'object',
  description:
    "The provider's answer to a handover: the request it made, its refusal, or that it could not be reached (one more attempt).",
  additionalProperties: false,
  required: ['id'],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Our request id.' },
    provider: { $ref: 'ProviderSignatureState', description: "The provider's request." },
    refusal: str("The provider's refusal.", 600),
    unavailable: str('Why the provider could not be reached (network, timeout, 5xx, 429, a malformed answer).', 600),
  },
} as const;
export type RecordSignatureHandoverInput = FromSchema<
  typeof RecordSignatureHandoverInput,
  { references: [typeof ProviderSignatureState] }
>;

export const ApplyProviderStateInput = {
  $id: 'ApplyProviderStateInput',
  type: 'object',
  description: "A request's state at the provider, with the signed PDF and the proof file once it is DONE.",
  additionalProperties: false,
  required: ['id', 'provider'],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Our request id.' },
    provider: { $ref: 'ProviderSignatureState', description: 'The state read from the provider.' },
    signed_pdf: base64('The signed PDF (state DONE).'),
    proof_pdf: base64("The provider's audit trail as a PDF (state DONE)."),
  },
} as const;
export type ApplyProviderStateInput = FromSchema<
  typeof ApplyProviderStateInput,
  { references: [typeof ProviderSignatureState] }
>;

export const ProviderSignatureRef = {
  $id: 'ProviderSignatureRef',
  type: 'object',
  description: "A request's provider and its id there.",
  additionalProperties: false,
  required: ['status', 'provider', 'provider_id', 'provider_state'],
  properties: {
    status: str('Our status.', 40),
    provider: nullableStr('simulator or openapi.', 40),
    provider_id: nullableStr("The provider's id.", 255),
    provider_state: nullableStr("The provider's last known state.", 40),
  },
} as const;
export type ProviderSignatureRef = FromSchema<typeof ProviderSignatureRef>;

export const SignatureProviderOutcome = {
  $id: 'SignatureProviderOutcome',
  type: 'object',
  description: 'What a provider job did.',
  additionalProperties: false,
  required: ['signature_id', 'status', 'outcome'],
  properties: {
    signature_id: { type: 'string', format: 'uuid', description: 'Our request id.' },
    status: str('Our status afterwards.', 40),
    outcome: str('What was done.', 80),
  },
} as const;
export type SignatureProviderOutcome = FromSchema<typeof SignatureProviderOutcome>;

export const ProviderSignatureSweep = {
  $id: 'ProviderSignatureSweep',
  type: 'object',
  description: 'How many provider requests the poll queued for a sync.',
  additionalProperties: false,
  required: ['queued'],
  properties: { queued: { type: 'integer', minimum: 0, description: 'Syncs queued.' } },
} as const;
export type ProviderSignatureSweep = FromSchema<typeof ProviderSignatureSweep>;

export const OpenapiCallbackInput = {
  $id: 'OpenapiCallbackInput',
  type: 'object',
  description:
    "Openapi's callback as received: the body (JSON, or a form with `data`), only a hint, and the opaque token of the URL.",
  additionalProperties: false,
  required: ['raw_body'],
  properties: {
    raw_body: base64('The request body, byte for byte.'),
    t: str("The request's callback token.", 200),
  },
} as const;
export type OpenapiCallbackInput = FromSchema<typeof OpenapiCallbackInput>;

export const signatureProviderJobSchemas = [
  ProviderSignatureState,
  SignatureHandover,
  RecordSignatureHandoverInput,
  ApplyProviderStateInput,
  ProviderSignatureRef,
  SignatureProviderOutcome,
  ProviderSignatureSweep,
  OpenapiCallbackInput,
] as const;
