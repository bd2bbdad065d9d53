import { describe, expect, it } from 'vitest'
import { toCsv } from './csv'

describe('toCsv', () => {
  it('writes one line per row and quotes what needs quoting', () => {
    expect(
      toCsv([
        ['time', 'type', 'amount'],
        ['11/23/2026 10:00:00', 'Deposit, on chain', '100'],
        ['11/23/2026 11:00:00', 'say "hi"', '-20.5'],
      ]),
    ).toBe(
      'time,type,amount\r\n11/23/2026 10:00:00,"Deposit, on chain",100\r\n11/23/2026 11:00:00,"say ""hi""",-20.5\r\n',
    )
  })

  it('keeps a cell that a spreadsheet would run as a formula as text, but leaves negative numbers alone', () => {
    expect(toCsv([['=SUM(A1)', '@cmd', '-x', '-5']])).toBe("'=SUM(A1),'@cmd,'-x,-5\r\n")
  })
})
