/** Graphiti's group-id rule; a bad id kills the worker, fails `/search` and empties `/episodes`. */
export const GROUP_ID_PATTERN = /^[a-zA-Z0-9_-]+$/;

export function isValidGroupId(groupId: string): boolean {
  return GROUP_ID_PATTERN.test(groupId);
}
