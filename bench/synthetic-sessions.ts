/**
 * A synthetic session list (op 1's rows) of `count` rows, as a big account's would be: the
 * input of the lists and stalls benches' 10 MB refresh.
 */
export function syntheticSessions(count: number, now = Date.now()) {
  return Array.from({ length: count }, (_, index) => ({
    id: `session-${String(index).padStart(6, '0')}`,
    authMethod: ['oidc', 'password', 'email_otp'][index % 3],
    createdAt: now - index * 60_000,
    lastSeenAt: now - index * 1_000,
    expiresAt: now + 86_400_000,
    ipAddress: `203.0.113.${index % 250}`,
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131',
    mfaSatisfiedAt: index % 2 === 0 ? now - index * 60_000 : null,
    isCurrent: index === 0,
  }))
}
