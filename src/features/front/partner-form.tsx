import { useState } from 'react';
import { Button, Modal, NativeSelect, Stack, TextInput, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { IconCircleCheck } from '@tabler/icons-react';
import { applyServerErrors } from '@/api/apply-server-errors.ts';
import { applyRuleVerdicts, type FieldVerdict } from '@/components/form-rules.ts';
import { PARTNER_TEXT_MAX, checkPartnerField, type PartnerField } from '../../../core/partners.ts';
import { submitPartnerContract } from './partner-api.ts';
import classes from './front.module.css';

const REQUIRED_MESSAGES = {
  enterprise_name: msg`Please enter the enterprise name`,
  name: msg`Please enter the contact name`,
  contract_number: msg`Please enter the phone number`,
  corporation: msg`Please choose a cooperation method`,
} as const;

type Values = Record<PartnerField, string>;

/**
 * §4 partner modal: the form (enterprise name, contact name, phone, cooperation method; all
 * four required, §5), then the thank-you result; closing returns to the page.
 */
export function PartnerModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const [isDone, setIsDone] = useState(false);
  const form = useForm<Values>({ mode: 'controlled', initialValues: { enterprise_name: '', name: '', contract_number: '', corporation: '' } });
  const methods = [t`Channel partner`, t`Technology partner`, t`Assessment, insurance or legal services`, t`Industrial park or institution`];

  const onSubmit = form.onSubmit(async (values) => {
    const verdicts: Record<string, FieldVerdict> = {};
    for (const field of Object.keys(values) as PartnerField[]) {
      const problem = checkPartnerField(field, values[field]);
      verdicts[field] = problem === 'required' ? { message: REQUIRED_MESSAGES[field] } : problem;
    }
    if (!applyRuleVerdicts(form, verdicts)) return;
    try {
      await submitPartnerContract({
        corporation: values.corporation.trim(),
        name: values.name.trim(),
        contract_number: values.contract_number.trim(),
        enterprise_name: values.enterprise_name.trim(),
      });
      setIsDone(true);
      form.reset();
    } catch (error) {
      applyServerErrors(form, error, { i18n });
    }
  });

  const onCloseModal = () => {
    onClose();
    setIsDone(false);
    form.clearErrors();
  };

  return (
    <Modal opened={opened} onClose={onCloseModal} title={isDone ? t`Thank you` : t`Become a partner`} centered size="md" closeButtonProps={{ 'aria-label': t`Close` }}>
      {isDone ? (
        <Stack align="center" ta="center" py="md" data-testid="partner-thanks">
          <IconCircleCheck size={56} color="var(--mantine-color-green-7)" aria-hidden />
          <Text fw={700} size="lg">
            <Trans>Thank you for your interest in working with us</Trans>
          </Text>
          <Text c="dimmed">
            <Trans>We have received your application and will call you within two working days.</Trans>
          </Text>
          <Button onClick={onCloseModal} data-testid="partner-thanks-close">
            <Trans>Back to the page</Trans>
          </Button>
        </Stack>
      ) : (
        <form onSubmit={onSubmit} noValidate data-testid="partner-form" className={classes.form}>
          <Stack>
            <TextInput label={t`Enterprise name`} withAsterisk maxLength={PARTNER_TEXT_MAX} autoComplete="organization" {...form.getInputProps('enterprise_name')} data-testid="partner-enterprise" />
            <TextInput label={t`Contact name`} withAsterisk maxLength={PARTNER_TEXT_MAX} autoComplete="name" {...form.getInputProps('name')} data-testid="partner-name" />
            <TextInput label={t`Phone number`} withAsterisk inputMode="numeric" maxLength={11} autoComplete="tel-national" {...form.getInputProps('contract_number')} data-testid="partner-phone" />
            <NativeSelect
              label={t`Cooperation method`}
              withAsterisk
              data={[{ value: '', label: t`Choose…` }, ...methods.map((m) => ({ value: m, label: m }))]}
              {...form.getInputProps('corporation')}
              data-testid="partner-method"
            />
            <Button type="submit" loading={form.submitting} data-testid="partner-submit">
              <Trans>Submit</Trans>
            </Button>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
