import { parentPort } from 'node:worker_threads';
import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * Reads zxcvbn's list of common passwords and sends it back folded, sorted and joined by newlines,
 * then ends: the package's module (its compressed source, its word lists) goes with this thread.
 */
const folded = new Set((dictionary['passwords-common'] as string[]).map((word) => word.toLowerCase()));
parentPort!.postMessage([...folded].sort().join('\n'));
