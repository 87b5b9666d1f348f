import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

/*
 * axe over a screen's own content: the violations a spec refuses (serious and critical), one
 * line each naming where, the rule and the elements, so an expectation of [] says what broke.
 */

/**
 * The serious and critical axe violations inside `main.content`, the shared badge palette left
 * out (the theme's, which a11y.spec.ts scans whole); each line starts with `where`.
 */
export async function severeContentViolations(page: Page, where: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include('main.content').exclude('.badge').analyze()
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${where}: ${violation.id} ${violation.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    )
}
