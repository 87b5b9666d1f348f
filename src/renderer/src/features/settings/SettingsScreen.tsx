import { useState } from 'react'
import type { BridgeError, Profile, Settings, Theme } from '../../../../shared/bridge'
import { useAppStore } from '../../app/store'
import { useSettingsStore } from '../../app/settings-store'
import { asBridgeError } from '../../bridge'
import { useSchemaForm } from '../../lib/schema-form'
import { Button } from '../../ui/Button'
import { ChoiceCards, type CardChoice } from '../../ui/ChoiceCard'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { Field } from '../../ui/Field'
import { FormIssues } from '../ops-common/FormIssues'
import { BackgroundRefreshChoice } from './BackgroundRefreshChoice'
import { settingsFormSchema, settingsFormValues } from './form-schema'
import './settings.css'

/*
 * Settings: the theme applies at once (a preview is the point of choosing one); the downloads
 * folder, the request timeout and the SQL console's default row limit (maxRows) are a form, checked as the
 * user types and saved together, main checking the folder exists and is writable.
 */

const THEME_CHOICES: CardChoice<Theme>[] = [
  { value: 'system', title: 'System', text: 'Follows the operating system' },
  { value: 'light', title: 'Light', text: 'Always light' },
  { value: 'dark', title: 'Dark', text: 'Always dark' },
]

export function SettingsScreen({ profile }: { profile: Profile | null }) {
  void profile // Settings belong to the app, not to a profile.
  const settings = useSettingsStore((s) => s.settings)
  const loadError = useSettingsStore((s) => s.error)
  const load = useSettingsStore((s) => s.load)
  // Kept here: a save re-keys the form (fresh values), and "Saved" must outlive that.
  const [saved, setSaved] = useState(false)

  return (
    <section className="screen settings" aria-labelledby="settings-title">
      <header className="screen-header">
        <div>
          <h1 id="settings-title">Settings</h1>
          <p className="screen-subtitle">For this app, on this computer, for every profile</p>
        </div>
      </header>
      {loadError ? (
        <ErrorBanner
          error={loadError}
          context="Could not read the settings"
          action={<Button onClick={() => void load()}>Try again</Button>}
        />
      ) : null}
      {settings ? (
        <>
          <ThemeChoice current={settings.theme} />
          <SqlSafety confirmDestructive={settings.confirmDestructive} />
          <BackgroundRefreshChoice current={settings.backgroundRefresh} />
          <SettingsForm
            key={formKey(settings)}
            settings={settings}
            saved={saved}
            onSaved={setSaved}
          />
        </>
      ) : loadError ? null : (
        <p className="loading" role="status">
          Loading settings…
        </p>
      )}
    </section>
  )
}

/**
 * A setting saved as soon as it is chosen (the theme, the SQL safety switch): the control shows
 * the choice at once while main saves it, and a refusal puts the saved value back and says why.
 */
function useSavedAtOnce<K extends keyof Settings>(key: K, saved: Settings[K]) {
  const update = useSettingsStore((s) => s.update)
  const [error, setError] = useState<BridgeError | null>(null)
  const [choosing, setChoosing] = useState<Settings[K] | null>(null)

  async function choose(next: Settings[K]) {
    setError(null)
    setChoosing(next)
    try {
      await update({ [key]: next } as Partial<Settings>)
    } catch (caught) {
      setError(asBridgeError(caught))
    } finally {
      setChoosing(null)
    }
  }

  return { current: choosing ?? saved, choose, error }
}

/** Saved on change, like the theme: a safety switch should not wait for a Save button. */
function SqlSafety({ confirmDestructive: saved }: { confirmDestructive: boolean }) {
  const { current, choose, error } = useSavedAtOnce('confirmDestructive', saved)
  return (
    <fieldset className="card settings-group">
      <legend className="settings-legend">SQL console</legend>
      <label className="choice-card">
        <input
          type="checkbox"
          name="confirmDestructive"
          checked={current}
          onChange={(event) => void choose(event.target.checked)}
        />
        <span>
          <strong>Ask before destructive statements</strong>{' '}
          <span className="muted">
            UPDATE or DELETE without WHERE, DROP and TRUNCATE, on every profile
          </span>
        </span>
      </label>
      {error ? <ErrorBanner error={error} context="Could not change the setting" /> : null}
    </fieldset>
  )
}

function ThemeChoice({ current: saved }: { current: Theme }) {
  const { current, choose, error } = useSavedAtOnce('theme', saved)

  return (
    <fieldset className="card settings-group">
      <legend className="settings-legend">Theme</legend>
      <div className="theme-choices">
        <ChoiceCards
          choices={THEME_CHOICES}
          value={current}
          onChoose={(theme) => void choose(theme)}
          className="theme-choice"
        />
      </div>
      {error ? <ErrorBanner error={error} context="Could not change the theme" /> : null}
    </fieldset>
  )
}

/** The form starts afresh when the saved values change (not when only the theme does). */
function formKey(settings: Settings): string {
  return JSON.stringify([
    settings.downloadsDir,
    settings.requestTimeoutMs,
    settings.defaultMaxRows,
    settings.sqlLibraryDir,
  ])
}

interface SettingsFormProps {
  settings: Settings
  saved: boolean
  onSaved(saved: boolean): void
}

function SettingsForm({ settings, saved, onSaved }: SettingsFormProps) {
  const update = useSettingsStore((s) => s.update)
  const mode = useAppStore((s) => s.mode)
  const initial = settingsFormValues(settings)
  const form = useSchemaForm(settingsFormSchema, initial)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<BridgeError | null>(null)
  const dirty = (Object.keys(initial) as (keyof typeof initial)[]).some(
    (key) => form.values[key] !== initial[key],
  )

  async function save() {
    const patch = form.check()
    if (!patch) return
    setBusy(true)
    setError(null)
    onSaved(false)
    try {
      await update(patch)
      // The store's new settings re-key this form with the saved values.
      onSaved(true)
    } catch (caught) {
      const failure = asBridgeError(caught)
      if (!form.showError(failure)) setError(failure)
    } finally {
      setBusy(false)
    }
  }

  return (
    <form
      className="card settings-group form"
      aria-labelledby="settings-general"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        void save()
      }}
    >
      <h2 id="settings-general" className="settings-legend">
        Downloads and requests
      </h2>
      <Field
        label="Downloads folder"
        error={form.errorOf('downloadsDir')}
        hint={
          mode === 'web'
            ? 'Web mode saves exports and archives here. An absolute path to a folder you can write to.'
            : 'Web mode saves exports here; the desktop app asks where to save each file.'
        }
      >
        {(control) => (
          <input
            {...control}
            {...form.text('downloadsDir')}
            className="input col-mono"
            spellCheck={false}
            autoComplete="off"
          />
        )}
      </Field>
      <div className="settings-row">
        <Field
          label="Request timeout (seconds)"
          error={form.errorOf('requestTimeoutMs')}
          hint="How long a call to the service may take before it is given up. Downloads are not cut off by it."
        >
          {(control) => (
            <input
              {...control}
              {...form.text('requestTimeoutMs')}
              className="input"
              inputMode="decimal"
            />
          )}
        </Field>
        <Field
          label="Row limit of a new SQL tab"
          error={form.errorOf('defaultMaxRows')}
          hint="The most rows a result of a new SQL console tab asks the service for (1 to 100,000); a tab can change its own."
        >
          {(control) => (
            <input
              {...control}
              {...form.text('defaultMaxRows')}
              className="input"
              inputMode="numeric"
            />
          )}
        </Field>
      </div>
      <Field
        label="Saved queries folder"
        error={form.errorOf('sqlLibraryDir')}
        hint="The SQL console's library of .sql files. Empty: the queries folder in the app's data folder; any folder you can write to, e.g. a git checkout your team shares."
      >
        {(control) => (
          <input
            {...control}
            {...form.text('sqlLibraryDir')}
            className="input col-mono"
            spellCheck={false}
            autoComplete="off"
            placeholder="(the data folder's queries folder)"
          />
        )}
      </Field>
      <FormIssues issues={form.otherIssues} />
      {error ? <ErrorBanner error={error} context="Could not save the settings" /> : null}
      <div className="form-actions">
        {saved && !dirty ? (
          <span className="settings-saved" role="status">
            Saved
          </span>
        ) : null}
        <Button onClick={() => form.reset(initial)} disabled={!dirty || busy}>
          Revert
        </Button>
        <Button type="submit" variant="primary" disabled={!dirty || !form.valid} busy={busy}>
          Save changes
        </Button>
      </div>
    </form>
  )
}
