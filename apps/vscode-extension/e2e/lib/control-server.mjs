// The bridge between the tests running inside VS Code's extension host and this runner: the tests
// ask, over loopback HTTP, for what only the runner can do (read the emulator's request log, inject
// faults, read what the scripted Copilot model received, click a button of a modal dialog in the
// browser, take a screenshot) and report results.
import http from 'node:http';

/**
 * @param {{ emulator: any, model?: any, page: () => any, artifactsDirectory: string, screenshotsDirectory?: string, onReport: (report: any) => void, onDone: (outcome: any) => void }} options
 */
export async function startControlServer({ emulator, model, page, artifactsDirectory, screenshotsDirectory, onReport, onDone }) {
  const needModel = () => {
    if (!model) throw new Error('this session has no scripted Copilot model (set copilot: true on the session in run.mjs)');
    return model;
  };
  const routes = {
    // Every chat completion request body Copilot sent to the scripted model, oldest first.
    'GET /model/requests': () => needModel().chatRequests(),
    'GET /model/info': () => ({ url: needModel().url, model: needModel().model }),
    'GET /emulator/requests': () =>
      emulator.requests.map((request) => ({ method: request.method, path: request.path, body: request.body, status: request.status })),
    'POST /emulator/reset': () => {
      emulator.clearRequests();
      emulator.setFaults({});
      return { ok: true };
    },
    'POST /emulator/faults': (body) => {
      emulator.setFaults(body ?? {});
      return { ok: true };
    },
    'GET /emulator/episodes': () => emulator.state.episodes(),
    'GET /emulator/facts': () => emulator.state.facts(),
    'POST /ui/click-button': async (body) => {
      // `pattern`: a regular expression for buttons whose title differs by VS Code version or place.
      const name = typeof body.pattern === 'string' ? new RegExp(body.pattern) : body.name;
      const button = page().getByRole('button', { name, exact: body.exact ?? false }).first();
      await button.waitFor({ state: 'visible', timeout: body.timeoutMs ?? 15_000 });
      await button.click();
      return { ok: true };
    },
    // Runs a command from the palette as a user does: F1, its title, Enter once the command's row is
    // the focused one (the list filters as it is typed; Enter runs whichever row is focused), into the
    // palette's input (not whatever holds the focus), then waits for the palette to take it.
    'POST /ui/run-command': async (body) => {
      const current = page();
      await current.keyboard.press('F1');
      const input = current.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(`>${body.title}`);
      const focused = current.locator('.quick-input-list .monaco-list-row.focused');
      await focused.filter({ hasText: body.title }).first().waitFor({ timeout: 10_000 }).catch(async () => {
        throw new Error(`the palette's focused row is not "${body.title}" but ${JSON.stringify(await focused.allInnerTexts())}`);
      });
      await input.press('Enter');
      await waitUntilChanged(input, `>${body.title}`, `the palette did not run "${body.title}"`);
      return { ok: true };
    },
    'POST /ui/pick': async (body) => {
      const current = page();
      const row = current.locator('.quick-input-list .monaco-list-row', { hasText: body.label }).first();
      await row.waitFor({ state: 'visible', timeout: body.timeoutMs ?? 10_000 });
      await row.click();
      return { ok: true };
    },
    'POST /ui/text': async (body) => {
      const locator = page().locator(body.selector);
      await locator.first().waitFor({ state: body.state ?? 'attached', timeout: body.timeoutMs ?? 10_000 }).catch(() => undefined);
      return { texts: await locator.allInnerTexts() };
    },
    'POST /ui/screenshot': async (body) => {
      // The main screens go to the screenshots folder (kept as CI artifacts); failures beside the logs.
      const name = String(body.name).replace(/[^a-z0-9-]/gi, '_');
      const folder = name.startsWith('failed-') || screenshotsDirectory === undefined ? artifactsDirectory : screenshotsDirectory;
      const file = `${folder}/${name}.png`;
      await page().screenshot({ path: file });
      return { file };
    },
    // How many elements match (with `hasText`, only those containing it): attributes such as
    // aria-checked are part of the selector.
    'POST /ui/count': async (body) => {
      const locator = page().locator(body.selector, body.hasText === undefined ? {} : { hasText: body.hasText });
      return { count: await locator.count() };
    },
    // Attributes of each element that matches (`names`), e.g. the checked state of walkthrough steps.
    'POST /ui/attributes': async (body) =>
      page()
        .locator(body.selector)
        .evaluateAll((elements, names) => elements.map((element) => Object.fromEntries(names.map((name) => [name, element.getAttribute(name)]))), body.names),
    // Clicks an element of the workbench (the status item: `.statusbar-item` with its text).
    'POST /ui/click': async (body) => {
      // Inline actions of a tree row show on hover only: `hover` names the row, `selector` is then inside it.
      const scope = body.hover ? page().locator(body.hover.selector, { hasText: body.hover.hasText }).first() : page();
      if (body.hover) await scope.hover({ timeout: body.timeoutMs ?? 10_000 });
      const locator = scope.locator(body.selector, body.hasText === undefined ? {} : { hasText: body.hasText }).first();
      await locator.waitFor({ state: body.force ? 'attached' : 'visible', timeout: body.timeoutMs ?? 10_000 });
      await locator.click({ force: body.force ?? false });
      return { ok: true };
    },
    // Types into the open quick input (an input box or a quick pick) and accepts it; with `title`,
    // once the input showing that title is open (the palette's own input is the same widget). The
    // text is checked before Enter, Enter goes to that input, and the input must then close: an input
    // box that lost the keyboard focus closes without accepting (its command gets nothing), which is
    // said here rather than left to show as a missing result later.
    'POST /ui/type': async (body) => {
      const timeout = body.timeoutMs ?? 10_000;
      const title = page().locator('.quick-input-widget .quick-input-title', { hasText: body.title ?? '' }).first();
      if (body.title) await title.waitFor({ state: 'visible', timeout });
      const input = page().locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout });
      await input.fill(body.text);
      const state = await input.evaluate((element) => ({ value: element.value, focused: element === element.ownerDocument.activeElement }));
      if (state.value !== body.text || !state.focused || !(await input.isVisible())) {
        throw new Error(`the input${body.title ? ` "${body.title}"` : ''} was not ready to accept: value ${JSON.stringify(state.value)}, focused ${state.focused}, visible ${await input.isVisible()}`);
      }
      await input.press('Enter');
      if (body.title) {
        await title.waitFor({ state: 'hidden', timeout }).catch(() => {
          throw new Error(`the input "${body.title}" is still open after Enter`);
        });
      }
      return { ok: true };
    },
    'POST /ui/press': async (body) => {
      await page().keyboard.press(body.key);
      return { ok: true };
    },
    'POST /done': (body) => {
      onDone(body);
      return { ok: true };
    },
    'POST /report': (body) => {
      onReport(body);
      return { ok: true };
    },
  };

  /** Waits until `input` no longer holds `value` (the quick input moved on) or is hidden. */
  async function waitUntilChanged(input, value, failure) {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (!(await input.isVisible()) || (await input.inputValue()) !== value) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(failure);
  }

  const server = http.createServer(async (request, response) => {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const raw = Buffer.concat(chunks).toString('utf8');
    const route = routes[`${request.method} ${new URL(request.url ?? '/', 'http://x').pathname}`];
    try {
      if (!route) throw new Error(`no route ${request.method} ${request.url}`);
      const result = await route(raw ? JSON.parse(raw) : undefined);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result ?? null));
    } catch (error) {
      response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(error?.message ?? error) }));
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}
