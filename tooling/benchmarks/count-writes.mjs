import net from 'node:net';
import { startEmulator } from '@graphiti-memory/graphiti-emulator';
import { GraphitiClient, GraphitiMcpClient } from '@graphiti-memory/graphiti-client';
const face = process.argv[2];
const emulator = await startEmulator({ processingDelayMs: 1, quiet: true, face });
const port = new URL(emulator.url).port;
let serverWrites = 0, serverBytes = 0;
const orig = net.Socket.prototype._writeGeneric;
net.Socket.prototype._writeGeneric = function (writev, data, encoding, cb) {
  if (String(this.localPort) === port) { serverWrites++; serverBytes += writev ? data.reduce((s, c) => s + (c.chunk ?? c).length, 0) : data.length; }
  return orig.call(this, writev, data, encoding, cb);
};
const client = face === 'mcp' ? new GraphitiMcpClient({ baseUrl: emulator.url }) : new GraphitiClient({ baseUrl: emulator.url });
for (let i = 0; i < 5; i++) await client.addMessages({ group_id: 'bench', messages: [{ name: 'x'+i, role: 'b', role_type: 'user', content: `pnpm turbo note ${i}` }] });
await new Promise(r => setTimeout(r, 500));
const body = { query: 'pnpm turbo', group_ids: ['bench'], max_facts: 10 };
await client.search(body);
serverWrites = 0; serverBytes = 0;
for (let i = 0; i < 200; i++) await Promise.all(Array.from({ length: 10 }, () => client.search(body)));
console.log(face, 'writes per call', serverWrites / 2000, 'bytes per call', serverBytes / 2000);
await client.close(); await emulator.close();
