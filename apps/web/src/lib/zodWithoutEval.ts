import { config } from 'zod'

// Each zod object schema decides when it is built whether to compile its parser with
// `new Function`, probing once with `new Function('')`. Under the server's Content-Security-Policy
// (`script-src 'self'`, no 'unsafe-eval') that probe is a reported violation even though zod
// catches it. `jitless` skips probe and compiler; it must be set before the contracts' schemas are
// built, so main.tsx imports this module first.
config({ jitless: true })
