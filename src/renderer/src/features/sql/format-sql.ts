/*
 * Format SQL with sql-formatter's PostgreSQL dialect. The formatter (with its
 * grammar) loads on first use only, so it never weighs on the console's first paint. Keywords
 * keep the case they were written in; `:name` parameters (saved queries) and `$1` stay whole.
 */

export async function formatSql(text: string): Promise<string> {
  const { formatDialect, postgresql } = await import('sql-formatter')
  return formatDialect(text, {
    dialect: postgresql,
    keywordCase: 'preserve',
    tabWidth: 2,
    paramTypes: { named: [':'], numbered: ['$'] },
  })
}
