// The personalities live in shared code: the app's web mode and desk name them too.
export { isSandboxFlavor, SANDBOX_FLAVORS } from '../shared/sandbox-flavor'
export type { SandboxFlavor } from '../shared/sandbox-flavor'
