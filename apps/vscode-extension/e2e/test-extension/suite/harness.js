// A tiny test runner for the extension host: runs tests in order, reports each result to the e2e
// runner's control server, and settles (which makes VS Code call codeAutomationExit) at the end.
const assert = require('node:assert/strict');

const controlUrl = process.env.GRAPHITI_E2E_CONTROL;
const emulatorUrl = process.env.GRAPHITI_E2E_EMULATOR;

async function control(route, body) {
  const [method, pathname] = route.split(' ');
  const response = await fetch(`${controlUrl}${pathname}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const result = await response.json();
  if (!response.ok) throw new Error(`control ${route} failed: ${result?.error}`);
  return result;
}

async function waitFor(description, probe, timeoutMs = 20_000, intervalMs = 250) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    last = await probe();
    if (last) return last;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for: ${description}`);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function runTests(tests) {
  if (!controlUrl) throw new Error('GRAPHITI_E2E_CONTROL is not set: run through e2e/run.mjs');
  let failed = 0;
  for (const { name, fn } of tests) {
    const started = Date.now();
    try {
      await fn();
      await control('POST /report', { name, ok: true, ms: Date.now() - started });
    } catch (error) {
      failed += 1;
      await control('POST /ui/screenshot', { name: `failed-${name}` }).catch(() => undefined);
      await control('POST /report', { name, ok: false, ms: Date.now() - started, error: String(error?.stack ?? error) });
    }
  }
  if (failed > 0) throw new Error(`${failed} e2e test(s) failed`);
}

module.exports = { assert, control, waitFor, sleep, runTests, emulatorUrl };
