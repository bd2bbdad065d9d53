/**
 * The gateway's own multipart parser (as it was at commit df9bcc2, read from git) beside
 * @fastify/busboy (what @fastify/multipart runs) and beside what replaced ours, busboy's splitter with
 * the gateway's checks on top (gateway/src/api/multipart.ts), on the same uploads:
 * `npx tsx loadtests/bench/multipart-parsers.ts` from the repository root.
 *
 * Each parser runs in a child process of its own, so its peak RSS is its own. All are fed the same
 * bodies in the same 64 KiB chunks a socket delivers, ten uploads interleaved as ten connections would
 * send them, and all end holding what the gateway must hold until the upstream has the upload: the
 * image's bytes and the text fields. Our old parser gets each body in one buffer of its declared length
 * (the cheapest way to give it the whole body) and splits it there; busboy splits the chunks as they
 * come and the image's slices are kept. Figures: CPU per upload (the event-loop time an upload costs)
 * and the child's peak RSS over its idle start.
 */
import { execFileSync, fork } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { fileURLToPath, pathToFileURL } from 'node:url'
import Busboy from '@fastify/busboy'
import { readMultipart } from '../../gateway/src/api/multipart'

const BOUNDARY = '----parsercompare'
const UPLOADS_AT_ONCE = 10
const ROUNDS = 30
const CHUNK = 64 * 1024
const IMAGE_BYTES = 5 * 1024 * 1024 - 4096

type ParserName = 'ours (df9bcc2)' | 'busboy' | 'busboy splitter + our checks'
/** the commit whose multipart.ts was the gateway's own parser */
const OLD_PARSER_COMMIT = 'df9bcc2'
const LIMITS = {
  parts: 24,
  files: 4,
  fileBytes: 5 * 1024 * 1024,
  textPartBytes: 16 * 1024,
  bodyBytes: 6 * 1024 * 1024,
}

type OldParse = (
  body: Buffer,
  boundary: string,
  limits: typeof LIMITS,
) => Array<{ kind: string; content?: Buffer }>

/** Our old parser, written out from git beside the gateway's sources so its imports resolve. */
async function oldParser(): Promise<OldParse> {
  const root = execFileSync('git', ['rev-parse', '--show-toplevel']).toString().trim()
  const source = execFileSync('git', ['show', `${OLD_PARSER_COMMIT}:gateway/src/api/multipart.ts`], {
    cwd: root,
  })
  const dir = mkdtempSync(path.join(root, 'gateway', 'src', 'api', '.old-multipart-'))
  const file = path.join(dir, 'multipart.ts')
  writeFileSync(file, source.toString().replaceAll("from '../lib/errors'", "from '../../lib/errors'"))
  try {
    return ((await import(pathToFileURL(file).href)) as { parseMultipart: OldParse }).parseMultipart
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function uploadBody(): Buffer {
  const image = Buffer.alloc(IMAGE_BYTES)
  // bytes that look like a boundary's start now and then, as compressed image data does
  for (let i = 0; i < image.length; i++) image[i] = (i * 2654435761) >>> 24
  const text = (name: string, value: string) =>
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
  return Buffer.concat([
    text('type', 'idCardFront'),
    text('note', 'front side, taken today'),
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="front.jpg"\r\n` +
        'Content-Type: image/jpeg\r\n\r\n',
    ),
    image,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ])
}

/** What an upload leaves held: the image's bytes and the decoded text fields. */
interface Held {
  imageBytes: number
  fields: number
}

/** Our old parser: chunks copied into one buffer of the declared length, split once whole. */
function oldUpload(parseMultipart: OldParse, length: number) {
  const body = Buffer.allocUnsafeSlow(length)
  let filled = 0
  return {
    write(chunk: Buffer) {
      chunk.copy(body, filled)
      filled += chunk.length
    },
    end(): Held {
      const parts = parseMultipart(body, BOUNDARY, LIMITS)
      let imageBytes = 0
      for (const part of parts) if (part.kind === 'binary') imageBytes += part.content!.length
      return { imageBytes, fields: parts.length - 1 }
    },
  }
}

/** busboy's way: the chunks split as they come, the image's slices kept until the end. */
function busboyUpload() {
  const parser = Busboy({
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    limits: { fileSize: 5 * 1024 * 1024, parts: 24, files: 4, fieldSize: 16 * 1024 },
  })
  const image: Buffer[] = []
  let fields = 0
  parser.on('file', (_name, stream) => stream.on('data', (slice: Buffer) => image.push(slice)))
  parser.on('field', () => fields++)
  return {
    write(chunk: Buffer) {
      parser.write(chunk)
    },
    end(): Promise<Held> {
      return new Promise((resolve, reject) => {
        parser.once('error', reject)
        parser.once('finish', () =>
          resolve({ imageBytes: image.reduce((sum, slice) => sum + slice.length, 0), fields }),
        )
        parser.end()
      })
    },
  }
}

/** What replaced ours: busboy's splitter as the gateway runs it, with the gateway's checks on top. */
function adoptedUpload() {
  const stream = new PassThrough()
  let held = 0
  const parts = readMultipart(stream, BOUNDARY, LIMITS, (bytes) => (held += bytes))
  return {
    write(chunk: Buffer) {
      stream.write(chunk)
    },
    async end(): Promise<Held> {
      stream.end()
      const read = await parts
      let imageBytes = 0
      for (const part of read)
        if (part.kind === 'binary') imageBytes += part.content.reduce((sum, piece) => sum + piece.length, 0)
      return { imageBytes: held > 0 ? imageBytes : 0, fields: read.length - 1 }
    },
  }
}

async function runChild(parser: ParserName): Promise<void> {
  const parseOld = parser === 'ours (df9bcc2)' ? await oldParser() : undefined
  const body = uploadBody()
  const rssStart = process.memoryUsage().rss
  const cpuStart = process.cpuUsage()
  let imageBytes = 0
  for (let round = 0; round < ROUNDS; round++) {
    const uploads = Array.from({ length: UPLOADS_AT_ONCE }, () =>
      parseOld ? oldUpload(parseOld, body.length) : parser === 'busboy' ? busboyUpload() : adoptedUpload(),
    )
    // each chunk a fresh buffer, as each socket read is
    for (let offset = 0; offset < body.length; offset += CHUNK)
      for (const upload of uploads) upload.write(Buffer.from(body.subarray(offset, offset + CHUNK)))
    const held = await Promise.all(uploads.map((upload) => upload.end()))
    imageBytes += held.reduce((sum, one) => sum + one.imageBytes, 0)
    // let the timers and GC of a real server run between bursts
    await new Promise((resolve) => setImmediate(resolve))
  }
  const cpu = process.cpuUsage(cpuStart)
  const uploads = ROUNDS * UPLOADS_AT_ONCE
  process.send!({
    parser,
    uploads,
    imageBytesOk: imageBytes === uploads * IMAGE_BYTES,
    cpuMsPerUpload: (cpu.user + cpu.system) / 1000 / uploads,
    peakRssOverStartMb: (process.resourceUsage().maxRSS * 1024 - rssStart) / 2 ** 20,
  })
}

if (process.argv[2] === '--child') {
  await runChild(process.argv[3] as ParserName)
} else {
  const file = fileURLToPath(import.meta.url)
  const results: unknown[] = []
  const parsers: ParserName[] = ['ours (df9bcc2)', 'busboy', 'busboy splitter + our checks']
  // each parser twice, alternating, so a busy moment of the machine shows as disagreement
  for (const parser of [...parsers, ...parsers]) {
    const child = fork(file, ['--child', parser], { execArgv: ['--import', 'tsx'] })
    results.push(await new Promise((resolve) => child.once('message', resolve)))
    child.kill()
  }
  console.table(results)
}
