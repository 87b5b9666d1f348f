import { z } from 'zod'
import type { WebEventFrame } from './web-protocol'

/*
 * The reading half of web mode's event framing (the writing half, encodeEventMessage, is in
 * web-protocol.ts): the renderer checks every frame the host pushes before it is dispatched.
 */

const webEventFrameSchema = z.object({
  event: z.string().min(1),
  payload: z.unknown(),
}) satisfies z.ZodType<WebEventFrame>

/** Reads an SSE message's `data`; null when it is not a well-formed frame. */
export function decodeEventFrame(data: string): WebEventFrame | null {
  let json: unknown
  try {
    json = JSON.parse(data)
  } catch {
    return null
  }
  const parsed = webEventFrameSchema.safeParse(json)
  return parsed.success ? parsed.data : null
}
