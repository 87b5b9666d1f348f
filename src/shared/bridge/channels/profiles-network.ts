import { z } from 'zod'
import { id } from '../common'

/*
 * A profile's connections: its proxy (none, the system's or environment's, or its own) and the
 * CA certificates it trusts beside the system's. Certificates are checked in main (CA:true,
 * readable); the renderer only reads the file's text and shows what main says about it.
 */

/** One PEM file's text, as read in the page. */
export const pemText = z
  .string()
  .min(1)
  .max(256 * 1024, 'The file is too large for a CA certificate')

export const proxyUrlSchema = z
  .string()
  .trim()
  .pipe(
    z.url({
      protocol: /^http$/,
      error: 'Enter the proxy as http://host:port',
    }),
  )
  .refine((url) => !/@/.test(url.replace(/^http:\/\//, '')), {
    message: 'Enter the user and password in their own fields',
  })

/** What the form sends: a password left out keeps the stored one; an empty user removes it. */
export const proxyInputSchema = z.lazy(() =>
  z.discriminatedUnion('mode', [
    z.object({ mode: z.literal('none') }),
    z.object({ mode: z.literal('system') }),
    z.object({
      mode: z.literal('custom'),
      url: proxyUrlSchema,
      username: z.string().trim().max(256).default(''),
      password: z.string().max(1024).optional(),
    }),
  ]),
)
export type ProxyInput = z.input<typeof proxyInputSchema>

/** The network fields `profiles.add` and `profiles.update` take beside the profile's own. */
export const profileNetworkInput = z.object({
  /** The whole list of PEM CA certificates the profile trusts (replaces the stored one). */
  trustedCas: z.array(pemText).max(20, 'At most 20 CA certificates').optional(),
  proxy: proxyInputSchema.optional(),
})

export const caCertificateSchema = z.lazy(() =>
  z.object({
    pem: z.string(),
    subject: z.string(),
    issuer: z.string(),
    /** ISO 8601. */
    validTo: z.string(),
    /** `AB:CD:…`, as `openssl x509 -fingerprint -sha256` prints it. */
    fingerprint256: z.string(),
  }),
)
export type CaCertificate = z.infer<typeof caCertificateSchema>

export const profileNetworkSchema = z.lazy(() =>
  z.object({
    trustedCas: z.array(caCertificateSchema),
    /**
     * What the operating system's store gave every connection (beside Node's bundled roots and
     * the profile's own CAs): its count, or why none (Electron's BoringSSL may read none).
     */
    systemCas: z
      .object({
        count: z.number().int().nonnegative(),
        problem: z.string().nullable(),
        /**
         * NODE_EXTRA_CA_CERTS: the file it names (null when unset), the certificates the runtime
         * took from it, or why none (Electron ignores the variable; plain Node, web mode and the
         * CLI honour it).
         */
        environment: z
          .object({
            file: z.string().nullable(),
            count: z.number().int().nonnegative(),
            problem: z.string().nullable(),
          })
          .optional(),
      })
      .optional(),
    proxy: z.discriminatedUnion('mode', [
      z.object({ mode: z.literal('none') }),
      z.object({ mode: z.literal('system') }),
      z.object({
        mode: z.literal('custom'),
        url: z.string(),
        /** From the keychain; the password never leaves main. */
        username: z.string(),
        hasPassword: z.boolean(),
      }),
    ]),
  }),
)
export type ProfileNetworkView = z.infer<typeof profileNetworkSchema>

export const profileNetworkChannels = {
  /** The profile's proxy and trusted CAs, for its form. */
  'profiles.network': () => ({ input: z.object({ id }), output: profileNetworkSchema }),
  /** Checks a PEM file's text: CA certificates only; nothing is stored. */
  'profiles.inspectCa': () => ({
    input: z.object({ pem: pemText }),
    output: z.object({ certificates: z.array(caCertificateSchema) }),
  }),
} as const
