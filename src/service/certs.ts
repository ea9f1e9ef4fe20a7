// Certificate uploads: the contract parses them (the chain, leaf first; the private key; the key matches the
// leaf: src/contract/certificates.ts) and this derives every field the API shows. Every failure is a 400
// ServiceError with the rule's code; no message ever carries any part of the submitted key.
import { parseCertificateAuthority, parseTlsCertificate, type PrivateKeyType } from '../contract/certificates.ts';
import { RuleError } from '../contract/rule-error.ts';
import { ruleViolation, ServiceError } from './errors.ts';
import {
  extendedKeyUsages,
  keyUsages,
  nameField,
  serialHex,
  subjectAlternativeNames,
  type SubjectAlternativeNames,
} from './cert-fields.ts';
// The API's one time format (UTC, `Z`, whole seconds): a GeneralizedTime's fractions are not shown.
import { nowTimestamp as rfc3339 } from './ids.ts';

export type { PrivateKeyType };

/** The derived, read-only fields of a TLS certificate resource (everything but id, uri, created_at, description, metadata, certificate_pem). */
export interface TlsCertificateFields {
  subject_common_name: string;
  subject_alternative_names: SubjectAlternativeNames;
  issued_at: null;
  not_before: string;
  not_after: string;
  key_usages: string[];
  extended_key_usages: string[];
  private_key_type: PrivateKeyType;
  issuer_common_name: string;
  serial_number: string;
  subject_organization: string;
  subject_organizational_unit: string;
  subject_locality: string;
  subject_province: string;
  subject_country: string;
}

/** The derived fields of a certificate authority, from the first certificate of ca_pem. */
export interface CertificateAuthorityFields {
  subject_common_name: string;
  not_before: string;
  not_after: string;
  key_usages: string[];
  extended_key_usages: string[];
}

/** The contract's parse, its refusal answered as the service's 400. */
function parsed<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof RuleError) throw ruleViolation(err.problem);
    throw err;
  }
}

/**
 * The contract has decoded the names and extensions the fields come from; should the library still fail on one,
 * that is a 400 too, never a 500.
 */
function withReadableExtensions<T>(field: string, derive: () => T): T {
  try {
    return derive();
  } catch (err) {
    if (err instanceof ServiceError) throw err;
    throw new ServiceError('ERR_CERT_FIELD_UNREADABLE', `${field}: the first certificate has a name or extension that cannot be decoded`);
  }
}

/** Validate an upload (certificate chain + private key) and derive the certificate's read-only fields. */
export function tlsCertificateFields(certificatePem: string, privateKeyPem: string): TlsCertificateFields {
  const { leaf, privateKeyType: type } = parsed(() => parseTlsCertificate(certificatePem, privateKeyPem));
  return withReadableExtensions('certificate_pem', () => ({
    subject_common_name: nameField(leaf.subjectName, 'commonName'),
    subject_alternative_names: subjectAlternativeNames(leaf),
    issued_at: null,
    not_before: rfc3339(leaf.notBefore),
    not_after: rfc3339(leaf.notAfter),
    key_usages: keyUsages(leaf),
    extended_key_usages: extendedKeyUsages(leaf),
    private_key_type: type,
    issuer_common_name: nameField(leaf.issuerName, 'commonName'),
    serial_number: serialHex(leaf),
    subject_organization: nameField(leaf.subjectName, 'organization'),
    subject_organizational_unit: nameField(leaf.subjectName, 'organizationalUnit'),
    subject_locality: nameField(leaf.subjectName, 'locality'),
    subject_province: nameField(leaf.subjectName, 'province'),
    subject_country: nameField(leaf.subjectName, 'country'),
  }));
}

/** Validate a CA upload (one or more concatenated certificates) and derive its fields from the first one. */
export function certificateAuthorityFields(caPem: string): CertificateAuthorityFields {
  const first = parsed(() => parseCertificateAuthority(caPem))[0]!;
  return withReadableExtensions('ca_pem', () => ({
    subject_common_name: nameField(first.subjectName, 'commonName'),
    not_before: rfc3339(first.notBefore),
    not_after: rfc3339(first.notAfter),
    key_usages: keyUsages(first),
    extended_key_usages: extendedKeyUsages(first),
  }));
}
