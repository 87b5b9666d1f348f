import type { CertificateRow } from '../../../shared/bridge'
import { parseTimestampIso } from '../../../shared/time'
import type { CertificateCacheEntry } from '../../cache/certificates'

/*
 * A certificate as the service sent it (op 16 returns generic resources: the spec's 2.7
 * shows no field set) turned into the list's row. Read leniently: a field of another name or
 * type is left out rather than guessed; anything without a string id (1 to 200 characters)
 * cannot be selected, moved or exported, so it is left out of the list, never silently: the
 * walk over the pages counts it, and the screen and the CLI say how many (paging.ts).
 */

export function toCacheEntry(item: unknown): CertificateCacheEntry | null {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return null
  const fields = item as Record<string, unknown>
  const id = text(fields['id'])
  if (id === null || id === '' || id.length > 200) return null
  const row: CertificateRow = {
    id,
    name: text(fields['name']) ?? text(fields['commonName']) ?? id,
    type: text(fields['type']),
    status: text(fields['status']),
    folderId: text(fields['folderId']),
    folderPath: folderPathOf(fields['folderPath']),
    commonName: text(fields['commonName']),
    notAfter: parseTimestampIso(fields['notAfter'] ?? fields['expiresAt'] ?? fields['validTo']),
    isSystem: fields['isSystem'] === true || fields['system'] === true,
    hasPrivateKey: typeof fields['hasPrivateKey'] === 'boolean' ? fields['hasPrivateKey'] : null,
  }
  return { row, item: fields }
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null
}

/** An array of names, or one "A/B/C" string; anything else is "not sent". */
function folderPathOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((name): name is string => typeof name === 'string')
  if (typeof value === 'string' && value !== '') return value.split('/').filter(Boolean)
  return []
}
