import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChannelOutput, Profile } from '../../src/shared/bridge'
import { readIncident, readStatusPage } from '../../src/shared/status-page'
import type { TestDesk } from '../support/desk'
import { openGatewayDesk, type GatewayDesk } from '../support/gateway-desk'

/*
 * Op 21 as a real deployment sends it (the gateway flavour), through the desk and the app's one
 * reader of the preview (src/shared/status-page.ts): services by group with their status and
 * health history, the service whose state is `unknown`, incidents with message and updates, and
 * every field the reader has no name for kept as an extra. Run under scripts/with-keyring.mjs.
 */

type StatusPageState = ChannelOutput<'statusPage.refresh'>

let gateway: GatewayDesk
let desk: TestDesk
let profile: Profile

beforeAll(async () => {
  gateway = await openGatewayDesk('gateway-status-page')
  ;({ desk, profile } = gateway)
}, 120_000)

afterAll(() => gateway?.close())

describe('the status page of a real deployment', () => {
  it('reads services (groups, unknown, health history) and incidents with their updates', async () => {
    const state = await desk.value<StatusPageState>('statusPage.refresh', { profileId: profile.id })
    expect(state.page).not.toBeNull()
    const page = readStatusPage(state.page!)
    expect(page.title).toBe('Northwind Status')
    expect(page.description).toMatch(/Live status/)
    expect(page.overall.level).not.toBeNull()
    expect(page.generatedAt).not.toBeNull()
    // The page's fields the reader does not name are kept, to be shown.
    expect(page.extras.map(([key]) => key)).toContain('hideExternalBranding')

    expect(page.components.length).toBeGreaterThan(1)
    const groups = new Set(page.components.map((component) => component.group))
    expect(groups.has('Customer facing')).toBe(true)
    const unknown = page.components.find((component) => component.status.level === 'unknown')
    expect(unknown, 'a service whose state is unknown').toBeDefined()
    expect(unknown!.group).toBeNull()
    expect(unknown!.history).toHaveLength(1)

    const storefront = page.components.find((component) => component.name === 'Storefront')!
    expect(storefront.history).toHaveLength(192)
    for (const slot of storefront.history) {
      expect(slot.at).not.toBeNull()
      expect(slot.status.level).not.toBeNull()
      expect(slot.extras).toEqual([])
    }
    const all = page.components.flatMap((component) => component.history)
    expect(all.some((slot) => slot.slow)).toBe(true)
    expect(all.some((slot) => slot.status.level === 'unknown')).toBe(true)
    expect(all.some((slot) => slot.status.level === 'major_outage')).toBe(true)

    expect(state.items.length).toBeGreaterThan(0)
    const incidents = state.items.map((item) => readIncident(item))
    const open = incidents.filter((incident) => incident.open)
    expect(open.length).toBeGreaterThan(0)
    for (const incident of incidents) {
      expect(incident.title).not.toBeNull()
      expect(incident.message).not.toBeNull()
      expect(incident.startedAt).not.toBeNull()
      expect(incident.componentIds.length).toBeGreaterThan(0)
      expect(incident.updates.length).toBeGreaterThan(0)
      for (const update of incident.updates) {
        expect(update.at).not.toBeNull()
        expect(update.message).not.toBeNull()
        expect(update.status).not.toBeNull()
      }
      // `type` has no name in the reader: kept to be shown.
      expect(incident.extras.map(([key]) => key)).toContain('type')
    }
  })

  it('resolving an open incident (op 18) moves it out of the open ones', async () => {
    const before = await desk.value<StatusPageState>('statusPage.refresh', {
      profileId: profile.id,
    })
    const open = before.items.map((item) => readIncident(item)).find((incident) => incident.open)!
    const after = await desk.value<{ page: StatusPageState }>('statusPage.resolveIncident', {
      profileId: profile.id,
      incidentId: open.id,
    })
    const resolved = after.page.items
      .map((item) => readIncident(item))
      .find((incident) => incident.id === open.id)
    expect(resolved?.open).toBe(false)
  })
})
