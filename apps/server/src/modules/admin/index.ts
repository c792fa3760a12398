// What the rest of the server uses of the admin module.
export { isAdmin, recordAdminAudit, type AdminAuditEntry } from './service';
export { registerAdmin } from './routes';
