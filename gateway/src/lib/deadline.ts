/**
 * Settles as `work` does, or rejects with "no answer in <ms> ms" if `ms` pass first. The timer is
 * cleared either way and never keeps the process alive; `work` itself is left to finish unobserved.
 */
export async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms)
    timer.unref()
  })
  try {
    return await Promise.race([work, late])
  } finally {
    clearTimeout(timer)
  }
}
