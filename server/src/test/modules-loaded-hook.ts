import fs from 'node:fs';
import { registerHooks } from 'node:module';

// Preloaded into a server under test (`--import`): appends the URL of every module it loads to the
// file named by MODULES_LOADED_FILE, so that a test can tell which libraries a server has loaded.
const file = process.env.MODULES_LOADED_FILE!;
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    fs.appendFileSync(file, `${resolved.url}\n`);
    return resolved;
  },
});
