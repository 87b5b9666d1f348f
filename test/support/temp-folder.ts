import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { makeTempDir, type TempDir } from './tools'

/** A temporary folder for the calling file's tests, and fresh empty folders inside it. */
export interface FileTempFolder {
  /** The folder itself; set once the file's `beforeAll` has run. */
  readonly dir: string
  /** A new empty folder inside it, named after no earlier one: one case's own place. */
  freshFolder(): Promise<string>
}

/** Made before the calling file's (or block's) tests, removed with all it holds after them. */
export function useTempFolder(prefix: string): FileTempFolder {
  let temp: TempDir | undefined
  let folders = 0
  beforeAll(async () => {
    temp = await makeTempDir(prefix)
  })
  afterAll(async () => {
    await temp?.remove()
  })
  const dirOf = () => {
    if (temp === undefined) throw new Error('the temporary folder is made in beforeAll')
    return temp.dir
  }
  return {
    get dir() {
      return dirOf()
    },
    async freshFolder() {
      folders += 1
      const folder = path.join(dirOf(), `case-${folders}`)
      await mkdir(folder)
      return folder
    },
  }
}
