import type { ForensicExportInput } from '../../../schemas/fiscal-compliance.js';
import type { FileOutput } from '../../shared/file-output.js';
import { defineCommand } from '../../shared/operation.js';
import { forensicArchive } from '../forensic-archive.js';
import { reportScope } from '../report-scope.js';

/** A command although it answers a GET: the archive carries a fresh integrity check, which is recorded. */
export const exportForensic = defineCommand<ForensicExportInput, FileOutput>({
  name: 'export_forensic',
  summary:
    'A ZIP archive of the fiscal chains for an auditor: every entry with the exact bytes hashed, every closing with its sealed text, every RFC 3161 token with its authority’s certificate, a fresh integrity check, a manifest of SHA-256 sums, and a guide (VERIFY.md, verify.py) to recompute every hash with standard tools only.',
  input: 'ForensicExportInput',
  output: 'ForensicExportFile',
  callers: ['tenant'],
  scope: 'fiscal:read',
  snapshot: true,
  async run(input, ctx) {
    return forensicArchive(ctx, await reportScope(ctx, input));
  },
});
