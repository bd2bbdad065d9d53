export function freePort(): Promise<number>
export function freePortWithCompanion(offset: number): Promise<number>
