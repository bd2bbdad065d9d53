import { formatPercent, mul } from '@tradegate/shared'

/** A rate sent as a fraction (0.0015) shown as a percent with two decimals (0.15). */
export function ratePercent(fraction: unknown): string {
  return formatPercent(mul(fraction, 100))
}
