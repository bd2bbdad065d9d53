import type { Page } from 'playwright-core'

// What a phone screen cuts, read from the page's layout: one check for every screen walked at 390 px.

/**
 * What a reader of a phone screen would see cut: a text clipped by its own box, a box running past
 * the edge of an ancestor that hides overflow (one that scrolls on purpose is left alone), a
 * placeholder wider than its field, and a word broken across two lines (where words are spaced).
 */
export async function cutTexts(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const found = []
    const name = (element) => element.tagName.toLowerCase() +
      (element.dataset.testid ? '[' + element.dataset.testid + ']' : '') +
      '.' + [...element.classList].join('.') + ' "' + (element.textContent || '').trim().slice(0, 30) + '"'
    const hides = (style) => ['hidden', 'clip'].includes(style.overflowX)
    for (const element of document.querySelectorAll('.app-main *')) {
      const box = element.getBoundingClientRect()
      if (box.width === 0 || box.height === 0) continue
      const style = getComputedStyle(element)
      if (style.visibility === 'hidden' || style.position === 'fixed' || element.closest('.visually-hidden')) continue
      if (element.children.length === 0 && element.scrollWidth > element.clientWidth + 1 &&
          (hides(style) || style.textOverflow === 'ellipsis'))
        found.push('clipped ' + name(element))
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        const parentStyle = getComputedStyle(parent)
        if (['auto', 'scroll'].includes(parentStyle.overflowX)) break
        if (!hides(parentStyle)) continue
        const edge = parent.getBoundingClientRect()
        if (box.right > edge.right + 1 || box.left < edge.left - 1) found.push('cut by ' + name(parent) + ': ' + name(element))
        break
      }
    }
    const canvas = document.createElement('canvas').getContext('2d')
    for (const input of document.querySelectorAll('.app-main input[placeholder]')) {
      if (input.value || input.offsetWidth === 0) continue
      const style = getComputedStyle(input)
      canvas.font = [style.fontStyle, style.fontWeight, style.fontSize, style.fontFamily].join(' ')
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
      if (canvas.measureText(input.placeholder).width > room + 1) found.push('placeholder cut: ' + input.placeholder + ' (' + Math.ceil(canvas.measureText(input.placeholder).width) + ' px in ' + room + ')')
    }
    // a panel's tab past the edge of its row is hidden in the row's scroll: nothing shows it is there.
    // A .tab-strip (coins, expiries, market tabs) scrolls on purpose: its half-shown tab says there is more
    for (const tab of document.querySelectorAll('.app-main [role=tab]')) {
      const strip = tab.closest('[role=tablist]')
      if (!strip || strip.matches('.tab-strip') || tab.offsetWidth === 0) continue
      const box = tab.getBoundingClientRect()
      const edge = strip.getBoundingClientRect()
      if (box.right > edge.right + 1 || box.left < edge.left - 1) found.push('tab past its strip: ' + name(tab))
    }
    const walker = document.createTreeWalker(document.querySelector('.app-main'), NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.parentElement || node.parentElement.closest('.visually-hidden, svg, canvas')) continue
      for (const match of node.data.matchAll(/[^\\s\\-‐]{2,}/gu)) {
        if (/[\\u3000-\\u9fff\\uac00-\\ud7af\\u0e00-\\u0e7f]/u.test(match[0])) continue
        const range = document.createRange()
        range.setStart(node, match.index)
        range.setEnd(node, match.index + match[0].length)
        const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)))
        if (lines.size > 1) found.push('word broken: ' + match[0])
      }
    }
    return found
  })()`)
}
