import type { SandboxPki } from '../pki/types'
import type { CertificateRecord, CertificateType } from '../state'
import { DAY_MS, newId, type SeedClock } from './time'

/*
 * ~40 certificates with real X.509 material from the sandbox CA. Validity is relative to
 * the start of the sandbox so that statuses read true: a few expired, several expiring
 * within 30 days, most active, two revoked; some system certificates, some without a key.
 */

interface Validity {
  /** Days relative to now. */
  from: number
  to: number
}

const LETSENCRYPT_FRESH: Validity = { from: -25, to: 65 }
const LETSENCRYPT_EXPIRING: Validity = { from: -78, to: 12 }
const CUSTOM_YEAR: Validity = { from: -120, to: 245 }
const CUSTOM_EXPIRING: Validity = { from: -340, to: 20 }
const INTERNAL_LONG: Validity = { from: -200, to: 530 }
const EXPIRED: Validity = { from: -400, to: -35 }

interface CertificateSpec {
  name: string
  commonName: string
  altNames?: string[]
  type: CertificateType
  validity: Validity
  /** Folder path as in seedCertificateFolders, e.g. 'Production/Web'; null = top level. */
  folder: string | null
  withoutKey?: boolean
  revoked?: boolean
  system?: boolean
  autoRenew?: boolean
}

const d = 'northwind.example'

// One row per certificate reads best as a table.
// prettier-ignore
const SPECS: CertificateSpec[] = [
  // Production / Web
  { name: 'www-northwind', commonName: `www.${d}`, altNames: [`www.${d}`, d], type: 'letsencrypt', validity: LETSENCRYPT_FRESH, folder: 'Production/Web', autoRenew: true },
  { name: 'shop-northwind', commonName: `shop.${d}`, type: 'letsencrypt', validity: LETSENCRYPT_FRESH, folder: 'Production/Web', autoRenew: true },
  { name: 'blog-northwind', commonName: `blog.${d}`, type: 'letsencrypt', validity: LETSENCRYPT_EXPIRING, folder: 'Production/Web', autoRenew: true },
  { name: 'static-cdn', commonName: `static.${d}`, altNames: [`static.${d}`, `cdn.${d}`, `assets.${d}`], type: 'letsencrypt', validity: LETSENCRYPT_FRESH, folder: 'Production/Web', autoRenew: true },
  { name: 'wildcard-northwind', commonName: `*.${d}`, altNames: [`*.${d}`, d], type: 'custom', validity: CUSTOM_YEAR, folder: 'Production/Web' },
  { name: 'help-center', commonName: `help.${d}`, type: 'letsencrypt', validity: LETSENCRYPT_EXPIRING, folder: 'Production/Web', autoRenew: false },
  { name: 'careers-site', commonName: `careers.${d}`, type: 'custom', validity: CUSTOM_EXPIRING, folder: 'Production/Web' },
  // Production / APIs
  { name: 'api-gateway', commonName: `api.${d}`, altNames: [`api.${d}`, `api-v2.${d}`], type: 'custom', validity: CUSTOM_YEAR, folder: 'Production/APIs' },
  { name: 'payments-api', commonName: `payments.${d}`, type: 'custom', validity: CUSTOM_YEAR, folder: 'Production/APIs' },
  { name: 'webhooks-ingest', commonName: `hooks.${d}`, type: 'letsencrypt', validity: LETSENCRYPT_FRESH, folder: 'Production/APIs', autoRenew: true },
  { name: 'graphql-edge', commonName: `graphql.${d}`, type: 'letsencrypt', validity: LETSENCRYPT_EXPIRING, folder: 'Production/APIs', autoRenew: true },
  { name: 'auth-service', commonName: `auth.${d}`, altNames: [`auth.${d}`, `login.${d}`, `sso.${d}`], type: 'custom', validity: CUSTOM_YEAR, folder: 'Production/APIs' },
  // Production / APIs / Partners
  { name: 'partner-acme-mtls', commonName: 'acme-partner-client', altNames: [`acme.partners.${d}`], type: 'custom', validity: CUSTOM_YEAR, folder: 'Production/APIs/Partners', withoutKey: true },
  { name: 'partner-globex-mtls', commonName: 'globex-partner-client', altNames: [`globex.partners.${d}`], type: 'custom', validity: CUSTOM_EXPIRING, folder: 'Production/APIs/Partners', withoutKey: true },
  { name: 'edi-gateway', commonName: `edi.${d}`, type: 'custom', validity: CUSTOM_YEAR, folder: 'Production/APIs/Partners' },
  // Production (top)
  { name: 'mail-relay', commonName: `mail.${d}`, altNames: [`mail.${d}`, `smtp.${d}`, `imap.${d}`], type: 'custom', validity: CUSTOM_YEAR, folder: 'Production' },
  { name: 'vpn-endpoint', commonName: `vpn.${d}`, type: 'custom', validity: CUSTOM_YEAR, folder: 'Production' },
  { name: 'status-page', commonName: `status.${d}`, type: 'letsencrypt', validity: LETSENCRYPT_FRESH, folder: 'Production', autoRenew: true },
  // Staging
  { name: 'staging-wildcard', commonName: `*.staging.${d}`, altNames: [`*.staging.${d}`, `staging.${d}`], type: 'letsencrypt', validity: LETSENCRYPT_FRESH, folder: 'Staging', autoRenew: true },
  { name: 'staging-api', commonName: `api.staging.${d}`, type: 'letsencrypt', validity: LETSENCRYPT_EXPIRING, folder: 'Staging', autoRenew: true },
  { name: 'qa-portal', commonName: `qa.staging.${d}`, type: 'letsencrypt', validity: LETSENCRYPT_FRESH, folder: 'Staging', autoRenew: true },
  { name: 'preview-deployments', commonName: `*.preview.${d}`, type: 'custom', validity: CUSTOM_YEAR, folder: 'Staging' },
  // Internal services
  { name: 'grafana-internal', commonName: 'grafana.internal.northwind', type: 'internal', validity: INTERNAL_LONG, folder: 'Internal services' },
  { name: 'prometheus-internal', commonName: 'prometheus.internal.northwind', type: 'internal', validity: INTERNAL_LONG, folder: 'Internal services' },
  { name: 'vault-internal', commonName: 'vault.internal.northwind', altNames: ['vault.internal.northwind', '10.20.0.15'], type: 'internal', validity: INTERNAL_LONG, folder: 'Internal services' },
  { name: 'registry-internal', commonName: 'registry.internal.northwind', type: 'internal', validity: INTERNAL_LONG, folder: 'Internal services' },
  { name: 'ci-runners', commonName: 'ci.internal.northwind', type: 'internal', validity: EXPIRED, folder: 'Internal services' },
  { name: 'kafka-brokers', commonName: 'kafka.internal.northwind', altNames: ['kafka-0.internal.northwind', 'kafka-1.internal.northwind', 'kafka-2.internal.northwind'], type: 'internal', validity: INTERNAL_LONG, folder: 'Internal services', withoutKey: true },
  // Archive
  { name: 'old-www-2023', commonName: `www.${d}`, type: 'custom', validity: EXPIRED, folder: 'Archive/2023' },
  { name: 'old-api-2023', commonName: `api.${d}`, type: 'custom', validity: EXPIRED, folder: 'Archive/2023', withoutKey: true },
  { name: 'compromised-test-key', commonName: `test.${d}`, type: 'custom', validity: CUSTOM_YEAR, folder: 'Archive', revoked: true },
  { name: 'retired-partner-mtls', commonName: 'initech-partner-client', type: 'custom', validity: CUSTOM_YEAR, folder: 'Archive', revoked: true },
  // Top level
  { name: 'legacy-intranet', commonName: 'intranet.northwind.local', type: 'custom', validity: EXPIRED, folder: null },
  { name: 'docs-portal', commonName: `docs.${d}`, type: 'letsencrypt', validity: LETSENCRYPT_FRESH, folder: null, autoRenew: true },
  { name: 'Marketing landing pages', commonName: `go.${d}`, altNames: [`go.${d}`, `promo.${d}`], type: 'letsencrypt', validity: LETSENCRYPT_FRESH, folder: null, autoRenew: true },
  { name: 'Grafana Cloud (ÜberStats)', commonName: `metrics.${d}`, type: 'custom', validity: CUSTOM_EXPIRING, folder: null },
  // System certificates: hidden unless showSystem=true.
  { name: 'system-service-mesh-ca', commonName: 'mesh.system.northwind', type: 'internal', validity: INTERNAL_LONG, folder: null, system: true },
  { name: 'system-control-plane', commonName: 'control-plane.system.northwind', type: 'internal', validity: INTERNAL_LONG, folder: null, system: true },
  { name: 'system-metrics-scrape', commonName: 'metrics.system.northwind', type: 'internal', validity: LETSENCRYPT_EXPIRING, folder: null, system: true },
  { name: 'system-acme-account', commonName: 'acme-account.system.northwind', type: 'letsencrypt', validity: LETSENCRYPT_FRESH, folder: null, system: true, withoutKey: true },
]

export async function seedCertificates(
  pki: SandboxPki,
  clock: SeedClock,
  folderIds: ReadonlyMap<string, string>,
): Promise<CertificateRecord[]> {
  // Keys are generated on the thread pool: issuing all at once is far faster than in turn.
  return Promise.all(
    SPECS.map(async (spec, index): Promise<CertificateRecord> => {
      const issued = await pki.issueLeaf({
        commonName: spec.commonName,
        ...(spec.altNames ? { subjectAltNames: spec.altNames } : {}),
        notBefore: clock.date(spec.validity.from * DAY_MS),
        notAfter: clock.date(spec.validity.to * DAY_MS),
      })
      const material = { ...issued.material }
      if (spec.withoutKey) delete material.privateKeyPem
      const folderId = spec.folder === null ? null : folderIds.get(spec.folder)
      if (folderId === undefined) throw new Error(`Seed folder "${spec.folder}" does not exist`)
      const createdAt = clock.iso(spec.validity.from * DAY_MS)
      return {
        id: newId(),
        name: spec.name,
        type: spec.type,
        folderId,
        isSystem: spec.system ?? false,
        autoRenew: spec.autoRenew ?? false,
        revokedAt: spec.revoked ? clock.iso(-(5 + index) * DAY_MS) : null,
        origin: 'seed',
        createdAt,
        updatedAt: createdAt,
        material,
        facts: issued.facts,
        // The internal CA's record is its own resource with its own id (see state.ts).
        ...(spec.type === 'internal' ? { pkiCertificateId: newId() } : {}),
      }
    }),
  )
}
