export { createVolumeArchive, VOLUME_ARCHIVE_ENTRIES } from './archive'
export type { CreateVolumeArchive, VolumeArchive, VolumeSpec } from './types'
