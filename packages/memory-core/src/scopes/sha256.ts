// SHA-256 through Web Crypto, available in Node 20+, browsers and VS Code's web host alike, so
// group ids are the same everywhere without importing `node:crypto`.

const encoder = new TextEncoder();

/** Lower-case hex SHA-256 of the UTF-8 bytes of `text`. */
export async function sha256Hex(text: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) {
    throw new Error(
      'sha256Hex: Web Crypto (globalThis.crypto.subtle) is not available in this runtime; run on Node 20+ or a browser with Web Crypto.',
    );
  }
  const digest = await subtle.digest('SHA-256', encoder.encode(text));
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
