import { dictionary } from '@zxcvbn-ts/language-common';
import { describe, expect, it } from 'vitest';
import { assertUncommonPassword } from './password-rules.ts';

const listed = dictionary['passwords-common'] as string[];

describe('the common passwords', () => {
  it('refuses every password of the list, whatever its case', { timeout: 30_000 }, async () => {
    const accepted: string[] = [];
    for (const password of listed) {
      for (const asTyped of [password, password.toUpperCase()]) {
        if (await assertUncommonPassword(asTyped).then(() => true, () => false)) accepted.push(asTyped);
      }
    }
    expect(accepted).toEqual([]);
  });

  it('takes a password beside one of the list, and one before or after every one of them', async () => {
    const folded = new Set(listed.map((word) => word.toLowerCase()));
    const sorted = [...folded].sort();
    const beside = [`${sorted[0]}!`, ` ${sorted[0]}`, '\u0000', `${sorted.at(-1)}~`, '\uffff', 'correct horse battery staple'];
    for (const password of beside) expect(folded.has(password)).toBe(false);
    for (const password of beside) await expect(assertUncommonPassword(password)).resolves.toBeUndefined();
    await expect(assertUncommonPassword('Password1')).rejects.toThrow('password: is one of the most common passwords; choose another');
  });
});
