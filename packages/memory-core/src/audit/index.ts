/**
 * The audit log of what left the machine: the `AuditLog` port (`InMemoryAuditLog` for tests) and
 * `AuditedGraphitiApi` / `auditedConnection`, which record every add-messages request.
 */
export { AuditLog, filterAuditEntries, InMemoryAuditLog, type AuditEntry, type AuditQuery } from './audit-log.js';
export { auditedConnection, AuditedGraphitiApi, auditEntryOf, type AuditTarget } from './audited-graphiti-api.js';
