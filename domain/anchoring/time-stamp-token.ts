import { OID } from './asn1.js';
import { bigIntOf, childrenOf, type Der, expectTag, generalizedTimeOf, oidOf, parseDer, TAG } from './der.js';

/** The one SignerInfo of a time-stamp token, with the exact bytes its signature covers. */
export interface TokenSigner {
  /** issuerAndSerialNumber of the signer's certificate: the issuer Name (DER) and serial (INTEGER contents). */
  issuer: Buffer;
  serial: Buffer;
  digestAlgorithm: string;
  /** The signed attributes re-tagged as a SET (0x31): what is hashed and signed (RFC 5652 §5.4). */
  signedAttributes: Buffer;
  /** attribute type → its values. */
  attributes: Map<string, Der[]>;
  signatureAlgorithm: string;
  signature: Buffer;
}

/** A TimeStampToken (RFC 3161 §2.4.2): a CMS SignedData over a TSTInfo. */
export interface TimeStampToken {
  der: Buffer;
  eContentType: string;
  /** The DER TSTInfo exactly as signed. */
  tstInfo: Buffer;
  policy: string;
  hashAlgorithm: string;
  hashedMessage: Buffer;
  serialNumber: bigint;
  genTime: Date;
  nonce: bigint | null;
  /** Certificates carried in the token (DER), the signer's among them when certReq was true. */
  certificates: Buffer[];
  signer: TokenSigner;
}

/** Reads a DER TimeStampToken; throws on anything that is not one. */
export function parseTimeStampToken(der: Buffer): TimeStampToken {
  const [contentType, explicit] = childrenOf(expectTag(parseDer(der), TAG.SEQUENCE, 'ContentInfo'));
  if (oidOf(contentType) !== OID.signedData) throw new Error('the token is not a CMS SignedData');
  const signedData = expectTag(
    childrenOf(expectTag(explicit, TAG.context(0), '[0] content'))[0],
    TAG.SEQUENCE,
    'SignedData',
  );
  const parts = childrenOf(signedData);
  const encap = expectTag(parts[2], TAG.SEQUENCE, 'EncapsulatedContentInfo');
  const [eType, eContentWrapper] = childrenOf(encap);
  const eContent = expectTag(
    childrenOf(expectTag(eContentWrapper, TAG.context(0), '[0] eContent'))[0],
    TAG.OCTET_STRING,
    'eContent',
  );
  let certificates: Buffer[] = [];
  let signerInfos: Der | undefined;
  for (const part of parts.slice(3)) {
    if (part.tag === TAG.context(0)) certificates = childrenOf(part).map((c) => Buffer.from(c.bytes));
    else if (part.tag === TAG.SET) signerInfos = part;
  }
  const signers = childrenOf(expectTag(signerInfos, TAG.SET, 'signerInfos'));
  if (signers.length !== 1) throw new Error('a time-stamp token has exactly one signer (RFC 3161 §2.4.2)');
  const tst = readTstInfo(eContent.content);
  return {
    der,
    eContentType: oidOf(eType),
    tstInfo: Buffer.from(eContent.content),
    ...tst,
    certificates,
    signer: readSigner(signers[0]),
  };
}

function readTstInfo(bytes: Buffer) {
  const [version, policy, imprint, serial, genTime, ...rest] = childrenOf(
    expectTag(parseDer(bytes), TAG.SEQUENCE, 'TSTInfo'),
  );
  if (bigIntOf(version) !== 1n) throw new Error('TSTInfo version must be 1');
  const [algorithm, hashed] = childrenOf(expectTag(imprint, TAG.SEQUENCE, 'MessageImprint'));
  let nonce: bigint | null = null;
  for (const item of rest) if (item.tag === TAG.INTEGER) nonce = bigIntOf(item);
  return {
    policy: oidOf(policy),
    hashAlgorithm: oidOf(childrenOf(algorithm)[0]),
    hashedMessage: Buffer.from(expectTag(hashed, TAG.OCTET_STRING, 'hashedMessage').content),
    serialNumber: bigIntOf(serial),
    genTime: generalizedTimeOf(genTime),
    nonce,
  };
}

function readSigner(info: Der): TokenSigner {
  const [, sid, digestAlgorithm, ...rest] = childrenOf(expectTag(info, TAG.SEQUENCE, 'SignerInfo'));
  const [issuer, serial] = childrenOf(expectTag(sid, TAG.SEQUENCE, 'issuerAndSerialNumber'));
  const signed = expectTag(rest[0], TAG.context(0), 'signedAttrs');
  const attributes = new Map<string, Der[]>();
  for (const attribute of childrenOf(signed)) {
    const [type, values] = childrenOf(expectTag(attribute, TAG.SEQUENCE, 'Attribute'));
    attributes.set(oidOf(type), childrenOf(expectTag(values, TAG.SET, 'attrValues')));
  }
  const signatureAlgorithm = expectTag(rest[1], TAG.SEQUENCE, 'signatureAlgorithm');
  const signature = expectTag(rest[2], TAG.OCTET_STRING, 'signature');
  return {
    issuer: Buffer.from(expectTag(issuer, TAG.SEQUENCE, 'issuer Name').bytes),
    serial: Buffer.from(expectTag(serial, TAG.INTEGER, 'serialNumber').content),
    digestAlgorithm: oidOf(childrenOf(digestAlgorithm)[0]),
    // RFC 5652 §5.4: the DER of the SET OF attributes, not of the [0] IMPLICIT field.
    signedAttributes: Buffer.concat([Buffer.from([TAG.SET]), signed.bytes.subarray(1)]),
    attributes,
    signatureAlgorithm: oidOf(childrenOf(signatureAlgorithm)[0]),
    signature: Buffer.from(signature.content),
  };
}
