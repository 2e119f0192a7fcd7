// Issue 13 in the real VS Code: consent per data category and forgetting the workspace with its sessions.
const vscode = require('vscode');
const { assert, control, waitFor } = require('./harness.js');

/** Waits for the consent dialog about a category switched on after consent, checks it, and answers it. */
async function answerCategoryDialog(pattern, button = 'Allow') {
  await control('POST /ui/text', { selector: '.monaco-dialog-box', state: 'visible', timeoutMs: 15_000 });
  const { texts } = await control('POST /ui/text', { selector: '.monaco-dialog-box' });
  const text = texts.join(' ');
  assert.match(text, /also send/i, `the dialog does not ask about the new category: ${text}`);
  assert.match(text, pattern, `the dialog does not name the category: ${text}`);
  await control('POST /ui/click-button', { name: button, exact: true });
  return text;
}

const OF_WORKSPACE = /^gm_(session|workspace)_/;

const forgetWorkspace = {
  name: '9 Forget Workspace Memory leaves no group of this workspace on the emulator, sessions included',
  fn: async () => {
    const groupsOfWorkspace = async () =>
      [...new Set((await control('GET /emulator/episodes')).map((episode) => episode.group_id))].filter((group) => OF_WORKSPACE.test(group));
    // The turns captured before are processed into a session group and the workspace group.
    const before = await waitFor(
      'episodes in a session group and the workspace group',
      async () => {
        const groups = await groupsOfWorkspace();
        return groups.some((group) => group.startsWith('gm_session_')) && groups.some((group) => group.startsWith('gm_workspace_')) ? groups : undefined;
      },
      30_000,
      500,
    );
    const pending = vscode.commands.executeCommand('graphitiMemory.forgetWorkspace');
    await control('POST /ui/text', { selector: '.monaco-dialog-box', state: 'visible', timeoutMs: 15_000 });
    const { texts } = await control('POST /ui/text', { selector: '.monaco-dialog-box' });
    assert.match(texts.join(' '), /chat sessions included/, `the confirmation does not say sessions are included: ${texts.join(' ')}`);
    await control('POST /ui/click-button', { name: 'Forget', exact: true });
    const result = await pending;
    assert.equal(result?.ok, true, JSON.stringify(result));
    for (const group of before) assert.ok(result.deletedGroups.includes(group), `group ${group} was not forgotten: ${JSON.stringify(result)}`);
    assert.ok(result.deletedGroups.some((group) => group.startsWith('gm_session_')), 'no session group was forgotten');
    // Nothing of the workspace comes back later either (nothing queued is re-sent).
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    assert.deepEqual(await groupsOfWorkspace(), [], 'groups of this workspace are still on the emulator');
  },
};

module.exports = { answerCategoryDialog, forgetWorkspace };
