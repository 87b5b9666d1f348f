import { SQL_ERROR_CODES } from '../../../shared/bridge/channels/sql'
import { ServiceError } from '../../api'
import {
  analyzeSqlLoaded,
  destructiveReasonOf,
  loadPgParser,
  needsConformingStrings,
  parseText,
  setsConformingStrings,
  verdictOf,
  type ParsedText,
} from '../../sql-guard'
import { readOnlyRefusalOf } from '../../sql-guard/plan'
import type { StoredProfile } from '../../profiles'
import type { SqlHub } from './hub'

/*
 * The guard before op 5: what the tab, the profile and the settings allow of a text, judged by
 * PostgreSQL's own parser (src/main/sql-guard). Nothing is sent when it refuses.
 */

/** Where a statement runs and how the user asked it to be guarded. */
export interface Guarded {
  profileId: string
  databaseId: string
  runId: string
  readOnly: boolean
  confirmedWrite: boolean
}

/**
 * Refuses what the tab, the profile or the settings do not allow; nothing is sent then. The
 * text is judged by PostgreSQL's own parser (src/main/sql-guard), statement by statement (a
 * service runs every one of them): one write makes the call a write, and text the parser
 * refuses is never a read. Resolves with whether the text, a read on a protected profile, is
 * to be sent inside a read-only transaction too (defence in depth: what no parse tree shows,
 * a user's function shadowing a built-in or a view that writes, PostgreSQL then refuses), and
 * with the parse it judged, handed on so the send does not parse the text again (send.ts).
 * `handed`: the caller's parse of this text (sql.explain counts its statements first), used
 * instead of parsing it again.
 */
export async function guard(
  hub: Pick<SqlHub, 'context' | 'conformingStrings'>,
  profile: StoredProfile,
  sql: string,
  input: Pick<Guarded, 'databaseId' | 'readOnly' | 'confirmedWrite'>,
  handed?: ParsedText,
): Promise<{ protect: boolean; parsed: ParsedText }> {
  const { context, conformingStrings } = hub
  await loadPgParser()
  // Parsed once: judged again from the same tree when the database's setting is learned.
  const parsed = handed?.sql === sql ? handed : parseText(sql)
  const analysis = await conformingStrings.judge(
    profile,
    input.databaseId,
    (known) => analyzeSqlLoaded(sql, { standardConformingStrings: known }, parsed),
    needsConformingStrings,
  )
  const verdict = verdictOf(analysis)
  if (setsConformingStrings(analysis)) {
    // Once this runs the learned value may be stale: asked again next time it matters.
    conformingStrings.forget(profile.id, input.databaseId)
  }
  if (input.readOnly) {
    const refuse = (reason: string) =>
      new ServiceError(
        SQL_ERROR_CODES.READ_ONLY_TAB,
        `This tab is read-only and the statement was not sent: ${reason}`,
        { details: { reason } },
      )
    // Unparsed text, sent, would fail inside the tab's transaction, which a real deployment
    // leaves open; transaction control would end it; anything else not a read is refused.
    const refusal = readOnlyRefusalOf(analysis)
    if (refusal !== null) throw refuse(refusal)
  }
  if (verdict.kind !== 'read' && profile.protected && !input.confirmedWrite) {
    throw new ServiceError(
      SQL_ERROR_CODES.WRITE_NOT_CONFIRMED,
      `"${profile.name}" is protected: confirm this statement before it is sent (${verdict.reason})`,
      { details: { reason: verdict.reason } },
    )
  }
  if (context.settings.get().confirmDestructive && !input.confirmedWrite) {
    const reason = destructiveReasonOf(analysis)
    if (reason !== null) {
      throw new ServiceError(
        SQL_ERROR_CODES.DESTRUCTIVE_NOT_CONFIRMED,
        `Confirm this statement before it is sent: ${reason}`,
        { details: { reason } },
      )
    }
  }
  return { protect: profile.protected && !input.readOnly && verdict.kind === 'read', parsed }
}
