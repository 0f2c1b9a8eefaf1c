import path from 'node:path';

/**
 * Where the server runs from: its TypeScript sources in server/src (tests, `npm run dev`), or the
 * JavaScript built from them into dist/server/src (`npm start`, `npm run build`), which
 * Node loads without stripping types, work every thread of the server would otherwise repeat
 * (docs/runtime.md).
 */
const EXTENSION = path.extname(import.meta.filename);

/** The project's folder, the same from the sources and from dist/. */
export const PROJECT_ROOT = path.resolve(import.meta.dirname, EXTENSION === '.ts' ? '../..' : '../../..');

/** The extension of the server's own modules as it runs: `.ts` or `.js`. */
export const MODULE_EXTENSION = EXTENSION;

/** A module of the server beside `from` (an `import.meta.url`), named without its extension: a worker thread's file. */
export const moduleBeside = (from: string, name: string): URL => new URL(`${name}${EXTENSION}`, from);
