import { customType, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** PostgreSQL `bytea`, as a Buffer on both drivers (PGlite answers a Uint8Array). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Uploaded logos, in the database rather than on a disk (issue 26): every instance on the same
 * database serves every logo, with no shared volume. Named by the SHA-256 of their bytes
 * (`<hash>.png|jpg|webp`), stored once; `last_used_at` is the last upload of the same image, what
 * the unused-logo sweep ages them by. A logo is at most a few hundred KB (512 px, re-encoded).
 */
export const uploadedLogos = pgTable(
  'uploaded_logos',
  {
    name: text('name').primaryKey(),
    contentType: text('content_type').notNull(),
    bytes: bytea('bytes').notNull(),
    size: integer('size').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('uploaded_logos_last_used_idx').on(t.lastUsedAt)],
);
