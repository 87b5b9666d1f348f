import { describe, expect, it } from 'vitest'
import {
  ERROR_MESSAGES,
  OPERATION_NAMES,
  operations,
  pathParamNames,
  SERVICE_ERROR_CODES,
  type OperationName,
} from '../../src/shared/api'
import { NAMED_TARGETS } from '../../src/renderer/src/app/palette-names'
import { isIdKind } from '../../src/renderer/src/lib/id-kinds'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import {
  operationHeadline,
  operationHeadlines,
  whereRightIdsComeFrom,
} from '../../src/renderer/src/lib/error-headlines'
import { ErrorBanner } from '../../src/renderer/src/ui/ErrorBanner'

/*
 * Issue 20, 8: an error's headline is the operation's own sentence for its code, never the
 * service's generic words ("Resource already exists" for every 409).
 */

const headline = (operation: OperationName, code: string, details?: unknown) =>
  operationHeadline({ operation, code, details })

const notFound = (operation: OperationName, details?: unknown) => ({
  code: 'NOT_FOUND',
  operation,
  status: 404,
  message: ERROR_MESSAGES.NOT_FOUND,
  details,
})

/** The text of the banner a 404 of `operation` shows. */
const shownUnder404 = (operation: OperationName, details?: unknown) =>
  renderToStaticMarkup(createElement(ErrorBanner, { error: notFound(operation, details) }))

describe('error headlines per operation', () => {
  it('give every operation a sentence of its own for each of the seven codes', () => {
    for (const operation of OPERATION_NAMES) {
      for (const code of SERVICE_ERROR_CODES) {
        const sentence = headline(operation, code)
        expect(sentence, `${operation} ${code}`).toMatch(/^[A-Z].*[.:]$/)
        expect(sentence).not.toContain(ERROR_MESSAGES[code])
      }
      expect(Object.keys(operationHeadlines(operation)).sort()).toEqual(
        [...SERVICE_ERROR_CODES].sort(),
      )
    }
    // What a 404, 409 or 422 means differs from one operation to the next.
    for (const code of ['NOT_FOUND', 'CONFLICT', 'UNPROCESSABLE_ENTITY'] as const) {
      const sentences = OPERATION_NAMES.map((operation) => headline(operation, code))
      expect(new Set(sentences).size, code).toBe(OPERATION_NAMES.length)
    }
  })

  it("words the issue's cases from the interface's state table and endpoint notes", () => {
    expect(headline('retryProxyRoute', 'CONFLICT')).toBe(
      'This route has not failed, so there is nothing to retry.',
    )
    expect(headline('resolveMigration', 'CONFLICT')).toMatch(/no longer needs attention/)
    expect(headline('runPostgresQuery', 'UNPROCESSABLE_ENTITY')).toMatch(/PostgreSQL refused it/)
    // The service cannot list databases: a 404 says where a right id comes from, under it.
    expect(headline('runPostgresQuery', 'NOT_FOUND')).toBe(
      'The service knows no database with this id.',
    )
    expect(shownUnder404('runPostgresQuery')).toMatch(/web console and paste its link/)
    // A 404 on a volume says that it may be the node or the volume, or which when told.
    expect(headline('exportVolume', 'NOT_FOUND')).toMatch(
      /no node with this id, or the node has no volume/,
    )
    expect(headline('exportVolume', 'NOT_FOUND', { resource: 'node', id: 'n' })).toBe(
      'The service knows no node with this id.',
    )
    expect(headline('exportVolume', 'NOT_FOUND', { resource: 'volume', name: 'v' })).toBe(
      'This node has no volume of this name.',
    )
  })

  // A newcomer's pass: "The service knows no node with this id" said nothing of where a right
  // id comes from; the SQL console's unknown database alone did.
  it('says under every 404 on an id where a person gets that id, from the one table of kinds', () => {
    for (const operation of OPERATION_NAMES) {
      if (pathParamNames(operations[operation].path).length === 0) continue
      expect(shownUnder404(operation), operation).toMatch(
        /web console and paste its link|screen (lists|shows) the/,
      )
    }
    expect(shownUnder404('moveUserFolder')).toContain(
      'The service cannot list user folders: open one in the service’s web console',
    )
    // Under the headline, which stays one sentence.
    const html = renderToStaticMarkup(
      createElement(ErrorBanner, { error: notFound('cancelCopyJob') }),
    )
    expect(html.indexOf('cannot list copy jobs')).toBeGreaterThan(
      html.indexOf('The service knows no storage copy job with this id.</div>'),
    )
    // The id the service named: where that one comes from, not the others.
    const deployment = shownUnder404('resolveDeploymentSource', { resource: 'deployment' })
    expect(deployment).toContain('cannot list deployments')
    expect(deployment).not.toContain('nodes')
    // Where the app or the CLI lists them, that is said instead of the web console.
    expect(shownUnder404('exportCertificate')).toMatch(
      /Certificates screen lists the certificates .*, or run infradesk certs list\./,
    )
    expect(shownUnder404('runPostgresQuery')).toContain('(or run infradesk databases list)')
    // Other errors, and operations that take no id, have nothing to add.
    expect(whereRightIdsComeFrom({ ...notFound('cancelCopyJob'), code: 'CONFLICT' })).toBeNull()
    expect(whereRightIdsComeFrom(notFound('listCertificates'))).toBeNull()
    // Kinds the palette acts on by name are in the table too (their nouns come from it).
    for (const target of Object.values(NAMED_TARGETS)) {
      expect(isIdKind(target.kind), target.kind).toBe(true)
    }
  })

  it('says a failed write may have been done in part, and a read can simply be tried again', () => {
    expect(headline('cancelCopyJob', 'INTERNAL_ERROR')).toMatch(/refresh before trying again/)
    expect(headline('listSessions', 'INTERNAL_ERROR')).toMatch(/try again\.$/)
  })

  it("leaves the app's own errors and unknown operations to the generic headline", () => {
    expect(operationHeadline({ code: 'OFFLINE', operation: 'listSessions' })).toBeNull()
    expect(operationHeadline({ code: 'CONFLICT' })).toBeNull()
    expect(operationHeadline({ code: 'CONFLICT', operation: 'toString' })).toBeNull()
  })
})

describe('a refusal of PostgreSQL', () => {
  const refusal = {
    code: 'UNPROCESSABLE_ENTITY',
    operation: 'runPostgresQuery',
    status: 422,
    message: ERROR_MESSAGES.UNPROCESSABLE_ENTITY,
    details: { sqlState: '42601', position: 10, message: 'syntax error at or near "fromm"' },
  }

  it('is headlined as PostgreSQL refusing the statement, with its SQLSTATE', () => {
    expect(operationHeadline(refusal)).toBe(
      'PostgreSQL refused the statement (SQLSTATE 42601); its message is below.',
    )
    // As the SQL console's run reports it: no operation named, PostgreSQL's details given.
    expect(operationHeadline({ ...refusal, operation: undefined })).toBe(
      'PostgreSQL refused the statement (SQLSTATE 42601); its message is below.',
    )
    // Another operation's 422 keeps its own sentence.
    expect(operationHeadline({ ...refusal, operation: 'exportVolume' })).not.toMatch(/PostgreSQL/)
    // Without PostgreSQL's details, a 422 may be a database that does not run PostgreSQL.
    expect(operationHeadline({ ...refusal, details: undefined })).toMatch(/or this database/)
  })

  it('shows the code and status last, as a quiet line, after the service’s words', () => {
    const { operation: _operation, ...asTheConsoleHasIt } = refusal
    const html = renderToStaticMarkup(createElement(ErrorBanner, { error: asTheConsoleHasIt }))
    const title = html.indexOf('PostgreSQL refused the statement')
    const message = html.indexOf(ERROR_MESSAGES.UNPROCESSABLE_ENTITY)
    const code = html.indexOf('<div class="banner-code">UNPROCESSABLE_ENTITY')
    expect(title).toBeGreaterThan(-1)
    expect(message).toBeGreaterThan(title)
    expect(code, html).toBeGreaterThan(message)
    expect(html).toContain('(422)')
  })
})
