/**
 * The audit log of what left the machine: the `AuditLog` port (`InMemoryAuditLog` for tests) and
 * `AuditedGraphitiApi` / `auditedConnection`, which record every add-messages and search request.
 */
export {
  AUDIT_TOOLS,
  auditEndpointKey,
  auditEntryFrom,
  AuditLog,
  digestWritersText,
  filterAuditEntries,
  InMemoryAuditLog,
  type AuditEntry,
  type AuditFace,
  type AuditQuery,
  type AuditTool,
} from './audit-log.js';
export { auditedConnection, AuditedGraphitiApi, auditEntryOf, searchAuditEntryOf, type AuditTarget } from './audited-graphiti-api.js';
