import { randomUUID } from 'node:crypto'
import { existsSync, readFileSync, renameSync } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { toValidationIssues } from '../../shared/api'
import type { Notice } from '../../shared/bridge'
import { ServiceError } from '../api/errors'
import { makePrivateFolder, tightenPrivateFile } from '../data-folder'
import { removeStaleTempFiles, writeFileAtomicSync } from '../transfers/atomic-file'

/*
 * The profiles (service environments) in `<dataDir>/profiles.json`. Not in the SQLite cache, so
 * a damaged cache never loses them. The file holds no token, ever: its schema is strict, so a
 * `token` field is refused on the way in and makes a file unreadable on the way out.
 */

export const PROFILES_FILE_NAME = 'profiles.json'

/** The profile's proxy; absent means `system` (the environment's, else the OS's). */
const proxyChoiceSchema = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('none') }),
  z.strictObject({ mode: z.literal('system') }),
  // The login is in the keychain (vault), never here: the URL carries none.
  z.strictObject({ mode: z.literal('custom'), url: z.string().min(1).max(2048) }),
])

const storedProfileSchema = z.strictObject({
  id: z.string().min(1).max(200),
  name: z.string().trim().min(1, 'Enter a name').max(200),
  baseUrl: z.url({ protocol: /^https?$/, error: 'Enter an http:// or https:// URL' }),
  color: z.string().min(1).max(50),
  /** A production environment: writes ask for an extra confirmation. */
  protected: z.boolean(),
  kind: z.enum(['service', 'sandbox']),
  /** Epoch ms. */
  createdAt: z.number(),
  /** PEM CA certificates trusted for this profile beside the system's (public material). */
  trustedCas: z
    .array(
      z
        .string()
        .min(1)
        .max(256 * 1024),
    )
    .max(20)
    .optional(),
  proxy: proxyChoiceSchema.optional(),
  /**
   * False: saved while its service could not be reached, its token never checked ("Save
   * anyway, check later"); true once a Connect succeeded. Absent: checked when added.
   */
  verified: z.boolean().optional(),
})
export type StoredProfile = z.infer<typeof storedProfileSchema>
export type ProfileFieldsInput = Omit<StoredProfile, 'id' | 'createdAt'>

const fieldsSchema = storedProfileSchema.omit({ id: true, createdAt: true })
const patchSchema = fieldsSchema.partial()

const FILE_VERSION = 1
const fileSchema = z
  .strictObject({
    version: z.literal(FILE_VERSION),
    activeId: z.string().nullable(),
    profiles: z.array(storedProfileSchema),
  })
  .refine((file) => new Set(file.profiles.map((p) => p.id)).size === file.profiles.length, {
    message: 'Two profiles have the same id',
  })
type ProfilesFile = z.infer<typeof fileSchema>

export interface ProfileStore {
  list(): StoredProfile[]
  get(id: string): StoredProfile | undefined
  add(fields: ProfileFieldsInput): StoredProfile
  update(id: string, patch: Partial<ProfileFieldsInput>): StoredProfile
  remove(id: string): void
  activeId(): string | null
  setActive(id: string | null): void
  /** What the user should be told about opening (a damaged file moved aside). */
  readonly notices: Notice[]
}

export function createProfileStore(file: string): ProfileStore {
  const directory = path.dirname(file)
  makePrivateFolder(directory)
  removeStaleTempFiles(file)
  // Written 0600 (writeFileAtomicSync); one an older version or a hand left looser is tightened.
  tightenPrivateFile(file)
  const notices: Notice[] = []
  let state = readState(file, notices)

  /** Applies a change to a copy, writes it, and only then makes it the current state. */
  function commit(next: ProfilesFile): void {
    writeFileAtomicSync(file, `${JSON.stringify(next, null, 2)}\n`)
    state = next
  }

  function find(id: string): StoredProfile {
    const profile = state.profiles.find((candidate) => candidate.id === id)
    if (!profile) throw new ServiceError('NOT_FOUND', `No profile with id "${id}"`)
    return profile
  }

  return {
    notices,
    list: () => state.profiles.map((profile) => ({ ...profile })),
    get(id) {
      const profile = state.profiles.find((candidate) => candidate.id === id)
      return profile ? { ...profile } : undefined
    },
    add(fields) {
      const valid = validate(fieldsSchema, fields)
      const profile: StoredProfile = { id: randomUUID(), createdAt: Date.now(), ...valid }
      commit({ ...state, profiles: [...state.profiles, profile] })
      return { ...profile }
    },
    update(id, patch) {
      const current = find(id)
      const valid = validate(patchSchema, patch)
      const updated: StoredProfile = { ...current, ...stripUndefined(valid) }
      commit({
        ...state,
        profiles: state.profiles.map((profile) => (profile.id === id ? updated : profile)),
      })
      return { ...updated }
    },
    remove(id) {
      find(id)
      commit({
        ...state,
        activeId: state.activeId === id ? null : state.activeId,
        profiles: state.profiles.filter((profile) => profile.id !== id),
      })
    },
    activeId: () => state.activeId,
    setActive(id) {
      if (id !== null) find(id)
      if (id === state.activeId) return
      commit({ ...state, activeId: id })
    },
  }
}

function emptyState(): ProfilesFile {
  return { version: FILE_VERSION, activeId: null, profiles: [] }
}

/** The file's state; a file that cannot be read as profiles is moved aside with a notice. */
function readState(file: string, notices: Notice[]): ProfilesFile {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyState()
    throw error
  }
  let problem: string
  try {
    const parsed = fileSchema.safeParse(JSON.parse(text))
    if (parsed.success) {
      const state = parsed.data
      // A dangling active id is not worth losing the profiles over.
      if (state.activeId !== null && !state.profiles.some((p) => p.id === state.activeId)) {
        state.activeId = null
      }
      return state
    }
    problem = `it does not hold valid profiles (${summarise(parsed.error)})`
  } catch {
    problem = 'it is not valid JSON'
  }
  const aside = moveAside(file)
  notices.push({
    id: `profiles-recovered-${Date.now()}`,
    level: 'warning',
    message:
      `The profiles file could not be read: ${problem}. It was moved aside to ` +
      `${path.basename(aside)}; add your profiles again.`,
  })
  return emptyState()
}

function summarise(error: z.ZodError): string {
  const first = toValidationIssues(error)[0]
  if (!first) return 'unknown problem'
  return first.path.length > 0 ? `${first.path.join('.')}: ${first.message}` : first.message
}

function moveAside(file: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  let aside = `${file}.corrupt-${stamp}`
  for (let n = 2; existsSync(aside); n += 1) aside = `${file}.corrupt-${stamp}-${n}`
  renameSync(file, aside)
  return aside
}

function validate<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  throw new ServiceError('VALIDATION_ERROR', 'Request validation failed', {
    details: toValidationIssues(parsed.error),
  })
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, item]) => item !== undefined),
  ) as Partial<T>
}
