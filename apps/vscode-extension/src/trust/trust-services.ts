// Issue 13's services as the extension binds them: every Graphiti API audited. The registry of
// written groups, pending memories and the audit log live in the shared state folder
// (trust-storage.ts); forget and review reach ingestion through memory-core's own bindings.
import { auditedConnection, type AuditLog, type GraphitiConnection, type MemoryConfiguration } from '@graphiti-memory/memory-core';

/** The connection with every add-messages and search request recorded in the audit log (metadata only). */
export function auditConnection(connection: GraphitiConnection, log: AuditLog, configuration: MemoryConfiguration): GraphitiConnection {
  return auditedConnection(connection, log, {
    tool: 'vscode-extension',
    get endpoint() {
      return configuration.current().endpoint;
    },
  });
}
