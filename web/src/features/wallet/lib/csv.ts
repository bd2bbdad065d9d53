/** One CSV line per row, RFC 4180 quoting, so any spreadsheet opens it. */
export function toCsv(rows: ReadonlyArray<readonly string[]>): string {
  return rows.map((row) => row.map(quoteCell).join(',')).join('\r\n') + '\r\n'
}

function quoteCell(cell: string): string {
  // a leading = + - @ would run as a formula in a spreadsheet; a quote-led cell is text
  const safe = /^[=+@\t\r]/.test(cell) || (/^-/.test(cell) && !/^-\d/.test(cell)) ? `'${cell}` : cell
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

/** Hands the text to the browser as a file download. */
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  // the byte order mark makes spreadsheet programs read the file as UTF-8
  const url = URL.createObjectURL(new Blob(['\ufeff', text], { type }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}
