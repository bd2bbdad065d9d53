import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import fp from 'fastify-plugin'
import fastifyCompress from '@fastify/compress'
import { Negotiator } from '@fastify/accept-negotiator'
import { LRUCache } from 'lru-cache'

// API answers compressed by Accept-Encoding: brotli or gzip, above 1 KiB. Registered inside the API's own
// scopes, so pages keep their precompressed files and request bodies are never inflated.

export type AnswerEncoding = 'br' | 'gzip'

const ENCODINGS: AnswerEncoding[] = ['br', 'gzip']
/** below this an answer goes out as it is: the headers would cost more than the bytes saved */
export const COMPRESS_THRESHOLD_BYTES = 1024

export const compressPlugin = fp(
  async (app) => {
    await app.register(fastifyCompress, {
      encodings: ENCODINGS,
      threshold: COMPRESS_THRESHOLD_BYTES,
      // a compressed request body could inflate far past its route's body limit
      globalDecompression: false,
    })
  },
  { name: 'compress' },
)

// browsers send a handful of distinct Accept-Encoding values; bounded, since the header is the client's to choose
const negotiator = new Negotiator<AnswerEncoding>({
  supportedValues: ENCODINGS,
  cache: new LRUCache<string, string>({ max: 256 }),
})
const X_GZIP = /x-gzip/g

/** The encoding a client accepts for a stored answer, as @fastify/compress would choose it; null for none. */
export function acceptedEncoding(acceptEncoding: string | undefined): AnswerEncoding | null {
  if (!acceptEncoding) return null
  return negotiator.negotiate(acceptEncoding.toLowerCase().replace(X_GZIP, 'gzip'))
}

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/**
 * Both encodings of an answer that is stored and sent many times, made once in the thread pool. Brotli
 * quality 6 costs about what @fastify/compress's per-request quality 4 does; 10 and 11 save another 10–15%
 * for 13–40 times the CPU, too much for a coin list stored again every two seconds in each language.
 */
export async function encodeStoredAnswer(body: Buffer): Promise<Record<AnswerEncoding, Buffer> | null> {
  if (body.length < COMPRESS_THRESHOLD_BYTES) return null
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 6,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzipAsync(body, { level: 9 }),
  ])
  return { br, gzip: gz }
}
