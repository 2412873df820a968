import { AppError } from '../../../domain/shared/app-error.js';
import type { Caller } from '../../../domain/shared/caller.js';
import type { Deps } from '../../../domain/shared/deps.js';
import { fetchPublicFile, OutboundFetchFailed } from '../../../domain/shared/outbound-fetch.js';
import {
  cancelSignature,
  createSignature,
  getSignature,
  getSignatureDownloadLink,
  listSignatures,
  remindSignature,
} from '../../../domain/signatures/operations/index.js';
import type { JsonSchema } from '../../../schemas/registry.js';
import { CREATE, DESTROY, idArgument, READ, renameId, type ToolSpec, UPDATE } from '../tool.js';

/** The specification's `create_signature` arguments: one signer, the PDF in base64. */
const CREATE_SIGNATURE_ARGUMENTS: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['document_name', 'signer'],
  properties: {
    document_name: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description: 'File name of the PDF, also the request title (`contract.pdf`).',
    },
    signer: {
      type: 'object',
      additionalProperties: false,
      required: ['first_name', 'last_name', 'email'],
      description: 'Who signs.',
      properties: {
        first_name: { type: 'string', minLength: 1, maxLength: 100, description: 'First name.' },
        last_name: { type: 'string', minLength: 1, maxLength: 100, description: 'Last name.' },
        email: {
          type: 'string',
          format: 'email',
          maxLength: 255,
          description: 'E-mail address; the signing link goes there.',
        },
        phone: {
          type: 'string',
          pattern: '^\\+[1-9][0-9]{6,14}$',
          description: 'Mobile number, E.164 (+33612345678); needed for the SMS code.',
        },
      },
    },
    document_base64: {
      type: 'string',
      minLength: 1,
      maxLength: 27963052,
      description: 'The PDF to sign, base64, at most 20 MB.',
    },
    document_url: {
      type: 'string',
      format: 'uri',
      maxLength: 2048,
      description:
        'Where to fetch the PDF instead of sending it (https, a public address; at most 20 MB, 20 s; redirects are not followed).',
    },
    otp_method: {
      type: 'string',
      enum: ['email', 'sms'],
      default: 'email',
      description: 'How the signer gets the one-time code: email (default) or sms (needs signer.phone).',
    },
    redirect_url: { type: 'string', format: 'uri', maxLength: 2048, description: 'Where the signer goes once done.' },
  },
};

/** A document named by URL is fetched under the upload's limits: 20 MB, and 20 s for the whole call. */
const DOCUMENT_FETCH = { maxBytes: 20 * 1024 * 1024, timeoutMs: 20_000 };

async function toCreateSignatureInput(
  args: Record<string, unknown>,
  _caller: Caller,
  deps: Deps,
): Promise<Record<string, unknown>> {
  if ((args.document_base64 === undefined) === (args.document_url === undefined)) {
    throw AppError.validation({ document_base64: ['give exactly one of document_base64 and document_url'] });
  }
  let document = args.document_base64 as string | undefined;
  if (document === undefined) {
    try {
      const bytes = await fetchPublicFile(args.document_url as string, {
        ...DOCUMENT_FETCH,
        allowPrivate: deps.config.allowPrivateUrls,
      });
      document = bytes.toString('base64');
    } catch (err) {
      if (!(err instanceof OutboundFetchFailed)) throw err;
      throw AppError.validation({ document_url: [err.message] });
    }
  }
  const signer = args.signer as Record<string, unknown>;
  return {
    title: args.document_name,
    document_name: args.document_name,
    document,
    signers: [{ ...signer, auth_method: args.otp_method }],
    ...(args.redirect_url ? { redirect_complete_url: args.redirect_url } : {}),
  };
}

const signatureId = (extra: Record<string, JsonSchema> = {}) =>
  idArgument('signature_id', 'The signature request id (UUID).', extra);

export const signatureTools: readonly ToolSpec[] = [
  {
    name: 'create_signature',
    group: 'signatures',
    title: 'Request an electronic signature',
    description:
      'Sends a PDF for an electronic signature (EU simple electronic signature) to one signer, who receives a link and a one-time code by e-mail or SMS. BILLABLE: 1.20 EUR per request with a production key (402 INSUFFICIENT_BALANCE when the balance is too low); free with a sandbox key (code 000000). Returns the request with its status `pending`.',
    input: CREATE_SIGNATURE_ARGUMENTS,
    annotations: CREATE,
    operation: createSignature,
    toInput: toCreateSignatureInput,
  },
  {
    name: 'get_signature',
    group: 'signatures',
    title: 'Read a signature request',
    description:
      'Reads one signature request with its signers and their status (pending, completed, refused, expired, cancelled, or failed: the signature provider could not take it, `failure_reason` says why, and its charge was refunded).',
    input: signatureId(),
    annotations: READ,
    operation: getSignature,
    toInput: renameId('signature_id'),
  },
  {
    name: 'list_signatures',
    group: 'signatures',
    title: 'List signature requests',
    description:
      'Lists signature requests of the key’s environment, newest first, 15 per page by default (at most 100), optionally by status.',
    input: { base: 'SignatureListInput', paging: true, omit: ['environment'] },
    annotations: READ,
    operation: listSignatures,
  },
  {
    name: 'download_signed',
    group: 'signatures',
    title: 'Link to a signed document',
    description:
      'Returns a link `{url, expires_at}`, valid 15 minutes without credentials, to the signed PDF (`signed`, default), the proof file (`audit_trail`) or the document sent (`original`). The first two answer SIGNATURE_NOT_COMPLETED until every signer has signed.',
    input: signatureId({
      type: {
        type: 'string',
        enum: ['signed', 'audit_trail', 'original'],
        default: 'signed',
        description: 'Which file: signed (default), audit_trail or original.',
      },
    }),
    annotations: READ,
    operation: getSignatureDownloadLink,
    toInput: renameId('signature_id'),
  },
  {
    name: 'cancel_signature',
    group: 'signatures',
    title: 'Cancel a signature request',
    description:
      'Cancels a pending signature request: the signing link stops working. DESTRUCTIVE and final; a completed request cannot be cancelled (ALREADY_COMPLETED), nor one already refused, expired, cancelled or failed (INVALID_STATE). Not refunded.',
    input: signatureId(),
    annotations: DESTROY,
    operation: cancelSignature,
    toInput: renameId('signature_id'),
  },
  {
    name: 'send_reminder',
    group: 'signatures',
    title: 'Remind the signers',
    description:
      'Sends the pending signers of a request a reminder with their link. At most one reminder per hour per request; refused for a completed or cancelled request (CANNOT_REMIND, NO_PENDING_SIGNERS).',
    input: signatureId(),
    annotations: { ...UPDATE, idempotentHint: false },
    operation: remindSignature,
    toInput: renameId('signature_id'),
  },
];
