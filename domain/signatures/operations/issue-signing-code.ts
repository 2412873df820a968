import type { IssueSigningCodeInput } from '../../../schemas/signing-page.js';
import { defineCommand } from '../../shared/operation.js';
import { issueSigningCode as issue, type SigningCodeMessage } from '../signing-steps.js';

export const issueSigningCode = defineCommand<IssueSigningCodeInput, SigningCodeMessage>({
  name: 'issue_signing_code',
  summary:
    'Make a fresh one-time code for a pending signer (kept as its hash, valid 10 minutes) and return the message that carries it (the send-signing-code job sends it).',
  input: 'IssueSigningCodeInput',
  output: 'SigningCodeMessage',
  callers: ['system'],
  async run(input, ctx) {
    return issue(ctx, input.signer_id);
  },
});
