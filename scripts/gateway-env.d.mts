export const GATEWAY_PROCESS_ENV: Readonly<Record<string, string>>
export function gatewayProcessEnv(env?: Record<string, string | undefined>): Record<string, string>
