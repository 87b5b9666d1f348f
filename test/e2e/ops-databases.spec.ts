import { z } from 'zod'
import { expect } from './support/fixtures'
import { expectActivityLine, openScreen, pressAndConfirm, sandboxCall, test } from './support/ops'
import { firstSeeded } from './support/seed'

const rotationSchema = z.object({ data: z.looseObject({ previousSerialNumber: z.string() }) })

test('rotate a PostgreSQL certificate in place: restart not allowed by default, new serial shown and confirmed by the next rotation, logged', async ({
  page,
  ops: { sandbox, seed },
}) => {
  const databaseId = firstSeeded(seed.databases['postgres'], 'PostgreSQL database')

  await openScreen(page, 'Database certificates')
  const explanation = page.getByRole('list', { name: 'How the engine takes the new certificate' })
  await expect(explanation).toContainText('In-place reload')
  await expect(explanation).toContainText('Restart')
  await expect(explanation).toContainText('Scheduled reread')
  const allowRestart = page.getByRole('checkbox', {
    name: /^Allow a restart of the database engine/,
  })
  await expect(allowRestart).not.toBeChecked()

  await page.getByLabel('Database ID').fill(databaseId)
  await page.getByRole('button', { name: 'Rotate certificate…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Rotate this database’s certificate?' })
  await expect(dialog).toContainText('No restart is allowed')
  await dialog.getByRole('button', { name: 'Rotate certificate' }).click()

  const outcome = page.getByRole('status', { name: 'Rotation outcome' })
  await expect(outcome).toContainText('Reloaded in place')
  const serial = (await outcome.getByLabel('New serial').textContent())?.trim() ?? ''
  expect(serial).toMatch(/^[0-9A-Fa-f:]+$/)
  await expect(page.getByRole('table', { name: 'Rotations' })).toContainText(serial)

  // The later call: the next rotation names the serial the screen showed as the one it replaces.
  const next = await sandboxCall(
    sandbox,
    'POST',
    `/api/databases/managed/${databaseId}/rotate-certificate`,
    {},
  )
  expect(rotationSchema.parse(next.json).data.previousSerialNumber).toBe(serial)

  await expectActivityLine(page, {
    operation: 'rotateDatabaseCertificate',
    target: databaseId,
    text: new RegExp(serial),
  })
})

test('rotate a ClickHouse certificate: pending until its scheduled reread, then the screen says it finished', async ({
  page,
  ops: { seed },
}) => {
  const databaseId = firstSeeded(seed.databases['clickhouse'], 'ClickHouse database')

  await openScreen(page, 'Database certificates')
  await page.getByLabel('Database ID').fill(databaseId)
  await pressAndConfirm(page, 'Rotate certificate…', 'Rotate this database’s certificate?')

  const outcome = page.getByRole('status', { name: 'Rotation outcome' })
  await expect(outcome).toContainText('Rotation pending')
  await expect(page.getByRole('table', { name: 'Rotations' })).toContainText('Pending')
  // The sandbox rereads 5 s later; the screen updates by itself when it has.
  await expect(outcome).toContainText('the scheduled reread has finished', { timeout: 30_000 })
  await expect(page.getByRole('table', { name: 'Rotations' })).toContainText('Completed')
  await expectActivityLine(page, { operation: 'rotateDatabaseCertificate', target: databaseId })
})
