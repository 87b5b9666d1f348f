import { openssl } from './tools'

/** `openssl pkcs12` on an archive sealed with `passphrase`, with `flags` saying what to print. */
export function readPkcs12(file: string, passphrase: string, ...flags: string[]): Promise<string> {
  return openssl(['pkcs12', '-in', file, '-passin', `pass:${passphrase}`, ...flags])
}
