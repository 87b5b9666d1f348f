import { describe, expect, it } from 'vitest'
import { repeatedServiceFields } from '../../src/renderer/src/features/certificates/details-fields'
import {
  fieldLabel,
  labelledFields,
  statusWords,
} from '../../src/renderer/src/features/certificates/field-labels'
import type { CertificateFacts } from '../../src/shared/bridge'

/* The certificate details pane shows each fact once: which service fields fold away. */

const FACTS: CertificateFacts = {
  subject: 'CN=api.example.com, O=Example',
  issuer: 'CN=Example Intermediate',
  subjectAltNames: ['api.example.com', 'www.example.com'],
  notBefore: '2025-01-01T00:00:00.000Z',
  notAfter: '2026-01-01T00:00:00.000Z',
  serialNumber: '0A1B2C',
  fingerprintSha256: 'AB:CD:EF',
  keyAlgorithm: 'RSA 2048',
  selfSigned: false,
}

const keys = (fields: Array<[string, unknown]>) => fields.map(([key]) => key)

describe('service fields beside the certificate facts', () => {
  it('folds the fields that repeat a fact or the header, in any spelling of the same value', () => {
    const { shown, folded } = repeatedServiceFields(
      {
        id: 'c1',
        name: 'api',
        status: 'active',
        folderId: null,
        commonName: 'api.example.com',
        subject: 'CN=api.example.com, O=Example',
        subjectAltNames: ['api.example.com', 'www.example.com'],
        notAfter: '2026-01-01T00:00:00Z',
        serialNumber: '0a1b2c',
        fingerprintSha256: 'abcdef',
        selfSigned: false,
        autoRenew: true,
      },
      FACTS,
    )
    expect(keys(shown)).toEqual(['id', 'folderId', 'autoRenew'])
    expect(keys(folded)).toEqual([
      'name',
      'status',
      'commonName',
      'subject',
      'subjectAltNames',
      'notAfter',
      'serialNumber',
      'fingerprintSha256',
      'selfSigned',
    ])
  })

  it('keeps in view a field that disagrees with the certificate', () => {
    const { shown } = repeatedServiceFields(
      { notAfter: '2030-01-01T00:00:00Z', issuer: 'CN=Someone Else' },
      FACTS,
    )
    expect(keys(shown)).toEqual(['notAfter', 'issuer'])
  })

  it('shows every service field (but the header) when the certificate could not be read', () => {
    const { shown, folded } = repeatedServiceFields(
      { name: 'api', serialNumber: '0A1B2C', notAfter: '2026-01-01T00:00:00Z' },
      null,
    )
    expect(keys(shown)).toEqual(['serialNumber', 'notAfter'])
    expect(keys(folded)).toEqual(['name'])
  })
})

describe('the service fields in words', () => {
  it('labels the fields it knows and keeps every other one under its own key', () => {
    const { known, other } = labelledFields<unknown>([
      ['folderId', null],
      ['isSystem', false],
      ['hasPrivateKey', true],
      ['status', 'expiring_soon'],
      ['OWNED_BY', 'team-a'],
      ['CONTEXT_LENGTH', 8192],
      ['autoRenew', true],
    ])
    expect(known.map((field) => [field.key, field.label])).toEqual([
      ['folderId', 'Folder id'],
      ['isSystem', 'System certificate'],
      ['hasPrivateKey', 'Private key held'],
      ['status', 'Status'],
      ['autoRenew', 'Renews automatically'],
    ])
    expect(other).toEqual([
      { key: 'OWNED_BY', value: 'team-a' },
      { key: 'CONTEXT_LENGTH', value: 8192 },
    ])
  })

  it('says statuses in words and never takes a prototype name for a field it knows', () => {
    expect(statusWords('expiring_soon')).toBe('expiring soon')
    expect(statusWords('renewal_pending')).toBe('renewal pending')
    expect(statusWords('active')).toBe('active')
    expect(fieldLabel('constructor')).toBeNull()
    expect(fieldLabel('toString')).toBeNull()
  })
})
