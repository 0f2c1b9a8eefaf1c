import fs from 'node:fs';
import { registerHooks } from 'node:module';
import { isMainThread } from 'node:worker_threads';

// Preloaded into a server under test (`--import`, which its threads run too): appends the URL of
// every module its main thread loads to the file named by MODULES_LOADED_FILE, so that a test can
// tell which libraries the server holds for as long as it runs.
const file = process.env.MODULES_LOADED_FILE!;
if (isMainThread) registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    fs.appendFileSync(file, `${resolved.url}\n`);
    return resolved;
  },
});
