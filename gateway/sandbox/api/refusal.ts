/** A business request the sandbox refuses: answered with FAILURE_CODE and this key, nothing changed. */
export class Refusal extends Error {
  constructor(readonly key: string) {
    super(key)
  }
}

export function refuse(key: string): never {
  throw new Refusal(key)
}
