import type { InferenceModelRecord, Role, SessionRecord, TokenRecord, UserRecord } from '../state'
import { DAY_MS, HOUR_MS, MINUTE_MS, newId, type SeedClock } from './time'

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const FIREFOX =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.6; rv:133.0) Gecko/20100101 Firefox/133.0'
const SAFARI_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1'
const EDGE =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0'

export interface People {
  users: UserRecord[]
  sessions: SessionRecord[]
  tokens: TokenRecord[]
}

/**
 * Two users, one per token, each with several browser sessions. The token's own session is
 * the caller's current one; the others are the same user's other browsers.
 */
export function seedPeople(clock: SeedClock, tokens: Record<Role, string>): People {
  const admin: UserRecord = {
    id: newId(),
    name: 'Ada Admin',
    email: 'ada@northwind.example',
    role: 'admin',
  }
  const viewer: UserRecord = {
    id: newId(),
    name: 'Victor Viewer',
    email: 'victor@northwind.example',
    role: 'viewer',
  }
  const session = (
    user: UserRecord,
    authMethod: SessionRecord['authMethod'],
    createdAgo: number,
    seenAgo: number,
    ipAddress: string | null,
    userAgent: string | null,
    mfa: boolean,
  ): SessionRecord => ({
    id: newId(),
    userId: user.id,
    authMethod,
    createdAt: clock.ms(-createdAgo),
    lastSeenAt: clock.ms(-seenAgo),
    expiresAt: clock.ms(-createdAgo + 30 * DAY_MS),
    ipAddress,
    userAgent,
    mfaSatisfiedAt: mfa ? clock.ms(-createdAgo + 40 * 1000) : null,
    endedAt: null,
  })
  const adminCurrent = session(admin, 'oidc', 2 * HOUR_MS, 0, '203.0.113.24', CHROME, true)
  const viewerCurrent = session(
    viewer,
    'password',
    3 * DAY_MS,
    MINUTE_MS,
    '198.51.100.7',
    EDGE,
    false,
  )
  const sessions = [
    adminCurrent,
    session(admin, 'oidc', 6 * DAY_MS, 5 * HOUR_MS, '203.0.113.80', FIREFOX, true),
    session(admin, 'email_otp', 12 * DAY_MS, 2 * DAY_MS, '2001:db8:14::7', SAFARI_IOS, true),
    session(admin, 'password', 20 * DAY_MS, 9 * DAY_MS, null, null, false),
    viewerCurrent,
    session(viewer, 'email_otp', 9 * DAY_MS, 26 * HOUR_MS, '198.51.100.90', SAFARI_IOS, true),
  ]
  return {
    users: [admin, viewer],
    sessions,
    tokens: [
      { token: tokens.admin, userId: admin.id, sessionId: adminCurrent.id, revoked: false },
      { token: tokens.viewer, userId: viewer.id, sessionId: viewerCurrent.id, revoked: false },
    ],
  }
}

export function seedInferenceModels(clock: SeedClock): InferenceModelRecord[] {
  const created = (daysAgo: number) => Math.floor(clock.ms(-daysAgo * DAY_MS) / 1000)
  return [
    {
      id: 'llama-3.1-8b-instruct',
      created: created(120),
      ownedBy: 'meta',
      kind: 'chat',
      contextLength: 131072,
      availableTo: ['admin', 'viewer'],
    },
    {
      id: 'llama-3.3-70b-instruct',
      created: created(60),
      ownedBy: 'meta',
      kind: 'chat',
      contextLength: 131072,
      availableTo: ['admin', 'viewer'],
    },
    {
      id: 'mistral-small-24b-instruct',
      created: created(45),
      ownedBy: 'mistralai',
      kind: 'chat',
      contextLength: 32768,
      availableTo: ['admin', 'viewer'],
    },
    {
      id: 'qwen2.5-coder-32b-instruct',
      created: created(90),
      ownedBy: 'qwen',
      kind: 'chat',
      contextLength: 32768,
      availableTo: ['admin', 'viewer'],
    },
    {
      id: 'bge-m3',
      created: created(200),
      ownedBy: 'baai',
      kind: 'embedding',
      contextLength: 8192,
      availableTo: ['admin', 'viewer'],
    },
    {
      id: 'whisper-large-v3',
      created: created(150),
      ownedBy: 'openai',
      kind: 'completion',
      contextLength: 448,
      availableTo: ['admin'],
    },
    {
      id: 'northwind-support-ft-2024-11',
      created: created(10),
      ownedBy: 'northwind',
      kind: 'chat',
      contextLength: 16384,
      availableTo: ['admin'],
    },
  ]
}
