import { useState } from 'react';
import { Alert, Button, Checkbox, Group, List, Loader, Modal, PasswordInput, Progress, Stack, Stepper, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertTriangle, IconDownload, IconKey } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { KeyStateDto } from '../../../core/enterprise-keys.ts';
import { KEY_PASSPHRASE_MIN, checkKeyPassphrase, passphraseStrength } from '../../../core/enterprise-keys.ts';
import { applyRuleVerdicts } from '@/components/form-rules.ts';
import { describeError, errorKeyText } from '@/api/error-messages.ts';
import { keysWorker } from '../../../workers/keys/keys-service.ts';
import { depositKey, fileSafe, keyErrorText, saveFile } from './enterprise-keys-api.ts';
import { CertificateView } from './certificate-view.tsx';

type Generated = { encryptedPrivateKeyPem: string; csrPem: string; depositSignature: string; publicKeySha256: string };

const STRENGTH_COLORS = ['red', 'red', 'orange', 'teal', 'green'];

/**
 * The key ceremony (docs/enterprise-keys.md): the super administrator chooses a key
 * passphrase; the keys worker makes a P-256 key, wraps it as an encrypted PKCS#8 PEM and
 * writes the CSR for the enterprise; the browser offers the PEM for backup; then the PEM,
 * the CSR and the deposit proof go to the platform, which issues the certificate.
 */
export function KeyCeremonyModal({
  opened,
  state,
  enterpriseId,
  enterpriseName,
  phone,
  onClose,
  onDeposited,
}: {
  opened: boolean;
  state: KeyStateDto;
  enterpriseId: number;
  enterpriseName: string;
  phone: string;
  onClose: () => void;
  onDeposited: (next: KeyStateDto) => void;
}) {
  const { t, i18n } = useLingui();
  const [step, setStep] = useState(0);
  const [isUnderstood, setIsUnderstood] = useState(false);
  const [isGenerating, setIsGenerating] = useState(false);
  const [generated, setGenerated] = useState<Generated | null>(null);
  const [isBackedUp, setIsBackedUp] = useState(false);
  const [isDepositing, setIsDepositing] = useState(false);
  const [depositError, setDepositError] = useState<string | null>(null);
  const [result, setResult] = useState<KeyStateDto | null>(null);
  const form = useForm({ mode: 'controlled', initialValues: { passphrase: '', confirm: '' } });
  const subject = state.subject;
  const licence = subject?.organizationIdentifier.replace(/^NTRCN-/, '') ?? '';

  const reset = () => {
    setStep(0);
    setIsUnderstood(false);
    setGenerated(null);
    setIsBackedUp(false);
    setDepositError(null);
    setResult(null);
    form.reset();
  };
  const close = () => {
    if (isGenerating || isDepositing) return;
    if (result) onDeposited(result);
    reset();
    onClose();
  };

  const onGenerate = form.onSubmit(async (values) => {
    const isValid = applyRuleVerdicts(
      form,
      {
        passphrase: checkKeyPassphrase(values.passphrase, [enterpriseName, licence, phone]),
        confirm: !values.confirm ? 'required' : values.confirm === values.passphrase ? null : 'password_mismatch',
      },
      i18n,
    );
    if (!isValid || !subject) return;
    setIsGenerating(true);
    try {
      setGenerated(await keysWorker().createEnterpriseKey(values.passphrase, subject, enterpriseId));
      // The passphrase is not kept once the key is wrapped.
      form.setValues({ passphrase: '', confirm: '' });
      setStep(2);
    } catch (error) {
      setDepositError(keyErrorText(error, i18n));
    } finally {
      setIsGenerating(false);
    }
  });

  const onBackup = () => {
    if (!generated) return;
    saveFile(`${fileSafe(enterpriseName)}-enterprise-key.pem`, generated.encryptedPrivateKeyPem, 'application/x-pem-file');
    setIsBackedUp(true);
  };

  const onDeposit = async () => {
    if (!generated) return;
    setIsDepositing(true);
    setDepositError(null);
    try {
      const next = await depositKey({ encrypted_private_key: generated.encryptedPrivateKeyPem, csr: generated.csrPem, deposit_signature: generated.depositSignature });
      setResult(next);
      setStep(3);
    } catch (error) {
      setDepositError(describeError(error, i18n));
    } finally {
      setIsDepositing(false);
    }
  };

  // On phones the step labels do not fit beside each other: numbers in the stepper, the current label below.
  const isPhone = useMediaQuery('(max-width: 36em)');
  const stepLabels = [t`Before you start`, t`Passphrase`, t`Back up`, t`Certificate`];
  const strength = passphraseStrength(form.values.passphrase);
  const strengthText = [t`Weak`, t`Weak`, t`Fair`, t`Strong`, t`Very strong`][strength];

  return (
    <Modal opened={opened} onClose={close} title={t`Create the enterprise key`} size="lg" centered closeOnClickOutside={false} data-testid="key-ceremony">
      <Stepper active={step} size="xs" allowNextStepsSelect={false} mb={isPhone ? 4 : 'md'} orientation="horizontal" wrap={false}>
        {stepLabels.map((label) => (
          <Stepper.Step key={label} label={isPhone ? undefined : label} allowStepSelect={false} />
        ))}
      </Stepper>
      {isPhone && (
        <Text size="sm" fw={600} mb="sm">
          {stepLabels[Math.min(step, stepLabels.length - 1)]}
        </Text>
      )}

      {step === 0 && (
        <Stack gap="sm">
          <Text size="sm">
            <Trans>The enterprise key is the digital identity of {enterpriseName}. It is created here, in your browser:</Trans>
          </Text>
          <List size="sm" spacing={4}>
            <List.Item>
              <Trans>a P-256 key pair is generated on this computer; the private key never leaves it unencrypted;</Trans>
            </List.Item>
            <List.Item>
              <Trans>the private key is encrypted with a passphrase you choose (PBKDF2-HMAC-SHA256, 100 000 iterations, AES-256-CBC) and deposited with the platform in that form;</Trans>
            </List.Item>
            <List.Item>
              <Trans>the platform certifies the public key: it issues the enterprise certificate and registers it on the ledger.</Trans>
            </List.Item>
          </List>
          <Alert color="orange" icon={<IconAlertTriangle size={18} />} title={t`The platform cannot recover the passphrase`}>
            <Trans>Nobody at the platform knows the passphrase and it cannot be reset. Without it the key cannot sign anything; a lost passphrase means creating a new key and certificate.</Trans>
          </Alert>
          <Checkbox
            checked={isUnderstood}
            onChange={(e) => setIsUnderstood(e.currentTarget.checked)}
            label={t`I understand that only the passphrase opens the key, and that the platform cannot recover it`}
            data-testid="ceremony-understood"
          />
          <Group justify="flex-end">
            <Button disabled={!isUnderstood} onClick={() => setStep(1)} data-testid="ceremony-next">
              <Trans>Next</Trans>
            </Button>
          </Group>
        </Stack>
      )}

      {step === 1 && (
        <form onSubmit={onGenerate} noValidate>
          <Stack gap="sm">
            <PasswordInput
              label={t`Key passphrase`}
              description={t`At least ${KEY_PASSPHRASE_MIN} characters; under 20 characters it needs three of lower case, upper case, digits and symbols. Not the enterprise name, licence number or your phone number.`}
              required
              autoComplete="new-password"
              disabled={isGenerating}
              {...form.getInputProps('passphrase')}
              data-testid="ceremony-passphrase"
            />
            <Group gap="xs" wrap="nowrap" aria-live="polite">
              <Progress value={(strength / 4) * 100} color={STRENGTH_COLORS[strength]} style={{ flex: 1 }} aria-label={t`Passphrase strength`} />
              <Text size="xs" c="dimmed" w={90} ta="right">
                {form.values.passphrase ? strengthText : ''}
              </Text>
            </Group>
            <PasswordInput label={t`Repeat the passphrase`} required autoComplete="new-password" disabled={isGenerating} {...form.getInputProps('confirm')} data-testid="ceremony-confirm" />
            {depositError && <Alert color="red">{depositError}</Alert>}
            {isGenerating && (
              <Group gap="xs">
                <Loader size="xs" />
                <Text size="sm" c="dimmed">
                  <Trans>Creating and encrypting the key in your browser…</Trans>
                </Text>
              </Group>
            )}
            <Group justify="space-between">
              <Button variant="default" onClick={() => setStep(0)} disabled={isGenerating}>
                <Trans>Back</Trans>
              </Button>
              <Button type="submit" leftSection={<IconKey size={16} />} loading={isGenerating} data-testid="ceremony-generate">
                <Trans>Create the key</Trans>
              </Button>
            </Group>
          </Stack>
        </form>
      )}

      {step === 2 && generated && (
        <Stack gap="sm">
          <Text size="sm">
            <Trans>The key is ready. Keep a copy of the encrypted key: it is the same file the platform will hold, and it opens only with your passphrase.</Trans>
          </Text>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {t`Public key SHA-256: ${generated.publicKeySha256}`}
          </Text>
          <Group>
            <Button variant="light" leftSection={<IconDownload size={16} />} onClick={onBackup} data-testid="ceremony-backup">
              <Trans>Download the encrypted key (PEM)</Trans>
            </Button>
          </Group>
          <Checkbox
            checked={isBackedUp}
            onChange={(e) => setIsBackedUp(e.currentTarget.checked)}
            label={t`I have stored the encrypted key and its passphrase safely`}
            data-testid="ceremony-backed-up"
          />
          {depositError && (
            <Alert color="red" data-testid="ceremony-error">
              {depositError}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button onClick={() => void onDeposit()} loading={isDepositing} disabled={!isBackedUp} data-testid="ceremony-deposit">
              <Trans>Deposit the key and request the certificate</Trans>
            </Button>
          </Group>
        </Stack>
      )}

      {step === 3 && result?.certificate && (
        <Stack gap="sm">
          <Alert color="green" title={t`The enterprise certificate has been issued`}>
            <Trans>The platform now keeps the encrypted key in custody. Administrators can sign files with it using the passphrase.</Trans>
          </Alert>
          <CertificateView cert={result.certificate} enterpriseName={enterpriseName} isCompact />
          <Group justify="flex-end">
            <Button onClick={close} data-testid="ceremony-done">
              <Trans>Done</Trans>
            </Button>
          </Group>
        </Stack>
      )}
      {step === 3 && !result?.certificate && <Text>{errorKeyText('private_key_unavailable', i18n)}</Text>}
    </Modal>
  );
}
