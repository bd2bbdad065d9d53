import type { Page } from 'playwright-core'

// What a screen cuts, read from the page's layout: one check for every screen walked, phone or desktop.

/**
 * What a reader of a phone screen would see cut: a text clipped by its own box, a box running past
 * the edge of an ancestor that hides overflow (one that scrolls on purpose is left alone), a
 * placeholder wider than its field, and a word broken across two lines (where words are spaced; an
 * address, a hash or an e-mail, which has a digit or an @, breaks where it must).
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
      // the placeholder's own font, which a field may set smaller than what is typed; the room is the
      // field's inside less the field's padding (the placeholder has none of its own)
      const style = getComputedStyle(input, '::placeholder')
      const field = getComputedStyle(input)
      canvas.font = [style.fontStyle, style.fontWeight, style.fontSize, style.fontFamily].join(' ')
      const room = input.clientWidth - parseFloat(field.paddingLeft) - parseFloat(field.paddingRight)
      if (canvas.measureText(input.placeholder).width > room + 1) found.push('placeholder cut: ' + input.placeholder + ' (' + Math.ceil(canvas.measureText(input.placeholder).width) + ' px in ' + room + ')')
    }
    // a tab past the edge of its row is hidden in the row's scroll: on a phone the option coins and
    // expiries past the screen's edge sat there, and nothing said they were. Only a row marked
    // [data-scrolls] scrolls on purpose
    for (const tab of document.querySelectorAll('.app-main [role=tab]')) {
      const strip = tab.closest('[role=tablist]')
      if (!strip || strip.matches('[data-scrolls]') || tab.offsetWidth === 0) continue
      const box = tab.getBoundingClientRect()
      const edge = strip.getBoundingClientRect()
      if (box.right > edge.right + 1 || box.left < edge.left - 1) found.push('tab past its strip: ' + name(tab))
    }
    const walker = document.createTreeWalker(document.querySelector('.app-main'), NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.parentElement || node.parentElement.closest('.visually-hidden, svg, canvas')) continue
      for (const match of node.data.matchAll(/[^\\s\\-‐]{2,}/gu)) {
        if (/[\\u3000-\\u9fff\\uac00-\\ud7af\\u0e00-\\u0e7f]/u.test(match[0])) continue
        // an address, a hash or an e-mail is no word of a language: it breaks where it must
        if (/[0-9@]/u.test(match[0])) continue
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

/**
 * Languages whose words the browser may hyphenate (`hyphens: auto`): those Chromium ships a
 * hyphenation dictionary for. Elsewhere an automatic break has no syllable rules to follow.
 */
export const HYPHENATED_LANGUAGES: readonly string[] = ['da', 'de', 'en', 'es', 'fr', 'it', 'pt', 'ru']

/**
 * What a reader sees of the controls: the chosen text of every select (measured in the select's own
 * font against its content box less the arrow), every link and button whose text runs out of its
 * box, every link or button that is not wholly on the screen (a choice in a strip that scrolls may
 * show half, a link may not), and text set to hyphenate in a language the browser has no
 * hyphenation rules for, or on a page whose lang is not `language`.
 */
export async function cutControls(page: Page, language: string): Promise<string[]> {
  return page.evaluate(
    `((language, hyphenated) => {
    const found = []
    const name = (element) => element.tagName.toLowerCase() +
      (element.dataset.testid ? '[' + element.dataset.testid + ']' : '') +
      (element.name ? '[name=' + element.name + ']' : '') + ' "' + (element.textContent || '').trim().slice(0, 30) + '"'
    if (document.documentElement.lang !== language) found.push('page lang ' + document.documentElement.lang + ', not ' + language)
    const shown = (element) => {
      const box = element.getBoundingClientRect()
      const style = getComputedStyle(element)
      return box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && !element.closest('.visually-hidden')
    }
    // the room Chromium's native select keeps for its arrow at the inline end
    const ARROW = 20
    const canvas = document.createElement('canvas').getContext('2d')
    for (const select of document.querySelectorAll('.app-main select')) {
      if (!shown(select) || select.selectedIndex < 0) continue
      const style = getComputedStyle(select)
      canvas.font = [style.fontStyle, style.fontWeight, style.fontSize, style.fontFamily].join(' ')
      const text = select.options[select.selectedIndex].text
      const needs = Math.ceil(canvas.measureText(text).width)
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) -
        (style.appearance === 'none' ? 0 : ARROW)
      if (needs > room + 1) found.push('select cut: ' + name(select) + ' shows "' + text + '" (' + needs + ' px in ' + Math.floor(room) + ')')
    }
    const width = document.documentElement.clientWidth
    for (const control of document.querySelectorAll('.app-main a, .app-main button, .app-main [role=button]')) {
      if (!shown(control)) continue
      const box = control.getBoundingClientRect()
      const choice = control.hasAttribute('aria-pressed') || control.getAttribute('role') === 'tab'
      const scroller = control.parentElement.closest('[data-scrolls]')
      if ((box.left < -1 || box.right > width + 1) && !(choice && scroller))
        found.push('control off the screen: ' + name(control) + ' (' + Math.round(box.left) + '…' + Math.round(box.right) + ' of ' + width + ')')
      const range = document.createRange()
      range.selectNodeContents(control)
      const text = range.getBoundingClientRect()
      if (text.width > 0 && (text.left < box.left - 1 || text.right > box.right + 1))
        found.push('text out of its control: ' + name(control) + ' (' + Math.ceil(text.width) + ' px in ' + Math.floor(box.width) + ')')
    }
    if (!hyphenated.includes(language))
      for (const element of document.querySelectorAll('.app-main *')) {
        if (element.children.length || !(element.textContent || '').trim() || !shown(element)) continue
        if (getComputedStyle(element).hyphens === 'auto') { found.push('hyphens: auto in ' + language + ': ' + name(element)); break }
      }
    return found
  })(${JSON.stringify(language)}, ${JSON.stringify(HYPHENATED_LANGUAGES)})`,
  )
}

/**
 * What of a list's rows is not wholly on the screen: any shown element (a cell, a name, a figure, a
 * button, a select) or run of text whose box leaves the viewport. A select's chosen text is judged
 * against its own box by cutControls, so a select on the screen shows its text on the screen too.
 */
export function offScreen(page: Page, testId: string): Promise<string[]> {
  return page.evaluate(
    `((testId) => {
    const list = document.querySelector('[data-testid="' + testId + '"]')
    if (!list) return ['no list ' + testId]
    const width = window.innerWidth
    const found = []
    const name = (element) => element.tagName.toLowerCase() +
      (element.dataset.testid ? '[' + element.dataset.testid + ']' : '') + ' "' + (element.textContent || '').trim().slice(0, 30) + '"'
    const outside = (box) => box.left < 0 || box.right > width
    const where = (box) => ' (' + Math.round(box.left) + '…' + Math.round(box.right) + ' of ' + width + ')'
    const shown = (element) => {
      const box = element.getBoundingClientRect()
      return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden'
    }
    for (const element of list.querySelectorAll('tbody *')) {
      if (!shown(element)) continue
      const box = element.getBoundingClientRect()
      if (outside(box)) found.push('off the screen: ' + name(element) + where(box))
    }
    const walker = document.createTreeWalker(list.querySelector('tbody'), NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.data.trim() || !shown(node.parentElement)) continue
      const range = document.createRange()
      range.selectNodeContents(node)
      for (const box of range.getClientRects())
        if (box.width > 0 && outside(box)) found.push('text off the screen: "' + node.data.trim() + '"' + where(box))
    }
    return found
  })(${JSON.stringify(testId)})`,
  )
}

/**
 * Words of a right-to-left page set left to right: text in Arabic script whose nearest isolating
 * element is forced `ltr` (a `.num`), where the words land on the wrong side of their figures and a
 * label turns the digits after it into Arabic numbers ("(%0.03)" for "(0.03%)").
 */
export async function wordsSetLeftToRight(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    if (document.documentElement.dir !== 'rtl') return []
    const found = new Set()
    const walker = document.createTreeWalker(document.querySelector('.app-main') || document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!/[\\u0600-\\u06FF]/.test(node.data)) continue
      let element = node.parentElement
      while (element && getComputedStyle(element).unicodeBidi === 'normal') element = element.parentElement
      if (!element || getComputedStyle(element).direction !== 'ltr') continue
      found.add('words set left to right: ' + element.tagName.toLowerCase() + '.' + [...element.classList].join('.') +
        ' "' + (element.textContent || '').trim().slice(0, 40) + '"')
    }
    return [...found]
  })()`)
}

/** Everything a reader of a phone screen would see wrong: cut texts, cut controls, misordered words. */
export async function readerProblems(page: Page, language: string): Promise<string[]> {
  return [
    ...(await cutTexts(page)),
    ...(await cutControls(page, language)),
    ...(await wordsSetLeftToRight(page)),
  ]
}
