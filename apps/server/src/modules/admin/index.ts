// What the rest of the server uses of the admin module.
export { addAdmin, isAdmin, recordAdminAudit, removeAdmin, type AdminAuditEntry } from './service';
export { registerAdmin } from './routes';
