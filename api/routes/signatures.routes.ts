import {
  cancelSandboxSignature,
  cancelSignature,
  createSignature,
  downloadSignatureFile,
  getSandboxSignatureDownloadLink,
  getSignature,
  getSignatureDownloadLink,
  listSignatures,
  receiveOpenapiSignatureCallback,
  remindSandboxSignature,
  remindSignature,
} from '../../domain/signatures/operations/index.js';
import type { RouteSpec } from '../http/route-spec.js';

/** Creation answers 201; the body carries the PDF in base64 (20 MB decoded, so about 27 MB of JSON). */
const created = { status: 201, message: 'Signature request created.', bodyLimit: '28mb' } as const;

const BY_ID = '/api/v1/signatures/{id}';
const SANDBOX_BY_ID = '/api/v1/sandbox/signatures/{id}';
/** [Bearer] in the reference for reading, [ApiKey] in the tutorials: the dashboard and every secret key. */
const reading = { tag: 'Signatures', auth: ['bearer', 'cookie', 'api_key'] } as const;
const acting = { tag: 'Signatures', auth: ['api_key'] } as const;
const sandbox = { tag: 'Sandbox', auth: ['api_key'], environment: 'sandbox' } as const;

/**
 * Spec "Signatures": a production request is paid for from the prepaid balance (402 when short);
 * 503 when production has no signature provider.
 */
export const signatureRoutes: RouteSpec[] = [
  { ...acting, method: 'post', path: '/api/v1/signatures', operation: createSignature, ...created, errors: [402, 503] },
  { ...reading, method: 'get', path: '/api/v1/signatures', operation: listSignatures, envelope: 'raw' },
  { ...reading, method: 'get', path: BY_ID, operation: getSignature },
  {
    ...acting,
    method: 'get',
    path: `${BY_ID}/download/{type}`,
    operation: getSignatureDownloadLink,
    envelope: 'raw',
    errors: [409],
  },
  { ...acting, method: 'post', path: `${BY_ID}/remind`, operation: remindSignature, envelope: 'raw' },
  {
    ...acting,
    method: 'post',
    path: `${BY_ID}/cancel`,
    operation: cancelSignature,
    message: 'Signature request cancelled.',
    errors: [409],
  },
];

/** Spec "Sandbox": the same resource for sk_test_ keys, with the sandbox's 422 refusals and file names. */
export const sandboxSignatureRoutes: RouteSpec[] = [
  { ...sandbox, method: 'post', path: '/api/v1/sandbox/signatures', operation: createSignature, ...created },
  { ...sandbox, method: 'get', path: '/api/v1/sandbox/signatures', operation: listSignatures, envelope: 'raw' },
  { ...sandbox, method: 'get', path: SANDBOX_BY_ID, operation: getSignature },
  {
    ...sandbox,
    method: 'get',
    path: `${SANDBOX_BY_ID}/download/{type}`,
    operation: getSandboxSignatureDownloadLink,
    envelope: 'raw',
    errors: [409],
  },
  { ...sandbox, method: 'post', path: `${SANDBOX_BY_ID}/remind`, operation: remindSandboxSignature, envelope: 'raw' },
  {
    ...sandbox,
    method: 'post',
    path: `${SANDBOX_BY_ID}/cancel`,
    operation: cancelSandboxSignature,
    message: 'Signature request cancelled.',
  },
];

/** Where signature download links point: no credentials, the signed token is the permission. */
export const signatureFileRoutes: RouteSpec[] = [
  {
    method: 'get',
    path: '/api/v1/files/signatures/{token}',
    tag: 'Signatures',
    auth: ['none'],
    operation: downloadSignatureFile,
    file: ['application/pdf'],
    errors: [403, 410],
  },
];

/**
 * Spec "Inbound provider callbacks": Openapi's signature callbacks, at the root and under /api
 * (DECISIONS.md "Routes"). Openapi signs nothing: the URL's `?t=` token is the proof (401 otherwise).
 */
export const openapiCallbackRoutes: RouteSpec[] = [
  '/webhooks/openapi/signature',
  '/api/webhooks/openapi/signature',
].map((path) => ({
  method: 'post',
  path,
  tag: 'Inbound provider callbacks',
  auth: ['none'],
  operation: receiveOpenapiSignatureCallback,
  envelope: 'raw',
  rateLimit: 'none',
  bodyLimit: '256kb',
  rawBody: {},
  errors: [401],
}));
