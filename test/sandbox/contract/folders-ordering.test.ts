import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { callOperation, sandboxForThisFile, UNKNOWN_UUID } from '../../support/sandbox-process'
import { expectError, expectSuccess, expectValidationError } from '../../support/answers'
import { itRejectsAnEmptyIdSegment, itRejectsEachInvalidBody } from '../../support/refusals'
import type { CallResult } from '../../support/sandbox-process'
import { validationIssuesOf } from '../../../src/shared/api'

/*
 * Operations 3 and 4 (move a certificate folder, move a user folder), 9 (reorder nginx
 * template folders) and 11 (reorder logging environments). Neither folder tree has a list
 * operation, so a move is seen on later calls through what the tree now forbids (a cycle)
 * and the path later answers report.
 */

const folderSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  parentId: z.string().nullable(),
  path: z.array(z.string()).optional(),
})
const orderedSchema = z.array(z.looseObject({ id: z.string(), sortOrder: z.number() }))

const sandbox = sandboxForThisFile({ resetBeforeEach: true })

function expectUnprocessable(response: CallResult, fieldPath: string[]) {
  const body = expectError(response, 'UNPROCESSABLE_ENTITY')
  expect(validationIssuesOf(body.details).map((issue) => issue.path)).toContainEqual(fieldPath)
}

describe.each([
  {
    name: 'moveCertificateFolder',
    folders: () => sandbox.seed.certificateFolders,
    prefix: '/api/ssl-certificates/folders',
  },
  {
    name: 'moveUserFolder',
    folders: () => sandbox.seed.userFolders,
    prefix: '/api/admin/user-folders',
  },
] as const)('$name (ops 3 and 4)', ({ name, folders, prefix }) => {
  async function move(id: string, parentId: string | null) {
    return callOperation(sandbox, name, { params: { id }, body: { parentId } })
  }
  async function moved(id: string, parentId: string | null) {
    const folder = folderSchema.parse(expectSuccess(name, await move(id, parentId)).data)
    expect(folder.id).toBe(id)
    expect(folder.parentId).toBe(parentId)
    return folder
  }

  it('moves to the top level (null) and under another folder; later calls see the tree', async () => {
    const [a, b, c] = folders()
    expect(c, 'the seed has three folders').toBeDefined()
    const top = await moved(a as string, null)
    // This sandbox answers every folder with its path (the schema leaves it optional).
    expect(top.path).toEqual([top.name])
    const second = await moved(b as string, a as string)
    expect(second.path).toEqual([top.name, second.name])
    // c goes under b: its path shows b's earlier move was kept.
    const third = await moved(c as string, b as string)
    expect(third.path).toEqual([top.name, second.name, third.name])
    // a cannot now go under c: c is beneath a since the moves above.
    expectUnprocessable(await move(a as string, c as string), ['parentId'])
    // Back to the top level, c is free of a, and a may go under c.
    await moved(c as string, null)
    await moved(a as string, c as string)
  })

  it('refuses a folder as its own parent', async () => {
    const [a] = folders()
    expectUnprocessable(await move(a as string, a as string), ['parentId'])
  })

  it('404 for an unknown folder or an unknown parent', async () => {
    const [a] = folders()
    expectError(await move(UNKNOWN_UUID, null), 'NOT_FOUND')
    expectError(await move('no-such-folder', null), 'NOT_FOUND')
    expectError(await move(a as string, UNKNOWN_UUID), 'NOT_FOUND')
  })

  it('a folder of the other tree is unknown here', async () => {
    const other =
      name === 'moveCertificateFolder' ? sandbox.seed.userFolders : sandbox.seed.certificateFolders
    expectError(await move(other[0] as string, null), 'NOT_FOUND')
  })

  itRejectsEachInvalidBody(sandbox, name, () => ({ id: folders()[0] as string }), [
    ['parentId missing', {}, ['parentId']],
    ['parentId not a uuid', { parentId: 'root' }, ['parentId']],
    ['parentId a number', { parentId: 7 }, ['parentId']],
    ['an unknown field', { parentId: null, name: 'x' }, ['name']],
  ])

  itRejectsAnEmptyIdSegment(sandbox, '400 naming id when the id segment is empty', {
    method: 'PUT',
    path: `${prefix}//move`,
    body: { parentId: null },
  })
})

describe('op 9: PUT /api/nginx-templates/folders/reorder', () => {
  async function reorder(items: unknown) {
    return callOperation(sandbox, 'reorderNginxTemplateFolders', { body: { items } })
  }
  async function order(items: { id: string; sortOrder: number }[]) {
    const body = expectSuccess('reorderNginxTemplateFolders', await reorder(items))
    return orderedSchema.parse(body.data)
  }

  it('accepts an empty list (unlike op 11) and answers the current order', async () => {
    const current = await order([])
    expect(current.map((folder) => folder.id).sort()).toEqual(
      [...sandbox.seed.nginxTemplateFolders].sort(),
    )
  })

  it('persists a new order: a later call answers it', async () => {
    const before = (await order([])).map((folder) => folder.id)
    const reversed = [...before].reverse()
    const answered = await order(reversed.map((id, index) => ({ id, sortOrder: index })))
    expect(answered.map((folder) => folder.id)).toEqual(reversed)
    expect((await order([])).map((folder) => folder.id)).toEqual(reversed)
    // A partial reorder moves only the named folder.
    const last = reversed.at(-1) as string
    const partial = await order([{ id: last, sortOrder: -1 }])
    expect(partial.map((folder) => folder.id)).toEqual([last, ...reversed.slice(0, -1)])
    await sandbox.reset()
    expect((await order([])).map((folder) => folder.id)).toEqual(before)
  })

  it('404 for an unknown folder, and changes nothing', async () => {
    const before = await order([])
    const first = before[0]?.id as string
    expectError(
      await reorder([
        { id: first, sortOrder: 99 },
        { id: UNKNOWN_UUID, sortOrder: 0 },
      ]),
      'NOT_FOUND',
    )
    expect(await order([])).toEqual(before)
  })

  it.each([
    ['items missing', undefined, ['items']],
    ['items not an array', { id: 'x' }, ['items']],
    ['an id not a uuid', [{ id: 'folder-1', sortOrder: 0 }], ['items', '0', 'id']],
    ['an id missing', [{ sortOrder: 0 }], ['items', '0', 'id']],
    [
      'sortOrder not an integer',
      [{ id: UNKNOWN_UUID, sortOrder: 1.5 }],
      ['items', '0', 'sortOrder'],
    ],
    ['sortOrder a string', [{ id: UNKNOWN_UUID, sortOrder: '1' }], ['items', '0', 'sortOrder']],
    [
      'sortOrder missing',
      [{ id: UNKNOWN_UUID, sortOrder: 0 }, { id: UNKNOWN_UUID }],
      ['items', '1', 'sortOrder'],
    ],
    [
      'an unknown item field',
      [{ id: UNKNOWN_UUID, sortOrder: 0, name: 'x' }],
      ['items', '0', 'name'],
    ],
  ])('400 when %s, naming the field', async (_label, items, fieldPath) => {
    expectValidationError(await reorder(items), fieldPath)
  })
})

describe('op 11: PUT /api/logging/environment-folders/reorder-environments', () => {
  const environmentsSchema = z.array(
    z.looseObject({ id: z.string(), folderId: z.string(), sortOrder: z.number() }),
  )

  async function reorder(items: unknown) {
    return callOperation(sandbox, 'reorderLoggingEnvironments', { body: { items } })
  }
  async function order(items: { id: string; sortOrder: number }[]) {
    const body = expectSuccess('reorderLoggingEnvironments', await reorder(items))
    return environmentsSchema.parse(body.data)
  }
  /** A folder holding several environments: the one the tests reorder. */
  function folderWithSeveral() {
    const folder = sandbox.seed.loggingEnvironmentFolders.find(
      (candidate) => candidate.environmentIds.length >= 3,
    )
    if (!folder) throw new Error('the seed has no logging folder with three environments')
    return folder
  }
  function idsIn(environments: z.infer<typeof environmentsSchema>, folderId: string) {
    return environments.filter((environment) => environment.folderId === folderId).map((e) => e.id)
  }

  it('persists the order of environments inside a folder: a later call answers it', async () => {
    const folder = folderWithSeveral()
    const [anchor] = folder.environmentIds
    const current = await order([{ id: anchor as string, sortOrder: 0 }])
    const before = idsIn(current, folder.id)
    expect(before.sort()).toEqual([...folder.environmentIds].sort())

    const reversed = [...idsIn(current, folder.id)].reverse()
    const answered = await order(reversed.map((id, index) => ({ id, sortOrder: index })))
    expect(idsIn(answered, folder.id)).toEqual(reversed)
    // A later call that names one environment at the place it already has shows the rest kept.
    const later = await order([{ id: reversed[0] as string, sortOrder: 0 }])
    expect(idsIn(later, folder.id)).toEqual(reversed)
    // Environments of other folders are still listed, in their own folders.
    const others = sandbox.seed.loggingEnvironmentFolders.filter((other) => other.id !== folder.id)
    for (const other of others) {
      expect(idsIn(later, other.id).sort()).toEqual([...other.environmentIds].sort())
    }
  })

  it('404 for an unknown environment, and changes nothing', async () => {
    const folder = folderWithSeveral()
    const [first, second] = folder.environmentIds as [string, string]
    const before = await order([{ id: first, sortOrder: 0 }])
    const beforeOrder = idsIn(before, folder.id)
    // Reading the order back means naming one environment: `first`, at the place it has.
    const firstPlace = before.find((environment) => environment.id === first)?.sortOrder ?? 0
    expectError(
      await reorder([
        { id: second, sortOrder: -100 },
        { id: UNKNOWN_UUID, sortOrder: 1 },
      ]),
      'NOT_FOUND',
    )
    const after = await order([{ id: first, sortOrder: firstPlace }])
    expect(idsIn(after, folder.id)).toEqual(beforeOrder)
  })

  it.each([
    ['items empty (at least one)', [], ['items']],
    ['items missing', undefined, ['items']],
    ['an id not a uuid', [{ id: 'production', sortOrder: 0 }], ['items', '0', 'id']],
    [
      'sortOrder not an integer',
      [{ id: UNKNOWN_UUID, sortOrder: 2.5 }],
      ['items', '0', 'sortOrder'],
    ],
    ['sortOrder missing', [{ id: UNKNOWN_UUID }], ['items', '0', 'sortOrder']],
    [
      'an id repeated',
      [
        { id: UNKNOWN_UUID, sortOrder: 0 },
        { id: UNKNOWN_UUID, sortOrder: 1 },
      ],
      ['items', '1', 'id'],
    ],
  ])('400 when %s, naming the field', async (_label, items, fieldPath) => {
    expectValidationError(await reorder(items), fieldPath)
  })
})
