// The environment the gateway process starts with wherever it runs: the image (docker/Dockerfile's
// gateway stage, held equal to this by gateway/test/ops/docker-files.test.ts), `npm start` and the
// bench. A variable the operator sets wins.
//
// MALLOC_TRIM_THRESHOLD_: glibc hands freed memory at the top of a heap back to the system once 1 MiB of
// it is free. By default glibc raises that threshold after large frees, and the heap of V8's compiler
// thread, which compiles the upstream client's WebAssembly HTTP parser at the first upstream answer,
// then kept about 10 MiB in half of the gateway's starts (loadtests/LIFECYCLE.md, 2026-12-02, fourth
// session). Setting it also fixes the mmap threshold at its 128 KiB default.
export const GATEWAY_PROCESS_ENV = Object.freeze({ MALLOC_TRIM_THRESHOLD_: '1048576' })

/** GATEWAY_PROCESS_ENV without what `env` already sets. */
export function gatewayProcessEnv(env = process.env) {
  return Object.fromEntries(Object.entries(GATEWAY_PROCESS_ENV).filter(([key]) => env[key] === undefined))
}
