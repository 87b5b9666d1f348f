import { readdirSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AtomicFile } from '../../src/main/transfers'
import { runThisThreadInTheBackground } from '../../src/main/workers/background-priority'
import { createSqlResults } from '../../src/main/workers/sql-worker-client'
import { makeTempDir } from '../support/tools'
import type { TempDir } from '../support/tools'

/*
 * The desk's worker threads run below main's priority (src/main/workers/background-priority.ts),
 * so the loop that serves the bridge gets a core first. Read back from the kernel: each
 * thread's nice value in /proc/self/task/<tid>/stat.
 */

/** The nice value of every thread of this process, by thread id. */
function niceByThread(): Map<number, number> {
  const nice = new Map<number, number>()
  for (const tid of readdirSync('/proc/self/task')) {
    let stat: string
    try {
      stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
    } catch {
      continue // the thread ended between the listing and the read
    }
    // After the command name's closing parenthesis: field 3 (state) onwards; nice is field 19.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    nice.set(Number(tid), Number(fields[16]))
  }
  return nice
}

function threadsAtNice(value: number): number {
  return [...niceByThread().values()].filter((nice) => nice === value).length
}

describe.skipIf(process.platform !== 'linux')('worker threads run below main', () => {
  let temp: TempDir
  const results = createSqlResults()

  beforeAll(async () => {
    temp = await makeTempDir('infradesk-priority')
  })

  afterAll(async () => {
    await results.close()
    await temp?.remove()
  })

  it('the file writer and the SQL worker at nice 10; main and the rest untouched', async () => {
    const before = threadsAtNice(10)

    const file = await AtomicFile.create(temp.dir, 'priority.bin')
    await file.write(Buffer.alloc(1024, 7))
    await file.abort()
    expect(threadsAtNice(10)).toBe(before + 1)

    const text = JSON.stringify({
      object: 'sql_result',
      data: { command: 'SELECT', rowCount: 1, fields: ['n'], rows: [[1]] },
    })
    await results.keep('r-priority', { tabId: 'tab-1', databaseId: 'db-1' }, Buffer.from(text), 0)
    expect(threadsAtNice(10)).toBe(before + 2)

    expect(niceByThread().get(process.pid)).toBe(0)
  })
})

describe('runThisThreadInTheBackground', () => {
  it('says so when the system refuses, and changes nothing', () => {
    let asked = false
    const done = runThisThreadInTheBackground(
      () => {
        throw Object.assign(new Error('no /proc'), { code: 'ENOENT' })
      },
      () => {
        asked = true
      },
    )
    expect(done).toBe(false)
    expect(asked).toBe(false)
  })

  it.skipIf(process.platform !== 'linux')('names the calling thread, not the process', () => {
    const asked: Array<[number, number]> = []
    const done = runThisThreadInTheBackground(
      (path) => (path === '/proc/thread-self' ? `${process.pid}/task/4242` : ''),
      (pid, priority) => void asked.push([pid, priority]),
    )
    expect(done).toBe(true)
    expect(asked).toEqual([[4242, 10]])
  })
})
