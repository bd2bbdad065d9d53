import { describe, expect, it } from 'vitest'
import { Compile } from 'typebox/compile'
import { CALLS } from './calls'
import { NETWORK_RULES, checkAddress, withdrawalFee } from './withdrawal'

const TRON = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE'
const ETHEREUM = '0x52908400098527886E0F7030069857D2E4169EE7'
const BITCOIN = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'
const RIPPLE = 'rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh'

describe('checkAddress', () => {
  it('takes each network its own address format only', () => {
    expect(checkAddress('TRC20', TRON)).toBeNull()
    expect(checkAddress('TRC20', ETHEREUM)).toBe('addressNotForNetwork')
    expect(checkAddress('ERC20', ETHEREUM)).toBeNull()
    expect(checkAddress('ERC20', TRON)).toBe('addressNotForNetwork')
    expect(checkAddress('BTC', BITCOIN)).toBeNull()
    expect(checkAddress('BTC', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2')).toBeNull()
    expect(checkAddress('BTC', ETHEREUM)).toBe('addressNotForNetwork')
    // an unlisted network is held to the general pattern
    expect(checkAddress('SOMECHAIN', 'abcdefghijklmnop')).toBeNull()
    expect(checkAddress('SOMECHAIN', 'short')).toBe('addressNotForNetwork')
  })

  it('asks for a tag where the network needs one, and refuses one where it takes none', () => {
    expect(checkAddress('XRP', RIPPLE)).toBe('memoRequired')
    expect(checkAddress('XRP', RIPPLE, '12345')).toBeNull()
    expect(checkAddress('XRP', RIPPLE, 'abc')).toBe('badMemo')
    expect(checkAddress('TRC20', TRON, '12345')).toBe('memoNotUsed')
  })

  it('gives every listed network a valid example', () => {
    for (const [network, rule] of Object.entries(NETWORK_RULES)) {
      expect(checkAddress(network, rule.example, rule.memo?.required ? '1' : ''), network).toBeNull()
    }
  })
})

describe('the withdraw call schema', () => {
  const query = Compile(CALLS.withdrawSubmit.query)
  const withdraw = { coin: 'usdt', amount: '10', pwd: 'secret-pass' }
  it('refuses an address of another network, as the gateway validates with it', () => {
    expect(query.Check({ ...withdraw, chain: 'TRC20', address: TRON })).toBe(true)
    expect(query.Check({ ...withdraw, chain: 'TRC20', address: ETHEREUM })).toBe(false)
    expect(query.Check({ ...withdraw, chain: 'ERC20', address: ETHEREUM })).toBe(true)
    expect(query.Check({ ...withdraw, chain: 'BTC', address: TRON })).toBe(false)
  })
  it('requires the tag of a tag network and refuses a memo elsewhere', () => {
    expect(query.Check({ ...withdraw, coin: 'xrp', chain: 'XRP', address: RIPPLE })).toBe(false)
    expect(query.Check({ ...withdraw, coin: 'xrp', chain: 'XRP', address: RIPPLE, memo: '77' })).toBe(true)
    expect(query.Check({ ...withdraw, chain: 'TRC20', address: TRON, memo: '77' })).toBe(false)
  })
  it('holds the address book to the same formats', () => {
    const add = Compile(CALLS.addressBookAdd.body)
    expect(add.Check({ network: 'TRC20', address: TRON, label: 'Cold wallet' })).toBe(true)
    expect(add.Check({ network: 'TRC20', address: ETHEREUM, label: 'Cold wallet' })).toBe(false)
  })
})

describe('withdrawalFee', () => {
  it('is ratio percent of the amount cut down to the coin precision, and nothing while a free one is left', () => {
    expect(withdrawalFee('2580', '10', 0, 4).toFixed()).toBe('258')
    expect(withdrawalFee('0.123456789', '10', 0, 8).toFixed()).toBe('0.01234567')
    expect(withdrawalFee('33.33', '0.5', 0, 2).toFixed()).toBe('0.16')
    expect(withdrawalFee('2580', '10', 1, 4).toFixed()).toBe('0')
  })
})
