// Renders the app icons (PNG, for the web manifest and iOS) from the two SVGs, in Debian's Chromium.
// Run by hand after changing an SVG: node scripts/render-icons.mjs
import { readFileSync } from 'node:fs'
import { chromium } from 'playwright-core'

const publicDir = new URL('../public/', import.meta.url)
const ICONS = [
  { svg: 'favicon.svg', size: 192, out: 'icons/icon-192.png' },
  { svg: 'favicon.svg', size: 512, out: 'icons/icon-512.png' },
  { svg: 'icons/maskable.svg', size: 512, out: 'icons/maskable-512.png' },
  { svg: 'icons/maskable.svg', size: 180, out: 'icons/apple-touch-icon.png' },
]

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] })
for (const { svg, size, out } of ICONS) {
  const page = await browser.newPage({ viewport: { width: size, height: size } })
  const markup = readFileSync(new URL(svg, publicDir), 'utf8')
  await page.setContent(
    `<style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${markup}`,
  )
  await page.screenshot({ path: new URL(out, publicDir).pathname, omitBackground: true })
  await page.close()
}
await browser.close()
