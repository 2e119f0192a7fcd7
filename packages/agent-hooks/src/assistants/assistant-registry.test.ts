import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HANDLER_EVENTS } from './assistant-descriptor.js';
import { descriptorProblems } from './assistant-completeness.js';
import { claudeCode } from './claude-code.js';
import { AGENT_HOOK_TARGETS, ASSISTANTS, assistantDescriptor, assistantOfCommandLine, handlerOfEvent } from './assistant-registry.js';

describe('the assistant registry', () => {
  it.each(ASSISTANTS.map((assistant) => [assistant.target, assistant] as const))('%s: its descriptor says everything', (_target, assistant) => {
    expect(descriptorProblems(assistant)).toEqual([]);
  });

  it('fails a descriptor that lacks a field, or a field of its parts', () => {
    const claude = assistantDescriptor('claude');
    const { transcript: _transcript, ...withoutTranscript } = claude;
    expect(descriptorProblems(withoutTranscript)).toEqual(['lacks transcript']);
    const { lastReply: _lastReply, ...inputWithoutReply } = claude.input;
    expect(descriptorProblems({ ...claude, input: inputWithoutReply })).toEqual(['input lacks lastReply']);
    const { SessionEnd: _end, ...threeEvents } = claude.events;
    expect(descriptorProblems({ ...claude, events: threeEvents })).toEqual(['events lacks SessionEnd']);
    expect(descriptorProblems({ ...claude, events: { ...claude.events, Stop: null } })).toEqual(['events must name session start, prompt and turn end (only the session end may be null)']);
    expect(descriptorProblems({ ...claude, output: { ...claude.output, shape: 'xml' } })).toEqual(['output shape must be one of hook-specific, flat']);
    expect(descriptorProblems({ ...claude, detection: { homeFolders: [], homeFolderPrefixes: [], commands: [] } })).toEqual(['detection must name a home folder or a command']);
    const { entry: _entry, ...mcpWithoutEntry } = claudeCode.mcp;
    expect(descriptorProblems({ ...claude, mcp: mcpWithoutEntry })).toEqual(['mcp lacks entry']);
    expect(descriptorProblems({ ...claude, mcp: null })).toEqual([]);
  });

  it('has one descriptor per target, and each maps its own event names onto our handlers', () => {
    expect(new Set(AGENT_HOOK_TARGETS).size).toBe(ASSISTANTS.length);
    for (const assistant of ASSISTANTS) {
      for (const event of HANDLER_EVENTS) {
        const name = assistant.events[event];
        if (name !== null) expect(handlerOfEvent(assistant, name)).toBe(event);
      }
    }
  });

  it('reads lines that name no assistant as Claude Code\'s, and refuses a name no assistant has', () => {
    expect(assistantOfCommandLine(undefined)?.target).toBe('claude');
    expect(assistantOfCommandLine('copilot')?.target).toBe('copilot');
    expect(assistantOfCommandLine('nobody')).toBeUndefined();
  });

  it('keeps Claude Code and Copilot in VS Code where they were', () => {
    expect(assistantDescriptor('claude').hookFile.path('/home/me', {})).toBe(path.join('/home/me', '.claude', 'settings.json'));
    expect(assistantDescriptor('copilot').hookFile.path('/home/me', {})).toBe(path.join('/home/me', '.copilot', 'hooks', 'graphiti-memory.json'));
  });
});
