import { session } from 'electron'
import type { SystemProxyResolver } from '../net'

/*
 * The operating system's proxy settings (and PAC script), as Chromium reads them, for the
 * desk's connections (src/main/net asks only when neither the environment nor the profile
 * names a proxy). Thin on purpose: parsing the PAC-style answer is plain Node (net/proxy.ts).
 */
export function createSystemProxyResolver(): SystemProxyResolver {
  return {
    resolveProxy: (url) => session.defaultSession.resolveProxy(url),
  }
}
