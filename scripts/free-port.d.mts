export const EPHEMERAL_START: number
export function freePort(): Promise<number>
export function freePortWithCompanion(offset: number): Promise<number>
