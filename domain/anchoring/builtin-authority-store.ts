import type { Knex } from 'knex';
import forge from 'node-forge';
import { open, seal } from '../shared/secret-box.js';
import { BUILTIN_TSA_POLICY, createBuiltinMaterial } from './builtin-authority.js';
import { derToPem, pemToDers } from './certificates.js';
import type { SigningAuthority } from './sign-time-stamp-token.js';

const NAME = 'builtin';

interface AuthorityRow {
  ca_certificate: string;
  tsa_certificate: string;
  tsa_private_key: string;
  policy: string;
}

/** The built-in authority's CA certificate (PEM), if it was ever made. */
export async function builtinCaPem(db: Knex): Promise<string | null> {
  const row = await db('time_stamp_authorities').where({ name: NAME }).first<{ ca_certificate: string } | undefined>();
  return row?.ca_certificate ?? null;
}

/**
 * The built-in authority, made on first use: keys and certificates are generated, the private
 * keys sealed under APP_KEY, and the row inserted unless another process won the race (ON
 * CONFLICT DO NOTHING); every process then reads the one row, so all sign with the same keys.
 */
export async function loadOrCreateBuiltinAuthority(
  db: Knex,
  appKey: Buffer,
  now: Date,
): Promise<{ signing: SigningAuthority; caPem: string }> {
  let row = await db('time_stamp_authorities').where({ name: NAME }).first<AuthorityRow | undefined>();
  if (!row) {
    const made = createBuiltinMaterial(now);
    await db('time_stamp_authorities')
      .insert({
        name: NAME,
        ca_certificate: derToPem(made.caCertificate),
        tsa_certificate: derToPem(made.tsaCertificate),
        ca_private_key: seal(appKey, made.caKeyPem, 'time-stamp-authority:builtin:ca'),
        tsa_private_key: seal(appKey, made.tsaKeyPem, 'time-stamp-authority:builtin:tsa'),
        policy: BUILTIN_TSA_POLICY,
        created_at: now,
      })
      .onConflict('name')
      .ignore();
    row = await db('time_stamp_authorities').where({ name: NAME }).first<AuthorityRow>();
  }
  const keyPem = open(appKey, row!.tsa_private_key, 'time-stamp-authority:builtin:tsa');
  return {
    caPem: row!.ca_certificate,
    signing: {
      tsaCertificate: pemToDers(row!.tsa_certificate)[0],
      caCertificate: pemToDers(row!.ca_certificate)[0],
      privateKey: forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey,
      policy: row!.policy,
    },
  };
}
