import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../support/sandbox-process'

/*
 * Comments that cite a document must cite one this repository has, and a section it has. The
 * matching is simple on purpose, so that a citation written the usual way is checked:
 *
 * - A reference is `docs/<name>.md`, or a bare document name in capitals (`SECURITY.md`,
 *   `README.md`: `[A-Z][A-Z0-9_-]*.md` not preceded by a `/`), in any .ts, .tsx or .mjs file
 *   under src/ or test/.
 * - `docs/<name>.md` must exist; a bare name must exist at the repository's root or in docs/.
 * - A section is a double-quoted name right after the reference on the same line:
 *   `docs/SERVICE.md, "Status codes"`, `docs/SERVICE.md "Status codes"` or
 *   `docs/SERVICE.md ("Status codes")`. The document must have a Markdown heading (any level,
 *   outside code fences) that is the name, or the name followed by ` (`: headings carry their
 *   scope in parentheses, "The sandbox (`src/sandbox`)", and citations may leave it out.
 * - A section name wrapped onto the next line is not seen: keep it on the reference's line.
 */

interface Reference {
  file: string
  line: number
  document: string
  section: string | null
}

const REFERENCE = /(?<![\w./-])(docs\/[\w.-]+\.md|[A-Z][A-Z0-9_-]*\.md)\b(?:,?\s*\(?"([^"]+)")?/g
const THIS_FILE = 'test/main/doc-references.test.ts'

/** Every reference in `text`, as written. */
function referencesIn(file: string, text: string): Reference[] {
  const found: Reference[] = []
  text.split('\n').forEach((content, index) => {
    for (const match of content.matchAll(REFERENCE)) {
      found.push({ file, line: index + 1, document: match[1] ?? '', section: match[2] ?? null })
    }
  })
  return found
}

/** The document a reference names, as a repository path, or null when there is none. */
function resolveDocument(root: string, document: string): string | null {
  const candidates = document.includes('/') ? [document] : [document, `docs/${document}`]
  return candidates.find((candidate) => existsSync(path.join(root, candidate))) ?? null
}

/** The Markdown headings of a document, outside fenced code blocks. */
function headingsOf(markdown: string): string[] {
  const headings: string[] = []
  let fenced = false
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
    const heading = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)
    if (heading?.[1]) headings.push(heading[1])
  }
  return headings
}

function hasSection(headings: string[], section: string): boolean {
  return headings.some((heading) => heading === section || heading.startsWith(`${section} (`))
}

/** What is wrong with each reference, as "file:line: problem"; empty when all hold. */
function problemsOf(root: string, references: Reference[]): string[] {
  const problems: string[] = []
  for (const reference of references) {
    const where = `${reference.file}:${reference.line}`
    const document = resolveDocument(root, reference.document)
    if (!document) {
      problems.push(`${where}: ${reference.document} is not in this repository`)
      continue
    }
    if (reference.section === null) continue
    const headings = headingsOf(readFileSync(path.join(root, document), 'utf8'))
    if (!hasSection(headings, reference.section)) {
      problems.push(`${where}: ${document} has no section "${reference.section}"`)
    }
  }
  return problems
}

function sourceFiles(root: string): string[] {
  return ['src', 'test'].flatMap((top) =>
    readdirSync(path.join(root, top), { recursive: true, encoding: 'utf8' })
      .filter((name) => /\.(ts|tsx|mjs)$/.test(name))
      .map((name) => path.join(top, name).split(path.sep).join('/'))
      .filter((name) => name !== THIS_FILE && !name.includes('node_modules')),
  )
}

describe('document references in src/ and test/', () => {
  it('name documents and sections that exist in this repository', () => {
    const references = sourceFiles(repoRoot).flatMap((file) =>
      referencesIn(file, readFileSync(path.join(repoRoot, file), 'utf8')),
    )
    // The scan finds what is there: a matcher that found nothing would pass on anything.
    expect(references.length).toBeGreaterThan(10)
    expect(references.filter((reference) => reference.section !== null).length).toBeGreaterThan(5)
    expect(problemsOf(repoRoot, references)).toEqual([])
  })
})

describe('the matcher', () => {
  const check = (text: string) => problemsOf(repoRoot, referencesIn('x.ts', text))

  it('accepts a real section, with or without its parenthesis, in each written form', () => {
    expect(check(' * (docs/SERVICE.md, "Status codes").')).toEqual([])
    expect(check(' * see docs/ARCHITECTURE-NOTES.md "The sandbox"')).toEqual([])
    expect(check(' * (docs/ARCHITECTURE-NOTES.md ("The sandbox (`src/sandbox`)"))')).toEqual([])
    expect(check(' * docs/SECURITY.md says which')).toEqual([])
    expect(check(' * bench/README.md is not a document reference of this form')).toEqual([])
  })

  it('reports a document that is not here and a section that does not exist', () => {
    expect(check(' * (DESIGN.md, "The sandbox")')).toEqual([
      'x.ts:1: DESIGN.md is not in this repository',
    ])
    expect(check(' * SERVICE_API.md 2.2')).toEqual([
      'x.ts:1: SERVICE_API.md is not in this repository',
    ])
    expect(check('\n * (docs/SERVICE.md, "SQL result")')).toEqual([
      'x.ts:2: docs/SERVICE.md has no section "SQL result"',
    ])
    expect(check(' * docs/NOTES.md')).toEqual(['x.ts:1: docs/NOTES.md is not in this repository'])
    // A prefix of a heading is not a section: "The" is no heading of its own.
    expect(check(' * docs/ARCHITECTURE-NOTES.md, "The"')).toEqual([
      'x.ts:1: docs/ARCHITECTURE-NOTES.md has no section "The"',
    ])
  })
})
