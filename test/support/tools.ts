import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'

/*
 * The real tools that judge what the sandbox produces: openssl, keytool and tar run on
 * files written to a temporary folder, exactly as a user's machine would read them.
 */

export interface ToolResult {
  code: number | null
  stdout: string
  stderr: string
}

export interface RunOptions {
  /** Written to the program's stdin, which is then closed. */
  input?: string | Buffer
  /** The program's whole environment; this process's when not given. */
  env?: NodeJS.ProcessEnv
}

/** Runs a program without a shell; never throws on a non-zero exit (see `runOk`). */
export function run(
  command: string,
  args: string[],
  options: RunOptions = {},
): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, stdout, stderr }))
    child.stdin.end(options.input)
  })
}

/** Runs a program and throws, with its stderr, unless it exits 0. */
export async function runOk(
  command: string,
  args: string[],
  input?: string | Buffer,
): Promise<string> {
  const result = await run(command, args, { input })
  if (result.code !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.code}\n${result.stderr}\n${result.stdout}`,
    )
  }
  return result.stdout
}

export function openssl(args: string[], input?: string | Buffer): Promise<string> {
  return runOk('openssl', args, input)
}

/** A temporary folder for one test file's artefacts. */
export interface TempDir {
  dir: string
  /** Writes bytes (never re-encoded) under `name` and returns the full path. */
  write(name: string, content: Buffer | string): Promise<string>
  remove(): Promise<void>
}

export async function makeTempDir(prefix: string): Promise<TempDir> {
  const dir = await mkdtemp(path.join(tmpdir(), `${prefix}-`))
  return {
    dir,
    async write(name, content) {
      const file = path.join(dir, name)
      await writeFile(file, content)
      return file
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  }
}

export interface PemBlock {
  /** The label between BEGIN and END, e.g. `CERTIFICATE`, `PRIVATE KEY`. */
  label: string
  /** The whole block including its BEGIN and END lines, newline-terminated. */
  pem: string
}

/** Splits a PEM text into its blocks, in order. */
export function splitPemBlocks(text: string): PemBlock[] {
  const pattern = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g
  return [...text.matchAll(pattern)].map((match) => ({
    label: match[1] as string,
    pem: `${match[0]}\n`,
  }))
}

/** Facts openssl reads from one PEM or DER certificate file. */
export interface X509Facts {
  subject: string
  issuer: string
  serial: string
  /** SHA-256 fingerprint, upper-case hex with colons, as openssl prints it. */
  fingerprint: string
}

export async function readX509(file: string, inform: 'PEM' | 'DER' = 'PEM'): Promise<X509Facts> {
  const out = await openssl([
    'x509',
    '-inform',
    inform,
    '-in',
    file,
    '-noout',
    '-subject',
    '-issuer',
    '-serial',
    '-fingerprint',
    '-sha256',
    '-nameopt',
    'RFC2253',
  ])
  const field = (name: string) => {
    const match = new RegExp(`^${name}=(.*)$`, 'mi').exec(out)
    if (!match) throw new Error(`openssl x509 printed no ${name}:\n${out}`)
    return (match[1] as string).trim()
  }
  return {
    subject: field('subject'),
    issuer: field('issuer'),
    serial: field('serial'),
    fingerprint: field('sha256 Fingerprint'),
  }
}

/** The public key (SPKI PEM) of a certificate file, to compare with a private key's. */
export function certificatePublicKey(file: string, inform: 'PEM' | 'DER' = 'PEM'): Promise<string> {
  return openssl(['x509', '-inform', inform, '-in', file, '-noout', '-pubkey'])
}

/** The public key (SPKI PEM) derived from a private key file; throws if the key does not parse. */
export function privateKeyPublicKey(file: string, passphrase?: string): Promise<string> {
  const args = ['pkey', '-in', file, '-pubout']
  if (passphrase !== undefined) args.push('-passin', `pass:${passphrase}`)
  return openssl(args)
}

/**
 * openssl's arguments for a new unencrypted EC P-256 key: generated in milliseconds, where RSA
 * would take the test's time.
 */
export const NEW_EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes']

/**
 * A fresh self-signed certificate and its key, made by openssl (not by the sandbox);
 * `subjectAltName` is openssl's form, e.g. `IP:127.0.0.1`.
 */
export async function makeSelfSigned(
  temp: TempDir,
  commonName: string,
  options: { subjectAltName?: string } = {},
): Promise<{ certificatePem: string; privateKeyPem: string }> {
  const base = commonName.replace(/[^a-z0-9]+/gi, '-')
  const keyFile = path.join(temp.dir, `${base}.key`)
  const certFile = path.join(temp.dir, `${base}.crt`)
  await openssl([
    'req',
    '-x509',
    ...NEW_EC_KEY,
    '-keyout',
    keyFile,
    '-out',
    certFile,
    '-days',
    '30',
    '-subj',
    `/CN=${commonName}`,
    ...(options.subjectAltName === undefined
      ? []
      : ['-addext', `subjectAltName=${options.subjectAltName}`]),
  ])
  return {
    certificatePem: await readFile(certFile, 'utf8'),
    privateKeyPem: await readFile(keyFile, 'utf8'),
  }
}

/** `keytool -list -v` of a keystore; throws unless keytool accepts the store and password. */
export function keytoolList(file: string, storePassword: string): Promise<string> {
  return runOk('keytool', ['-list', '-v', '-keystore', file, '-storepass', storePassword])
}

/** `tar -tzf`: the entry names of a gzip-compressed tar archive. */
export async function tarList(file: string): Promise<string[]> {
  const out = await runOk('tar', ['-tzf', file])
  return out.split('\n').filter((line) => line !== '')
}

export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex')
}
