import type { CertificateRow } from '../../../src/shared/bridge'

/**
 * One line of the certificates list as main hands it to the renderer: `cert-<id>`, a custom
 * certificate in no folder, nothing else known, but for the fields given.
 */
export function certificateRow(
  fields: Pick<CertificateRow, 'id'> & Partial<CertificateRow>,
): CertificateRow {
  return {
    name: `cert-${fields.id}`,
    type: 'custom',
    status: null,
    folderId: null,
    folderPath: [],
    commonName: null,
    notAfter: null,
    isSystem: false,
    hasPrivateKey: null,
    ...fields,
  }
}
