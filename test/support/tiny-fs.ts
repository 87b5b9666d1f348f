import { mkdir, rmdir } from 'node:fs/promises'
import path from 'node:path'
import { runOk } from './tools'

/*
 * Small real file systems for failure paths: a 1 MiB tmpfs fills up for real (ENOSPC), a
 * read-only tmpfs refuses every write (EROFS) even to root, whom permission bits do not stop.
 * Mounting needs root; callers skip with this reason otherwise.
 */

export const IS_ROOT = process.getuid?.() === 0
export const NOT_ROOT_REASON =
  'mounting a tmpfs needs root (run the tests as root, as CI does, to cover this case)'

export interface MountedFs {
  dir: string
  unmount(): Promise<void>
}

export async function mountTmpfs(
  parent: string,
  name: string,
  options: { sizeBytes: number; readOnly?: boolean },
): Promise<MountedFs> {
  const dir = path.join(parent, name)
  await mkdir(dir, { recursive: true })
  const flags = [`size=${options.sizeBytes}`, 'mode=0755', ...(options.readOnly ? ['ro'] : [])]
  await runOk('mount', ['-t', 'tmpfs', '-o', flags.join(','), 'tmpfs', dir])
  return {
    dir,
    async unmount() {
      await runOk('umount', [dir])
      await rmdir(dir)
    },
  }
}
