/** http_ece (the tests' Web Push decryption) ships no types: the one call the tests make. */
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';

  type DecryptParams = { version: 'aes128gcm'; privateKey: ECDH; authSecret: Buffer | string };
  const ece: { decrypt(buffer: Buffer, params: DecryptParams): Buffer };
  export default ece;
}
