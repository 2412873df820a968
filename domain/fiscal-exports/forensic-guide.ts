/** What VERIFY.md says about the archive it ships in. */
export interface GuideFacts {
  generatedAt: string;
  tenantName: string;
  environment: string;
  entries: number;
  closings: number;
  anchors: number;
  /** 1-based line of anchors.jsonl of the first anchored anchor, if any. */
  anchoredLine: number | null;
  builtinAuthority: boolean;
}

const GENESIS = '0'.repeat(64);

/**
 * VERIFY.md: how a third party checks the archive with standard tools only (sha256sum, jq,
 * python3, openssl). Every `sh` block runs as is in the unzipped folder and prints OK or MISMATCH;
 * the tests run them.
 */
export function verifyGuide(f: GuideFacts): string {
  const anchorSection =
    f.anchoredLine === null
      ? 'This archive holds no anchored time-stamp yet (anchors still pending or failed are listed in `anchors.jsonl` with their state).\n'
      : `\`\`\`sh
n=${f.anchoredLine}  # a line of anchors.jsonl whose status is "anchored"
line=$(sed -n "\${n}p" anchors.jsonl)
closing=$(jq -r --arg id "$(printf '%s' "$line" | jq -r .closing_id)" 'select(.id == $id) | .closing_hash' closings.jsonl)
[ "$closing" = "$(printf '%s' "$line" | jq -r .data_hash)" ] && echo "anchor data_hash OK" || echo "anchor data_hash MISMATCH"
openssl ts -verify -digest "$(printf '%s' "$line" | jq -r .data_hash)" \\
  -in "$(printf '%s' "$line" | jq -r .token_file)" -token_in \\
  -CAfile "$(printf '%s' "$line" | jq -r .ca_certificate_file)"
\`\`\`

openssl prints \`Verification: OK\`: the authority signed this closing's hash at the time the token
states. \`openssl ts -reply -in anchors/<id>.tsr -token_in -text\` shows that time (\`Time stamp\`),
the serial number (\`anchor_reference\`), the policy and the authority's name. To check the
sealed text itself rather than \`closing_hash\`, write the closing's \`canonical_data\` to a file
(\`jq -j .canonical_data\`) and pass it as \`-data <file>\` instead of \`-digest <hash>\`.
`;
  const builtin = f.builtinAuthority
    ? `
The tokens of this deployment come from its **built-in local authority**
(\`Built-in TSA - not a qualified authority\`): they are real RFC 3161 tokens, but they date a
closing only as far as the operator's own keys can be trusted. A deployment with \`TSA_URL\` set uses an outside authority.
`
    : '';
  return `# Verifying this forensic export

Generated ${f.generatedAt} for **${f.tenantName}** (${f.environment}): ${f.entries} ledger entries,
${f.closings} closings, ${f.anchors} anchors. Nothing here needs the service: every hash can be
recomputed from these files with standard tools (\`sha256sum\`, \`jq\`, \`python3\`, \`openssl\`).
Unzip the archive into an empty folder and run the commands below in it. Each \`sh\` block runs as
it is and prints \`OK\` or \`MISMATCH\`; \`n=\` picks the line to check.

## 1. The files are complete and unchanged

\`manifest.json\` lists every other file with its size and SHA-256. Keep the archive's own SHA-256
(\`sha256sum <archive>.zip\`) with the archive: it covers the manifest.

\`\`\`sh
jq -r '.files[] | "\\(.sha256)  \\(.path)"' manifest.json | sha256sum -c --quiet && echo "files OK" || echo "files MISMATCH"
\`\`\`

## 2. Each entry's data_hash

\`entries.jsonl\` holds one entry per line, chain by chain (\`sub_tenant_id\` null is the tenant's
own chain), in sequence order. \`canonical_data\` is the exact text that was hashed: the entry's data
as RFC 8785 canonical JSON (keys sorted, no spaces). \`data_hash\` = SHA-256 of its UTF-8 bytes, hex.

\`\`\`sh
n=1  # a line of entries.jsonl
line=$(sed -n "\${n}p" entries.jsonl)
recomputed=$(printf '%s' "$line" | jq -j .canonical_data | sha256sum | cut -d' ' -f1)
[ "$recomputed" = "$(printf '%s' "$line" | jq -r .data_hash)" ] && echo "data_hash OK" || echo "data_hash MISMATCH"
\`\`\`

## 3. The chain

\`chain_hash\` = SHA-256 of \`previous_hash\` and \`data_hash\` written one after the other (two hex
strings, 128 characters); \`previous_hash\` is the \`chain_hash\` of the entry before in the same chain,
and 64 zeros for entry 1. Sequence numbers run 1, 2, 3… without gap in each chain.

\`\`\`sh
n=1  # a line of entries.jsonl
line=$(sed -n "\${n}p" entries.jsonl)
recomputed=$(printf '%s' "$line" | jq -j '.previous_hash + .data_hash' | sha256sum | cut -d' ' -f1)
[ "$recomputed" = "$(printf '%s' "$line" | jq -r .chain_hash)" ] && echo "chain_hash OK" || echo "chain_hash MISMATCH"
chain=$(printf '%s' "$line" | jq -c .sub_tenant_id)
seq=$(printf '%s' "$line" | jq .sequence_number)
expected=$(jq -r --argjson c "$chain" --argjson s "$seq" 'select(.sub_tenant_id == $c and .sequence_number == $s - 1) | .chain_hash' entries.jsonl)
[ -n "$expected" ] || expected=${GENESIS}
[ "$(printf '%s' "$line" | jq -r .previous_hash)" = "$expected" ] && echo "previous_hash OK" || echo "previous_hash MISMATCH"
jq -s -r 'group_by(.sub_tenant_id)[] | "chain \\(.[0].sub_tenant_id // "own"): \\(length) entries, numbering \\(if map(.sequence_number) == [range(1; length + 1)] then "OK" else "MISMATCH" end)"' entries.jsonl
\`\`\`

## 4. The closings

Each line of \`closings.jsonl\` is a daily, monthly or yearly closing of one chain.
\`canonical_data\` is the RFC 8785 text of everything it states (range, sealed \`last_chain_hash\`,
period, fiscal-year and perpetual totals, previous closing); \`closing_hash\` is its SHA-256. Each
closing links to the previous one of the same chain and type (\`previous_closing_hash\`, 64 zeros
for the first), and seals the entry \`last_sequence_number\` of its chain.

\`\`\`sh
n=1  # a line of closings.jsonl
line=$(sed -n "\${n}p" closings.jsonl)
recomputed=$(printf '%s' "$line" | jq -j .canonical_data | sha256sum | cut -d' ' -f1)
[ "$recomputed" = "$(printf '%s' "$line" | jq -r .closing_hash)" ] && echo "closing_hash OK" || echo "closing_hash MISMATCH"
[ "$(printf '%s' "$line" | jq '. as $c | .canonical_data | fromjson | to_entries | all(.value == $c[.key])')" = true ] && echo "sealed fields OK" || echo "sealed fields MISMATCH"
chain=$(printf '%s' "$line" | jq -c .sub_tenant_id)
last=$(printf '%s' "$line" | jq .last_sequence_number)
sealed=$(jq -r --argjson c "$chain" --argjson s "$last" 'select(.sub_tenant_id == $c and .sequence_number == $s) | .chain_hash' entries.jsonl)
[ "$sealed" = "$(printf '%s' "$line" | jq -r .last_chain_hash)" ] && echo "last_chain_hash OK" || echo "last_chain_hash MISMATCH"
previous=$(jq -r -s --argjson c "$chain" --arg t "$(printf '%s' "$line" | jq -r .type)" --arg p "$(printf '%s' "$line" | jq -r .period_start)" \\
  '[.[] | select(.sub_tenant_id == $c and .type == $t and .period_start < $p)] | sort_by(.period_start) | last | .closing_hash // "${GENESIS}"' closings.jsonl)
[ "$previous" = "$(printf '%s' "$line" | jq -r .previous_closing_hash)" ] && echo "previous_closing_hash OK" || echo "previous_closing_hash MISMATCH"
\`\`\`

The totals are sums of the entries the closing covers (\`first_sequence_number\`..\`last_sequence_number\`,
closing entries excluded): outgoing invoices (\`invoice_created\` whose \`direction\` is not
\`incoming\`), credit notes (\`credit_note_issued\`, counted positive) and payments; net = invoices −
credit notes; euros at the top, other currencies apart under \`other_currencies\`. The fiscal-year
totals add the period to those of the previous closing of the same year, the perpetual totals to
those of the previous closing. \`verify.py\` recomputes all three.

## 5. The time-stamps (RFC 3161)

Each closing's \`closing_hash\` was time-stamped by an authority. \`anchors.jsonl\` lists the anchors
(\`closing_id\`, \`data_hash\` = the closing's hash, \`status\`); an anchored one has its token (DER)
in \`anchors/<id>.tsr\` and its authority's root certificate in \`certificates/\`.

${anchorSection}${builtin}
## 6. Everything at once

\`verify.py\` runs every check above on every line, recomputes the closings' totals and calls
\`openssl ts -verify\` on every anchored token (Python 3 standard library only; read it first). It
prints each failure and exits with status 1 if there is one.

\`\`\`sh
python3 verify.py | tail -n 1 | grep -q '^OK' && echo "verify.py OK" || echo "verify.py MISMATCH"
\`\`\`

## 7. The service's own check

\`integrity.json\` is the integrity check the service ran when it made this archive (the same as
\`GET /v1/tenant/fiscal/integrity\`), for comparison with what you found.
`;
}
