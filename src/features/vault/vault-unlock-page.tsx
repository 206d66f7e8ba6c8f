import { useState } from 'react';
import { Alert, Button, Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useSetAtom } from 'jotai';
import { useLocation, useSearch } from 'wouter';
import { isApiError } from '@/api/client.ts';
import { describeError, errorKeyText, notifyError } from '@/api/error-messages.ts';
import { SmsCodeInput } from '@/components/sms-code-input.tsx';
import type { UserDto } from '../../../core/api-types.ts';
import { SMS_CODE_LENGTH } from '../../../core/constants.ts';
import { maskPhone } from '../../../core/masking.ts';
import { checkSmsCode } from '../../../core/validation.ts';
import { vaultAuthorizationAtom } from './vault-atom.ts';
import { sendVaultCode, unlockVault } from './vault-api.ts';
import { vaultReturnPath } from './use-vault-gate.ts';
import { NoCompany } from './vault-shell.tsx';

/**
 * /dashboard/vault/unlock (§2, §7 POST /vault/authorization): an SMS code to the member's
 * own phone opens the vault for a limited time; then back to the screen they came from.
 */
export function VaultUnlockPage({ user }: { user: UserDto }) {
  const { t, i18n } = useLingui();
  const search = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const setAuthorization = useSetAtom(vaultAuthorizationAtom);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const [hasNoCompany, setHasNoCompany] = useState(false);
  const isExpired = search.get('reason') === 'expired';
  const phone = maskPhone(user.phonenumber);

  const onUnlock = async (event: React.FormEvent) => {
    event.preventDefault();
    const rule = checkSmsCode(code);
    if (rule) {
      setCodeError(errorKeyText(rule, i18n));
      return;
    }
    setIsBusy(true);
    try {
      const auth = await unlockVault(user.phonenumber, code);
      setAuthorization(auth);
      navigate(vaultReturnPath(search.get('from')), { replace: true });
    } catch (error) {
      if (isApiError(error) && error.status === 403) setHasNoCompany(true);
      else if (isApiError(error) && error.kind === 'client' && error.fieldName === 'validation_code') setCodeError(describeError(error, i18n));
      else notifyError(error, i18n);
    } finally {
      setIsBusy(false);
    }
  };

  if (hasNoCompany) return <NoCompany />;
  return (
    <Center py={{ base: 'md', sm: 48 }}>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} w="100%" maw={460} component="form" onSubmit={onUnlock} noValidate>
        <Stack gap="md">
          <ThemeIcon size={48} radius="xl" variant="light">
            <IconLock size={26} />
          </ThemeIcon>
          <div>
            <Title order={1} size="h3">
              <Trans>Unlock the trade-secret vault</Trans>
            </Title>
            <Text c="dimmed" size="sm" mt={4}>
              <Trans>For your protection the vault opens only with a code sent to your own phone {phone}, and locks itself again after a while.</Trans>
            </Text>
          </div>
          {isExpired && (
            <Alert color="orange" variant="light" data-testid="vault-expired">
              {errorKeyText('vault_login_status_expired', i18n)}
            </Alert>
          )}
          <SmsCodeInput
            value={code}
            onChange={(value) => {
              setCode(value);
              setCodeError(null);
            }}
            error={codeError}
            label={t`SMS code sent to ${phone}`}
            onSend={async () => {
              await sendVaultCode();
              return true;
            }}
            onSendError={(error) => setCodeError(describeError(error, i18n))}
            sendTestId="vault-send-code"
          />
          <Button type="submit" loading={isBusy} disabled={code.length !== SMS_CODE_LENGTH} data-testid="vault-unlock">
            <Trans>Unlock</Trans>
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
