import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { ADMIN_MESSAGES, OWNER_USER_ID, adminUserSchema, type AdminView } from '@ledgerpad/shared';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { userMessage } from '../../lib/api';
import { requestResolver } from '../../lib/form-resolver';
import { addAdmin, removeAdmin, useAdmins } from './api';
import { adminKeys } from './keys';

const adminName = (a: AdminView) => a.username ?? a.email ?? `User ${a.user_id}`;

/** The admins: add by user id, remove with a confirm; the owner (user id 1) is locked. */
export function AdminsTab() {
  const queryClient = useQueryClient();
  const admins = useAdmins();
  // The server's own check of the id ('Enter valid user ID' for '', 'abc', '0x10', ...), on the trimmed text.
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<{ userId: string }>({
    resolver: requestResolver(adminUserSchema, (v) => ({ userId: v.userId.trim() })),
    defaultValues: { userId: '' },
  });
  const [adding, setAdding] = useState(false);
  /** The server's refusal; cleared when the id is edited. */
  const [failure, setFailure] = useState('');
  const invalid = errors.userId?.message;
  const addError = invalid ?? failure;
  const [removing, setRemoving] = useState<AdminView | null>(null);
  const [removeBusy, setRemoveBusy] = useState(false);
  const [removeError, setRemoveError] = useState('');

  const saved = (list: AdminView[]) => {
    queryClient.setQueryData(adminKeys.admins(), list);
    void queryClient.invalidateQueries({ queryKey: adminKeys.audit() });
  };

  const onAdd = async (values: { userId: string }) => {
    const id = values.userId.trim();
    setAdding(true);
    setFailure('');
    try {
      saved(await addAdmin(Number(id)));
      reset();
      toast.success(`User ${id} is now an admin`);
    } catch (err) {
      setFailure(userMessage(err, ADMIN_MESSAGES.addAdminFailed, { lead: true }));
    } finally {
      setAdding(false);
    }
  };

  const onRemove = async () => {
    if (!removing) return;
    setRemoveBusy(true);
    setRemoveError('');
    try {
      saved(await removeAdmin(removing.user_id));
      toast.success(`${adminName(removing)} is no longer an admin`);
      setRemoving(null);
    } catch (err) {
      setRemoveError(userMessage(err, ADMIN_MESSAGES.removeAdminFailed, { lead: true }));
    } finally {
      setRemoveBusy(false);
    }
  };

  return (
    <div className="admin-stack">
      <section className="panel" aria-labelledby="admin-add-heading">
        <h2 id="admin-add-heading">Add an admin</h2>
        <form className="admin-inline-form" onSubmit={(e) => void handleSubmit(onAdd)(e)} noValidate>
          <label className="field">
            <span className="field-label">User ID</span>
            <input
              className="input"
              inputMode="numeric"
              aria-invalid={invalid ? true : undefined}
              {...register('userId', { onChange: () => setFailure('') })}
              disabled={adding}
            />
          </label>
          <button type="submit" disabled={adding}>
            {adding ? 'Adding…' : 'Add admin'}
          </button>
        </form>
        {addError && (
          <p className="form-error" role="alert">
            {addError}
          </p>
        )}
      </section>

      <section className="panel" aria-labelledby="admin-list-heading">
        <h2 id="admin-list-heading">Admins</h2>
        {admins.isPending ? (
          <p className="muted" aria-busy="true">
            Loading admins…
          </p>
        ) : admins.isError ? (
          <p className="form-error" role="alert">
            Failed to load the admins.
          </p>
        ) : (
          <ul className="admin-list">
            {admins.data.map((a) => (
              <li key={a.user_id} className="admin-list-row">
                <div className="admin-list-who">
                  <strong>{adminName(a)}</strong>
                  <span className="muted">
                    #{a.user_id}
                    {a.email && a.username ? ` · ${a.email}` : ''} · since{' '}
                    {new Date(a.created_at).toLocaleDateString()}
                  </span>
                </div>
                {a.user_id === OWNER_USER_ID ? (
                  <span className="admin-lock" title={ADMIN_MESSAGES.ownerLocked}>
                    <span role="img" aria-label="Owner, locked">
                      🔒
                    </span>{' '}
                    Owner
                  </span>
                ) : (
                  <button
                    type="button"
                    className="btn-danger"
                    onClick={() => {
                      setRemoveError('');
                      setRemoving(a);
                    }}
                  >
                    Remove
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>

      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open && !removeBusy) setRemoving(null);
        }}
        title="Remove admin"
        confirmLabel="Remove"
        busyLabel="Removing…"
        busy={removeBusy}
        error={removeError}
        danger
        onConfirm={() => void onRemove()}
      >
        <p>
          Remove {removing ? adminName(removing) : ''} (user #{removing?.user_id}) from the admins? They lose
          access to this page at once.
        </p>
      </ConfirmDialog>
    </div>
  );
}
