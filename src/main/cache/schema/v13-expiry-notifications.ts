/**
 * Cache schema version 13: which certificate expiries the user was already told about (issue
 * 21, notifications), so a restart never tells the same one twice. One row per profile,
 * certificate, threshold (`expired`, `week`: within 7 days) and the expiry it was told for: a
 * renewed certificate (a new notAfter) that nears expiry again is told again.
 * Never edit once shipped: add a new version instead.
 */
export const MIGRATION_13_SQL = `
  CREATE TABLE expiry_notifications (
    profile_id TEXT NOT NULL,
    certificate_id TEXT NOT NULL,
    threshold TEXT NOT NULL CHECK (threshold IN ('expired', 'week')),
    not_after TEXT NOT NULL,
    notified_at INTEGER NOT NULL,
    PRIMARY KEY (profile_id, certificate_id, threshold, not_after)
  ) WITHOUT ROWID;
`
