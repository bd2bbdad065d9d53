import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { HOME_SCREEN_SOURCE, staticClosure } from '../../scripts/check-budget.mjs'
import { precompressDirectory } from '../../scripts/precompress.mjs'

const run = promisify(execFile)
const script = new URL('../../scripts/check-budget.mjs', import.meta.url).pathname
const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

async function tempDist(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'web-dist-'))
  dirs.push(dir)
  await mkdir(join(dir, '.vite'), { recursive: true })
  await mkdir(join(dir, 'assets'), { recursive: true })
  return dir
}

/** Random bytes do not compress, so the gzip size is close to the size written. */
const incompressible = (bytes: number) => randomBytes(bytes)

async function writeBuild(dir: string, entryBytes: number) {
  const manifest = {
    'index.html': {
      file: 'assets/index.js',
      isEntry: true,
      imports: ['_vendor.js'],
      dynamicImports: [HOME_SCREEN_SOURCE, 'src/chart.tsx'],
    },
    '_vendor.js': { file: 'assets/vendor.js' },
    [HOME_SCREEN_SOURCE]: { file: 'assets/home.js', imports: ['_vendor.js'] },
    'src/chart.tsx': { file: 'assets/chart.js' },
  }
  await writeFile(join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest))
  await writeFile(join(dir, 'assets', 'index.js'), incompressible(entryBytes))
  await writeFile(join(dir, 'assets', 'vendor.js'), incompressible(1000))
  await writeFile(join(dir, 'assets', 'home.js'), incompressible(1000))
  await writeFile(join(dir, 'assets', 'chart.js'), incompressible(400_000))
}

describe('check-budget', () => {
  it('counts the entry, the home screen and their static imports, never lazy chunks', () => {
    const manifest = {
      entry: { file: 'a.js', isEntry: true, imports: ['shared'], dynamicImports: ['lazy'] },
      shared: { file: 'b.js', imports: ['entry'] },
      lazy: { file: 'c.js' },
      [HOME_SCREEN_SOURCE]: { file: 'd.js', imports: ['shared'] },
    }
    expect(staticClosure(manifest, ['entry', HOME_SCREEN_SOURCE]).sort()).toEqual(['a.js', 'b.js', 'd.js'])
  })

  it('passes a build within the budget and fails one above it', async () => {
    const small = await tempDist()
    await writeBuild(small, 10_000)
    await expect(run('node', [script, small])).resolves.toMatchObject({
      stdout: expect.stringContaining('home route'),
    })

    const large = await tempDist()
    await writeBuild(large, 160 * 1024)
    await expect(run('node', [script, large])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('over budget'),
    })
  })
})

describe('precompress', () => {
  it('writes .br and .gz siblings that decompress to the original', async () => {
    const dir = await tempDist()
    const text = 'console.log("hello");'.repeat(200)
    await writeFile(join(dir, 'assets', 'app.js'), text)
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>x</title>')
    await writeFile(join(dir, 'assets', 'photo.png'), 'png bytes')
    expect(await precompressDirectory(dir)).toBe(2)
    expect(String(brotliDecompressSync(await readFile(join(dir, 'assets', 'app.js.br'))))).toBe(text)
    expect(String(gunzipSync(await readFile(join(dir, 'index.html.gz'))))).toContain('<title>x</title>')
    await expect(readFile(join(dir, 'assets', 'photo.png.br'))).rejects.toThrow()
  })
})
