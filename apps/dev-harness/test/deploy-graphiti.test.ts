// deploy/graphiti/ (issue 28 item 10): the Compose files parse and keep the rules their README
// promises — pinned image tags, ports on 127.0.0.1 only, the LLM key from the environment, the
// graph in a named volume, and the faces where graphiti-client looks for them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isMcpEndpointUrl } from '@graphiti-memory/graphiti-client';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { packageFolder } from './hook-server-fixture.js';

const folder = path.resolve(packageFolder, '..', '..', 'deploy', 'graphiti');

interface Service {
  image?: string;
  ports?: string[];
  environment?: string[];
  volumes?: string[];
  healthcheck?: { test: string[] };
}
interface Compose {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

const compose = (file: string) => load(readFileSync(path.join(folder, file), 'utf8')) as Compose;
const variable = (service: Service, name: string) => service.environment?.find((entry) => entry.startsWith(`${name}=`))?.slice(name.length + 1);

const faces = [
  { file: 'compose.rest.yml', graphiti: 'graphiti', image: /^zepai\/graphiti:/, hostPort: '8000', endpoint: 'http://127.0.0.1:8000', health: '/healthcheck' },
  { file: 'compose.mcp.yml', graphiti: 'graphiti-mcp', image: /^zepai\/knowledge-graph-mcp:/, hostPort: '8001', endpoint: 'http://127.0.0.1:8001/mcp/', health: '/health' },
] as const;

describe.each(faces)('deploy/graphiti/$file', (face) => {
  const file = compose(face.file);

  it('pins every image to a tag (never latest)', () => {
    for (const [name, service] of Object.entries(file.services)) {
      const tag = /^[^:@]+:([^:@]+)$/.exec(service.image ?? '')?.[1];
      expect(tag, `${name}: ${service.image}`).toBeDefined();
      expect(tag).not.toBe('latest');
    }
    expect(file.services[face.graphiti]?.image).toMatch(face.image);
    expect(file.services['falkordb']?.image).toMatch(/^falkordb\/falkordb:/);
  });

  it('publishes ports on 127.0.0.1 only, Graphiti on the port its README names', () => {
    const ports = Object.values(file.services).flatMap((service) => service.ports ?? []);
    expect(ports.length).toBeGreaterThan(0);
    for (const port of ports) expect(port).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
    expect(file.services[face.graphiti]?.ports).toEqual([`127.0.0.1:${face.hostPort}:8000`]);
    expect(readFileSync(path.join(folder, 'README.md'), 'utf8')).toContain(face.endpoint);
  });

  it('takes the LLM key from the environment, required, and holds no key', () => {
    expect(variable(file.services[face.graphiti] ?? {}, 'OPENAI_API_KEY')).toMatch(/^\$\{OPENAI_API_KEY:\?.+\}$/);
    expect(readFileSync(path.join(folder, face.file), 'utf8')).not.toMatch(/sk-[A-Za-z0-9]/);
  });

  it('keeps the graph in a named volume at FalkorDB\'s data folder', () => {
    const mounts = file.services['falkordb']?.volumes ?? [];
    expect(mounts).toEqual(['graph:/var/lib/falkordb/data']);
    expect(Object.keys(file.volumes ?? {})).toEqual(['graph']);
  });

  it('serves the face where graphiti-client looks for it', () => {
    // REST at the root, MCP's Streamable HTTP at /mcp/ (graphiti-client tells them apart by that path).
    expect(isMcpEndpointUrl(face.endpoint)).toBe(face.file === 'compose.mcp.yml');
    expect(file.services[face.graphiti]?.healthcheck?.test.join(' ')).toContain(`localhost:8000${face.health}`);
  });
});

describe('the MCP server\'s default group', () => {
  it('is a valid Graphiti group id and never one of the client\'s (gm_<scope>_…)', () => {
    const group = variable(compose('compose.mcp.yml').services['graphiti-mcp'] ?? {}, 'GRAPHITI_GROUP_ID');
    expect(group).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(group?.startsWith('gm_')).toBe(false);
  });
});
