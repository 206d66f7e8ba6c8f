import { useState } from 'react';
import { FileButton, Button, Group, Text } from '@mantine/core';
import { IconCheck, IconUpload } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { IMAGE_MAX_BYTES } from '../../../core/constants.ts';
import { describeError } from '@/api/error-messages.ts';
import { uploadSmallFile } from './enterprise-api.ts';

/** One upload slot (§5): one file, under 3 MB; the server checks type by content. */
export function FileSlot({ label, accept, onUploaded, testId, disabled, onBlocked }: {
  label: string;
  accept: string;
  onUploaded: (id: string, file: File) => void;
  testId: string;
  disabled?: boolean;
  onBlocked?: () => void;
}) {
  const { t } = useLingui();
  const [fileName, setFileName] = useState('');
  const [error, setError] = useState('');
  const [isBusy, setBusy] = useState(false);
  const onPick = async (file: File | null) => {
    if (!file) return;
    setError('');
    if (file.size >= IMAGE_MAX_BYTES) {
      setError(t`File too large, the limit is 3M`);
      return;
    }
    setBusy(true);
    try {
      const id = await uploadSmallFile(file);
      setFileName(file.name);
      onUploaded(id, file);
    } catch (e) {
      setError(describeError(e) || t`Upload failed`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div>
      <Text size="sm" fw={500} mb={4}>
        {label}
      </Text>
      <Group gap="sm">
        <FileButton onChange={(f) => void onPick(f)} accept={accept} disabled={disabled} inputProps={{ 'data-testid': testId } as never}>
          {(props) => (
            <Button {...props} variant="default" leftSection={<IconUpload size={16} />} loading={isBusy} onClick={disabled ? onBlocked : props.onClick}>
              {fileName ? <Trans>Replace</Trans> : <Trans>Upload</Trans>}
            </Button>
          )}
        </FileButton>
        {fileName && (
          <Group gap={4}>
            <IconCheck size={16} color="var(--mantine-color-green-7)" />
            <Text size="sm">{fileName}</Text>
          </Group>
        )}
      </Group>
      {error && (
        <Text size="sm" c="red" mt={4} role="alert">
          {error}
        </Text>
      )}
    </div>
  );
}
