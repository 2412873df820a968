import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { OID } from './asn1.js';

/** How the SignerInfo names its certificate (RFC 5652 §5.3 SignerIdentifier). */
export type SignerId = { issuer: Buffer; serial: Buffer } | { subjectKeyIdentifier: Buffer };

/** The one SignerInfo of a time-stamp token, with the exact bytes its signature covers. */
export interface TokenSigner {
  id: SignerId;
  digestAlgorithm: string;
  /** The signed attributes re-tagged as a SET (0x31): what is hashed and signed (RFC 5652 §5.4). */
  signedAttributes: Buffer;
  /** attribute type → its values, as asn1js read them. */
  attributes: Map<string, asn1js.AsnType[]>;
  signatureAlgorithm: string;
  /** The signature AlgorithmIdentifier's parameters (RSASSA-PSS-params for RSA-PSS). */
  signatureParameters: asn1js.AsnType | undefined;
  signature: Buffer;
}

/** A TimeStampToken (RFC 3161 §2.4.2): a CMS SignedData over a TSTInfo. */
export interface TimeStampToken {
  /** The SignedData's digestAlgorithms: those its signers use (RFC 5652 §5.1). */
  digestAlgorithms: string[];
  eContentType: string;
  /** The DER TSTInfo exactly as signed. */
  tstInfo: Buffer;
  policy: string;
  hashAlgorithm: string;
  hashedMessage: Buffer;
  serialNumber: bigint;
  genTime: Date;
  nonce: bigint | null;
  /** Certificates carried in the token (DER, exactly as carried), the signer's among them when certReq was true. */
  certificates: Buffer[];
  signer: TokenSigner;
}

const bytes = (view: ArrayBuffer | Uint8Array) => Buffer.from(view instanceof Uint8Array ? view : new Uint8Array(view));

/**
 * One element filling the whole buffer, as asn1js reads it, with definite lengths that add up;
 * throws otherwise. asn1js alone lets a constructed element's children run past its stated length.
 */
export function parseAsn1(der: Uint8Array, what: string): asn1js.AsnType {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset === -1) throw new Error(`${what}: ${parsed.result.error || 'not ASN.1'}`);
  if (parsed.offset !== der.byteLength) throw new Error(`${what}: trailing bytes`);
  checkLengths(parsed.result, what);
  return parsed.result;
}

function checkLengths(block: asn1js.AsnType, what: string): void {
  const { idBlock, lenBlock, valueBlock } = block;
  const stated = idBlock.blockLength + lenBlock.blockLength + lenBlock.length;
  if (lenBlock.isIndefiniteForm || stated !== block.valueBeforeDecodeView.byteLength) {
    throw new Error(`${what}: an element's length does not match its contents (DER)`);
  }
  if (!idBlock.isConstructed || !('value' in valueBlock) || !Array.isArray(valueBlock.value)) return;
  let inside = 0;
  for (const child of valueBlock.value as asn1js.AsnType[]) {
    checkLengths(child, what);
    inside += child.valueBeforeDecodeView.byteLength;
  }
  if (inside !== lenBlock.length) throw new Error(`${what}: an element's length does not match its contents (DER)`);
}

/**
 * Reads a DER TimeStampToken with PKI.js (ContentInfo, SignedData, SignerInfo, TSTInfo); throws on
 * anything that is not one. Keeps the bytes signatures and hashes cover exactly as they came: the
 * TSTInfo, the signed attributes and each certificate (RFC 5652 §5.4).
 */
export function parseTimeStampToken(der: Buffer): TimeStampToken {
  const contentInfo = new pkijs.ContentInfo({ schema: parseAsn1(der, 'ContentInfo') });
  if (contentInfo.contentType !== OID.signedData) throw new Error('the token is not a CMS SignedData');
  const signedData = new pkijs.SignedData({ schema: contentInfo.content });
  const eContent = signedData.encapContentInfo.eContent;
  if (!eContent) throw new Error('the SignedData carries no content');
  if (signedData.signerInfos.length !== 1)
    throw new Error('a time-stamp token has exactly one signer (RFC 3161 §2.4.2)');
  const tstInfo = bytes(eContent.getValue());
  const tstSchema = parseAsn1(tstInfo, 'TSTInfo');
  const tst = new pkijs.TSTInfo({ schema: tstSchema });
  if (tst.version !== 1) throw new Error('TSTInfo version must be 1');
  if (!isUtc(tstSchema)) throw new Error('TSTInfo genTime is not UTC (RFC 3161 §2.4.2)');
  return {
    digestAlgorithms: signedData.digestAlgorithms.map((a) => a.algorithmId),
    eContentType: signedData.encapContentInfo.eContentType,
    tstInfo,
    policy: tst.policy,
    hashAlgorithm: tst.messageImprint.hashAlgorithm.algorithmId,
    hashedMessage: bytes(tst.messageImprint.hashedMessage.valueBlock.valueHexView),
    serialNumber: tst.serialNumber.toBigInt(),
    genTime: tst.genTime,
    nonce: tst.nonce ? tst.nonce.toBigInt() : null,
    certificates: carriedCertificates(contentInfo.content),
    signer: readSigner(signedData.signerInfos[0]),
  };
}

/** Whether the TSTInfo's genTime (its fifth field) is a GeneralizedTime in UTC, ending in `Z`. */
function isUtc(tstInfo: asn1js.AsnType): boolean {
  const genTime = tstInfo instanceof asn1js.Sequence ? tstInfo.valueBlock.value[4] : undefined;
  return (
    genTime instanceof asn1js.GeneralizedTime && bytes(genTime.valueBlock.valueHexView).toString('latin1').endsWith('Z')
  );
}

/** The `certificates [0] IMPLICIT CertificateSet` of the SignedData, each element's own bytes. */
function carriedCertificates(signedData: asn1js.AsnType): Buffer[] {
  if (!(signedData instanceof asn1js.Sequence)) return [];
  const set = signedData.valueBlock.value.find(
    (part) => part.idBlock.tagClass === 3 && part.idBlock.tagNumber === 0 && part.idBlock.isConstructed,
  );
  if (!(set instanceof asn1js.Constructed)) return [];
  return set.valueBlock.value
    .filter((c) => c instanceof asn1js.Sequence) // certificates; other formats are not X.509
    .map((c) => bytes(c.valueBeforeDecodeView));
}

function readSigner(info: pkijs.SignerInfo): TokenSigner {
  if (!info.signedAttrs) throw new Error('the SignerInfo has no signed attributes (RFC 3161 §2.4.2)');
  const attributes = new Map<string, asn1js.AsnType[]>();
  for (const attribute of info.signedAttrs.attributes) attributes.set(attribute.type, attribute.values);
  return {
    id: signerId(info.sid),
    digestAlgorithm: info.digestAlgorithm.algorithmId,
    // PKI.js keeps the [0] IMPLICIT field's bytes with the tag already set back to SET.
    signedAttributes: bytes(info.signedAttrs.encodedValue),
    attributes,
    signatureAlgorithm: info.signatureAlgorithm.algorithmId,
    signatureParameters: info.signatureAlgorithm.algorithmParams,
    signature: bytes(info.signature.valueBlock.valueHexView),
  };
}

function signerId(sid: unknown): SignerId {
  if (sid instanceof pkijs.IssuerAndSerialNumber) {
    return {
      issuer: bytes(sid.issuer.valueBeforeDecode),
      serial: bytes(sid.serialNumber.valueBlock.valueHexView),
    };
  }
  if (sid instanceof asn1js.Primitive) return { subjectKeyIdentifier: bytes(sid.valueBlock.valueHexView) };
  throw new Error('the SignerInfo does not identify its certificate');
}
