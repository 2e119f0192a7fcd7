// Where the clients run: in a network namespace of their own with only loopback (`unshare -n`, then
// `ip link set lo up`), so nothing but 127.0.0.1 is reachable — the run re-starts itself in it once
// the pinned installs are in place. Where that cannot be had (not root, no user namespaces, no
// `ip`), the run goes on with every outside host unreachable by configuration only: the clients'
// proxy variables point at a closed loopback port, and their own settings switch off updates,
// telemetry and plugin sync. The run says which of the two it is.
import { spawn, spawnSync } from 'node:child_process';
import os from 'node:os';

/** Set in the environment of the run re-started inside the namespace. */
export const INSIDE_NAMESPACE = 'GRAPHITI_AGENTS_E2E_NETNS';

const BRING_LOOPBACK_UP = 'ip link set lo up && exec "$0" "$@"';

/** Why the run cannot have a loopback-only namespace here, or `undefined` when it can. */
export function namespaceUnavailable(): string | undefined {
  if (process.platform !== 'linux') return `${process.platform} has no network namespaces`;
  const probe = spawnSync('unshare', ['-n', 'sh', '-c', 'ip link set lo up'], { encoding: 'utf8', timeout: 10_000 });
  if (probe.error !== undefined) return `'unshare' could not be started (${probe.error.message})`;
  if (probe.status !== 0) return `'unshare -n sh -c "ip link set lo up"' failed (exit ${probe.status ?? probe.signal}): ${probe.stderr.trim().slice(0, 200)}`;
  return undefined;
}

/** Runs this script again inside a new network namespace with loopback up; resolves to its exit code. */
export function rerunInNamespace(script: string, args: readonly string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn('unshare', ['-n', 'sh', '-c', BRING_LOOPBACK_UP, process.execPath, script, ...args], {
      stdio: 'inherit',
      env: { ...process.env, [INSIDE_NAMESPACE]: '1' },
    });
    child.once('error', () => resolve(1));
    child.once('close', (status) => resolve(status ?? 1));
  });
}

/** The network interfaces this process sees (inside the namespace: `lo` only). */
export function interfaceNames(): string[] {
  return Object.keys(os.networkInterfaces()).sort();
}

/** Proxy variables that send any outside request to a closed loopback port (the fallback). */
const CLOSED_PORT = 'http://127.0.0.1:9';
export const UNREACHABLE_PROXY_ENVIRONMENT: Readonly<Record<string, string>> = {
  HTTP_PROXY: CLOSED_PORT,
  HTTPS_PROXY: CLOSED_PORT,
  ALL_PROXY: CLOSED_PORT,
  http_proxy: CLOSED_PORT,
  https_proxy: CLOSED_PORT,
  all_proxy: CLOSED_PORT,
  // The scripted model and the emulator are on loopback.
  NO_PROXY: '127.0.0.1,localhost',
  no_proxy: '127.0.0.1,localhost',
};
