import type { BridgeHandlers } from '../../bridge/dispatcher'
import { requireProfile } from '../context'
import { chooseSaveTarget, saveToDisk } from '../save-to-disk'
import { settled as settledIn, type SqlHub } from './hub'

/*
 * Kept results, read by the renderer as it needs them: windows of rows, one cell, a sort, a
 * copy in a text format, a save to disk, a comparison of two results and its rows, and their
 * release. Each waits for a result whose answer is still being parsed.
 */

export function sqlResultHandlers(
  hub: SqlHub,
): Pick<
  BridgeHandlers,
  | 'sql.rows'
  | 'sql.cell'
  | 'sql.sort'
  | 'sql.copy'
  | 'sql.save'
  | 'sql.compare'
  | 'sql.compare.rows'
  | 'sql.release'
> {
  const { context } = hub
  const results = () => hub.results()
  const settled = (resultId: string) => settledIn(hub, resultId)
  return {
    async 'sql.rows'({ resultId, offset, limit }) {
      await settled(resultId)
      return { offset, rows: await results().window(resultId, offset, limit) }
    },

    async 'sql.cell'({ resultId, row, column }) {
      await settled(resultId)
      return { value: await results().cell(resultId, row, column) }
    },

    async 'sql.sort'({ resultId, column, direction }) {
      await settled(resultId)
      await results().sort(resultId, column, direction)
      return null
    },

    async 'sql.copy'({ resultId, format, range, headers }) {
      await settled(resultId)
      return results().format(resultId, format, { headers, from: range?.from, to: range?.to })
    },

    async 'sql.save'({ profileId, resultId, format }) {
      const profile = requireProfile(context, profileId)
      await settled(resultId)
      const kept = await results().info(resultId)
      const stamp = new Date().toISOString().replace(/[:]/g, '-').replace(/\..+$/, '')
      const target = await chooseSaveTarget(context, {
        title: 'Save result',
        defaultName: `${kept.databaseId}-${stamp}.${format}`,
        filter: { name: format.toUpperCase(), extension: format },
      })
      if (target === null) return { path: null, bytes: 0, rows: 0 }
      const rowCount = kept.rows
      async function* chunks() {
        for await (const chunk of results().stream(resultId, format)) {
          yield Buffer.from(chunk, 'utf8')
        }
      }
      const saved = await saveToDisk(
        context,
        target,
        {
          profileId: profile.id,
          profileName: profile.name,
          kind: 'sql-result',
          label: `${kept.databaseId} result (${format.toUpperCase()}, ${rowCount} rows)`,
          source: { databaseId: kept.databaseId, format, rows: rowCount },
        },
        async () => chunks(),
      )
      return { path: saved.path, bytes: saved.size, rows: rowCount }
    },

    async 'sql.compare'({ comparisonId, before, after, keyColumn }) {
      await Promise.all([settled(before), settled(after)])
      return results().compare(comparisonId, { before, after }, keyColumn)
    },

    async 'sql.compare.rows'({ comparisonId, offset, limit }) {
      return { offset, rows: await results().compareWindow(comparisonId, offset, limit) }
    },

    async 'sql.release'({ resultIds }) {
      await results().release(resultIds)
      return null
    },
  }
}
