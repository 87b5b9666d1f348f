import type { CertificateFolder, CertificateRow } from '../../../../shared/bridge'
import { nameCollator } from '../../../../shared/certificate-order'
import {
  daysLeft,
  DAY_MS,
  expiresWithin,
  isExpired,
  notAfterMs,
} from '../../../../shared/certificate-expiry'
import type { Sort } from './store'

/*
 * Pure helpers of the certificates screen: expiry at a glance, sorting, the folder tree built
 * from the folders seen in certificate data.
 */

export const EXPIRING_SOON_DAYS = 30

export type Expiry =
  | { kind: 'unknown' }
  | { kind: 'expired'; days: number }
  | { kind: 'soon'; days: number }
  | { kind: 'ok'; days: number }

/**
 * Whole days left, computed now rather than trusted from the cache; `days` of an expired one is
 * how long ago (certificate-expiry.ts holds the one definition the CSV and the CLI share).
 */
export function expiryOf(row: Pick<CertificateRow, 'notAfter'>, now: number): Expiry {
  const end = notAfterMs(row.notAfter)
  if (end === null) return { kind: 'unknown' }
  const days = daysLeft(end, now)
  if (isExpired(end, now)) return { kind: 'expired', days: Math.abs(days) }
  return expiresWithin(end, now, EXPIRING_SOON_DAYS) ? { kind: 'soon', days } : { kind: 'ok', days }
}

export function expiryLabel(expiry: Expiry): string {
  switch (expiry.kind) {
    case 'unknown':
      return '—'
    case 'expired':
      return expiry.days === 0 ? 'Expired today' : `Expired ${expiry.days} d ago`
    case 'soon':
      return expiry.days === 0 ? 'Expires today' : `${expiry.days} d left`
    case 'ok':
      return `${expiry.days} d left`
  }
}

/** `2027-07-26T02:39:51.000Z`: UTC to the millisecond, as toISOString writes it. */
function isCanonicalIso(text: string): boolean {
  return (
    text.length === 24 && text.charCodeAt(23) === 90 /* Z */ && text.charCodeAt(10) === 84
  ) /* T */
}

/**
 * How many rows are expired, and how many expire within EXPIRING_SOON_DAYS; the same kinds as
 * expiryOf. Run over the whole list before the first paint: dates written as toISOString
 * writes them (all the cache holds, in practice) are compared as text with now's, which is
 * the same order and several times cheaper than Date.parse; any other form is parsed.
 */
export function expiryCounts(rows: readonly CertificateRow[], now: number) {
  const nowText = new Date(now).toISOString()
  const soonText = new Date(now + EXPIRING_SOON_DAYS * DAY_MS).toISOString()
  let expired = 0
  let soon = 0
  for (const row of rows) {
    const end = row.notAfter
    if (end !== null && isCanonicalIso(end)) {
      if (end <= nowText) expired += 1
      else if (end < soonText) soon += 1
      continue
    }
    const kind = expiryOf(row, now).kind
    if (kind === 'expired') expired += 1
    else if (kind === 'soon') soon += 1
  }
  return { expired, soon }
}

/** The known values first, then the others the rows hold, each once; null and '' left out. */
export function distinctValues(
  known: readonly string[],
  rows: readonly CertificateRow[],
  pick: (row: CertificateRow) => string | null,
): string[] {
  const seen = new Set(known)
  for (const row of rows) {
    const value = pick(row)
    if (value !== null && value !== '') seen.add(value)
  }
  return [...seen]
}

// The default order (name, then id) is shared with main's first screenful: certificate-order.ts.
const collator = nameCollator()

export function sortRows(rows: readonly CertificateRow[], sort: Sort): CertificateRow[] {
  const sign = sort.direction === 'asc' ? 1 : -1
  const text = (value: string | null) => value ?? ''
  const compare: (a: CertificateRow, b: CertificateRow) => number =
    sort.key === 'expires'
      ? (a, b) => expiresKey(a) - expiresKey(b)
      : sort.key === 'status'
        ? (a, b) => collator.compare(text(a.status), text(b.status))
        : sort.key === 'type'
          ? (a, b) => collator.compare(text(a.type), text(b.type))
          : sort.key === 'folder'
            ? (a, b) => collator.compare(a.folderPath.join('/'), b.folderPath.join('/'))
            : () => 0
  return [...rows].sort(
    (a, b) =>
      sign * (compare(a, b) || collator.compare(a.name, b.name)) || a.id.localeCompare(b.id),
  )
}

function expiresKey(row: CertificateRow): number {
  const end = row.notAfter === null ? Number.NaN : Date.parse(row.notAfter)
  return Number.isNaN(end) ? Number.MAX_SAFE_INTEGER : end
}

export interface FolderNode {
  /** Null for a folder only seen as an ancestor in a path (no certificate sits directly in it). */
  id: string | null
  name: string
  path: string[]
  children: FolderNode[]
}

/** A tree from the folder paths seen; siblings sorted by name. */
export function folderTree(folders: readonly CertificateFolder[]): FolderNode[] {
  const root: FolderNode = { id: null, name: '', path: [], children: [] }
  for (const folder of folders) {
    const path = folder.path.length > 0 ? folder.path : [folder.id]
    let node = root
    path.forEach((name, depth) => {
      let child = node.children.find((candidate) => candidate.name === name)
      if (!child) {
        child = { id: null, name, path: path.slice(0, depth + 1), children: [] }
        node.children.push(child)
      }
      node = child
    })
    node.id = folder.id
  }
  const sortTree = (nodes: FolderNode[]) => {
    nodes.sort((a, b) => collator.compare(a.name, b.name))
    for (const node of nodes) sortTree(node.children)
  }
  sortTree(root.children)
  return root.children
}

/** Ids of the folder and every folder below it. */
export function subtreeIds(node: FolderNode): string[] {
  return [
    ...(node.id === null ? [] : [node.id]),
    ...node.children.flatMap((child) => subtreeIds(child)),
  ]
}

export function folderLabel(path: readonly string[]): string {
  return path.length === 0 ? 'Top level' : path.join(' / ')
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
