import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import {
  renameWalletSchema,
  WALLET_NAME_MAX,
  WALLETS_NOTIFICATION_MS,
  type WalletSummary,
} from '@ledgerpad/shared';
import { FormErrors, TextField } from '../../components/form-field';
import { Modal, SubmitActions } from '../../components/modal';
import { apiPut, userMessage } from '../../lib/api';
import { schemaResolver } from '../../lib/form-resolver';
import { MESSAGES } from './messages';

/** Rename (PUT /api/wallets/{id}/name); an empty name is the spec's 'Please fill in all fields.'. */
export function RenameWalletModal({
  wallet,
  onClose,
  onRenamed,
}: {
  wallet: { id: number; wallet_name: string | null };
  onClose: () => void;
  onRenamed: () => void;
}) {
  const errorId = useId();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ name: string }>({
    resolver: schemaResolver(renameWalletSchema) as never,
    defaultValues: { name: wallet.wallet_name ?? '' },
  });
  const rename = useMutation({
    mutationFn: (name: string) => apiPut<WalletSummary>(`/api/wallets/${wallet.id}/name`, { name }),
    onSuccess: () => {
      toast.success('Wallet renamed', { duration: WALLETS_NOTIFICATION_MS });
      onRenamed();
      onClose();
    },
  });

  return (
    <Modal
      open
      onOpenChange={(open) => !open && !rename.isPending && onClose()}
      dismissible={!rename.isPending}
      title="Rename wallet"
    >
      <form className="form" onSubmit={(e) => void handleSubmit((v) => rename.mutate(v.name))(e)} noValidate>
        <TextField
          label="Name"
          autoComplete="off"
          maxLength={WALLET_NAME_MAX}
          invalid={Boolean(errors.name)}
          errorId={errorId}
          autoFocus
          {...register('name')}
        />
        <FormErrors
          id={errorId}
          messages={[
            errors.name?.message,
            rename.isError ? userMessage(rename.error, MESSAGES.renameFailed) : undefined,
          ]}
        />
        <SubmitActions onCancel={onClose} label="Save" pending={rename.isPending} />
      </form>
    </Modal>
  );
}
