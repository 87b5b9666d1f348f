import { isServiceError } from '../../api'
import { parseSqlAnswer } from '../../sql/parse-result'
import type { NotLearned } from '../../sql-guard'
import type { StoredProfile } from '../../profiles'
import type { DeskContext } from '../context'
import { withProfileClient } from '../context'

/*
 * Each database's standard_conforming_strings, learned once (per run of the app) when a text
 * needs it: a plain literal with a backslash reads differently when it is off. Not learned when
 * the service would not say; such a literal then keeps the text from being a read, and the guard's
 * refusal says why the setting is not known (a timeout while the database starts, the service
 * unreachable), so the user knows a second try may do.
 */

/** A judgement made with what is known of the setting (`NotLearned`: asked, and it did not say). */
type Judge<T> = (known: boolean | NotLearned | undefined) => T | Promise<T>

export interface ConformingStrings {
  /** What was learned for the database; undefined when not (yet) known. */
  known(profileId: string, databaseId: string): boolean | undefined
  /** Asks the database (`SHOW standard_conforming_strings`); why not, when it would not say. */
  learn(profile: StoredProfile, databaseId: string): Promise<boolean | NotLearned>
  /** A text set or reset the setting: the learned value may be stale, asked again when it matters. */
  forget(profileId: string, databaseId: string): void
  /**
   * `judge` with what is known of the database's setting; when the judgement says the setting
   * matters (`matters`) and it is not known, it is learned and the text judged again (with why
   * it could not be learned, when it could not).
   */
  judge<T>(
    profile: StoredProfile,
    databaseId: string,
    judge: Judge<T>,
    matters: (judged: T) => boolean,
  ): Promise<T>
}

export function createConformingStrings(context: DeskContext): ConformingStrings {
  const learned = new Map<string, boolean>()
  const keyOf = (profileId: string, databaseId: string) => `${profileId}\u0000${databaseId}`
  const strings: ConformingStrings = {
    known: (profileId, databaseId) => learned.get(keyOf(profileId, databaseId)),
    forget: (profileId, databaseId) => learned.delete(keyOf(profileId, databaseId)),
    async learn(profile, databaseId) {
      try {
        // The app's own question, not the user's statement: neither logged nor kept in history.
        const body = await withProfileClient(context, profile.id, (client) =>
          client.callBytes('runPostgresQuery', {
            params: { id: databaseId },
            body: { sql: 'SHOW standard_conforming_strings', maxRows: 1 },
          }),
        )
        const value = parseSqlAnswer(body.toString('utf8')).rows[0]?.[0]
        if (value !== 'on' && value !== 'off') {
          return {
            notLearned: `SHOW standard_conforming_strings answered ${JSON.stringify(value ?? null)}`,
          }
        }
        learned.set(keyOf(profile.id, databaseId), value === 'on')
        return value === 'on'
      } catch (error) {
        // A service error's message is written for the user (the timeout, the unreachable host).
        return {
          notLearned: `SHOW standard_conforming_strings failed: ${
            isServiceError(error) ? error.message : 'an unexpected error'
          }`,
        }
      }
    },
    async judge(profile, databaseId, judge, matters) {
      const known = strings.known(profile.id, databaseId)
      const judged = await judge(known)
      if (known !== undefined || !matters(judged)) return judged
      return judge(await strings.learn(profile, databaseId))
    },
  }
  return strings
}
