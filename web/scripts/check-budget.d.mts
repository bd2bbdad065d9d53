export const HOME_BUDGET_BYTES: number
export const HOME_SCREEN_SOURCE: string
export interface ManifestChunk {
  file: string
  isEntry?: boolean
  imports?: string[]
  dynamicImports?: string[]
}
export function staticClosure(manifest: Record<string, ManifestChunk>, roots: string[]): string[]
export function measureHomeRoute(
  distDir: string,
): Promise<{ files: { file: string; gzip: number }[]; total: number }>
