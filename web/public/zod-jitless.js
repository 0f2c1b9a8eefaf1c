// Zod probes whether it may compile validators with `new Function`; the Content Security Policy
// refuses (no 'unsafe-eval') and the browser reports a violation. Told to stay jitless, it never asks.
globalThis.__zod_globalConfig = { jitless: true };
