import { describe, expect, it } from 'vitest'
import { useSqlDesk } from '../support/sql-desk'

/*
 * service.call's runPostgresQuery (the app's generic call, and `infradesk call`) is checked
 * against the operation's contract before the SQL guard judges its statement. Without a
 * database id, the guard judged the statement for database "" and its refusal (a destructive
 * statement to confirm) was what came back, not the missing parameter.
 */

const world = useSqlDesk('service-call-checks', {
  database: 1,
  tabId: 'checks-tab',
  maxRows: 10,
})

const call = (params: Record<string, string>, sql: string) => ({
  profileId: world.profile.id,
  operation: 'runPostgresQuery',
  params,
  body: { sql },
})

describe('service.call runPostgresQuery', () => {
  it.each([
    ['missing', {}],
    ['empty', { id: '' }],
  ])(
    'refuses a database id that is %s, naming it, before the guard, and sends nothing',
    async (_, params) => {
      const refused = await world.desk.failure('service.call', call(params, 'drop table orders'))
      expect(refused.code).toBe('VALIDATION_ERROR')
      expect(refused.details).toEqual([{ path: ['id'], message: expect.any(String) }])
      expect(world.statementsSent()).toEqual([])
    },
  )

  it('still has the guard judge the statement once the id is there', async () => {
    const refused = await world.desk.failure(
      'service.call',
      call({ id: world.databaseId }, 'drop table orders'),
    )
    expect(refused.code).toBe('DESTRUCTIVE_NOT_CONFIRMED')
    expect(world.statementsSent()).toEqual([])
  })
})
