// A GraphitiApi that records every add-messages request in the audit log before sending it, so
// ingestion and promotion are audited without knowing about it. Only metadata is recorded.
import type { AddMessagesRequest, Result } from '@graphiti-memory/graphiti-client';
import { APP_NAME } from '../mapping/turn-mapping.js';
import type { GraphitiApi, GraphitiCallOptions, GraphitiConnection } from '../ports.js';
import type { AuditEntry, AuditLog } from './audit-log.js';

const REDACTION_MARKER = /\[REDACTED:[^\]\s]*\]/g;
const PROMOTION_PREFIX = `${APP_NAME}.promotion.`;
const encoder = new TextEncoder();

export interface AuditTarget {
  /** The endpoint as shown to the user; never with credentials. */
  readonly endpoint: string;
  /** The route recorded for add-messages (`POST /messages`; an MCP backend names its tool). */
  readonly route?: string;
  readonly now?: () => number;
}

export class AuditedGraphitiApi implements GraphitiApi {
  constructor(
    private readonly inner: GraphitiApi,
    private readonly log: AuditLog,
    private readonly target: AuditTarget,
  ) {}

  healthcheck(options?: GraphitiCallOptions) {
    return this.inner.healthcheck(options);
  }

  addMessages(request: AddMessagesRequest, options?: GraphitiCallOptions): Promise<Result> {
    try {
      this.log.record(auditEntryOf(request, this.target));
    } catch {
      // The audit log must never stop delivery; its implementations do not throw anyway.
    }
    return this.inner.addMessages(request, options);
  }

  search(...args: Parameters<GraphitiApi['search']>) {
    return this.inner.search(...args);
  }

  getEpisodes(...args: Parameters<GraphitiApi['getEpisodes']>) {
    return this.inner.getEpisodes(...args);
  }

  deleteEpisode(...args: Parameters<GraphitiApi['deleteEpisode']>) {
    return this.inner.deleteEpisode(...args);
  }

  deleteGroup(...args: Parameters<GraphitiApi['deleteGroup']>) {
    return this.inner.deleteGroup(...args);
  }
}

/** The audit record of one add-messages request: sizes and names, never content. */
export function auditEntryOf(request: AddMessagesRequest, target: AuditTarget): AuditEntry {
  const names = request.messages.map((message) => message.name ?? '');
  let redactions = 0;
  for (const message of request.messages) redactions += message.content.match(REDACTION_MARKER)?.length ?? 0;
  return {
    at: new Date(target.now?.() ?? Date.now()).toISOString(),
    endpoint: target.endpoint,
    route: target.route ?? 'POST /messages',
    groupId: request.group_id,
    episodeNames: names,
    bytes: encoder.encode(JSON.stringify(request)).length,
    redactions,
    kind: names.length > 0 && names.every((name) => name.startsWith(PROMOTION_PREFIX)) ? 'promotion' : 'messages',
  };
}

/** `connection` with every API it hands out audited; the same wrapper while the API is the same. */
export function auditedConnection(connection: GraphitiConnection, log: AuditLog, target: AuditTarget): GraphitiConnection {
  let last: { inner: GraphitiApi; audited: GraphitiApi } | undefined;
  return {
    current() {
      const inner = connection.current();
      if (inner === undefined) return undefined;
      if (last?.inner !== inner) last = { inner, audited: new AuditedGraphitiApi(inner, log, target) };
      return last.audited;
    },
  };
}
