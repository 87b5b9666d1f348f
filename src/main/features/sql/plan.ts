import type { BridgeHandlers } from '../../bridge/dispatcher'
import { loadPgParser, type GuardOptions } from '../../sql-guard'
import { planSqlLoaded } from '../../sql-guard/plan'
import type { SqlHub } from './hub'

/*
 * `sql.plan`: the guard's reading of a text, for the console before it sends anything (Run all's
 * statements, the parameter form's placeholders, the pre-send hint). Literals are read as the
 * tab's database reads them when that matters and can be learned (conforming-strings.ts).
 */

export function sqlPlanHandler(hub: SqlHub): Pick<BridgeHandlers, 'sql.plan'> {
  const { context, conformingStrings } = hub
  return {
    async 'sql.plan'({ sql, mode, profileId, databaseId }) {
      await loadPgParser()
      const database = databaseId?.trim() ?? ''
      const profile =
        profileId === undefined || database === '' ? undefined : context.profiles.get(profileId)
      const judge = (known: GuardOptions['standardConformingStrings']) =>
        planSqlLoaded(sql, mode, { standardConformingStrings: known })
      // Literals are read as the tab's database reads them when that matters (learned once).
      const plan = profile
        ? await conformingStrings.judge(
            profile,
            database,
            judge,
            (planned) => planned.needsConformingStrings,
          )
        : judge(undefined)
      return { statements: plan.statements, parserError: plan.parserError }
    },
  }
}
