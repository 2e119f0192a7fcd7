// The demo's scripted conversation: two sessions a week apart in one workspace, with a decision,
// a preference, memory directives, a fact that a later session contradicts, and a credential
// pasted into chat that must never leave the machine.
import type { ChatTurn } from '@graphiti-memory/memory-core';

export const DEMO_SESSIONS = { first: 'demo-session-1', second: 'demo-session-2' } as const;

/**
 * A made-up credential of a real token shape (a GitHub personal access token), so the secret guard
 * recognises it. It grants nothing; the demo checks it never reaches the server.
 */
export const DEMO_SECRET = ['ghp', '_', 'R8n2Kq7Lm4Xw9Tz3Vb6Pc1Hd5Jf0Ys8Ga2Ue'].join('');

function turn(sessionId: string, id: string, at: string, user: string, assistant: string): ChatTurn {
  const userTime = new Date(at);
  const answerTime = new Date(userTime.getTime() + 20_000);
  return {
    id,
    sessionId,
    participant: 'demo',
    user: { text: user, timestamp: userTime.toISOString() },
    assistant: { text: assistant, timestamp: answerTime.toISOString() },
  };
}

export const DEMO_FIRST_SESSION: readonly ChatTurn[] = [
  turn(
    DEMO_SESSIONS.first,
    'turn-1',
    '2025-03-03T09:00:00Z',
    'Let us set up the monorepo. The team uses npm for installs.',
    'Done. The build runs through turbo with a remote cache.',
  ),
  turn(
    DEMO_SESSIONS.first,
    'turn-2',
    '2025-03-03T09:05:00Z',
    'preference (user): Answers should be short and name the files they touch.',
    'Understood. Short answers that name the files.',
  ),
  turn(
    DEMO_SESSIONS.first,
    'turn-3',
    '2025-03-03T09:10:00Z',
    `The release script fails. Here is my token so you can try it: ${DEMO_SECRET}`,
    'Please do not paste tokens into chat. The release script needs the token in the GITHUB_TOKEN environment variable.',
  ),
];

export const DEMO_SECOND_SESSION: readonly ChatTurn[] = [
  turn(
    DEMO_SESSIONS.second,
    'turn-4',
    '2025-03-10T14:00:00Z',
    'Small update for the record. The team switched to pnpm instead of npm.',
    'Noted. Installs now run with pnpm.',
  ),
  turn(
    DEMO_SESSIONS.second,
    'turn-5',
    '2025-03-10T14:05:00Z',
    'decision (workspace): Releases are cut from the main branch only.',
    'Recorded: releases come from main only.',
  ),
];

/** What the demo asks memory afterwards, and the words a good answer holds. */
export const DEMO_QUERY = 'which package manager does the team use for installs, npm or pnpm';
/** The current fact (from the second session) recall must find. */
export const CURRENT_FACT_PATTERN = /switched to pnpm/i;
/** The contradicted fact (from the first session) that must not be presented as current. */
export const SUPERSEDED_FACT_PATTERN = /uses npm for installs/i;
