import { useState } from 'react';
import { Button, Group, Stack, Stepper, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { Trans, useLingui } from '@lingui/react/macro';
import type { UserDto } from '../../../core/api-types.ts';
import { maskPhone } from '../../../core/masking.ts';
import { checkNewPhone, checkSmsCode } from '../../../core/validation.ts';
import { isApiError } from '@/api/client.ts';
import { applyServerErrors } from '@/api/apply-server-errors.ts';
import { applyRuleVerdicts } from '@/components/form-rules.ts';
import { SmsCodeInput } from '@/components/sms-code-input.tsx';
import { changePhone, sendNewPhoneCode, sendOldPhoneCode, verifyOldPhoneCode } from './setting-api.ts';

type Props = { user: UserDto; isReadOnly: boolean; onChanged: (user: UserDto) => void; onDone: () => void };

/** §2 change phone: a code to the current phone, then a code to the new one. */
export function ChangePhoneForm({ user, isReadOnly, onChanged, onDone }: Props) {
  const { t, i18n } = useLingui();
  const [step, setStep] = useState<0 | 1>(0);
  const maskedPhone = maskPhone(user.phonenumber);
  const oldForm = useForm({ mode: 'controlled', initialValues: { validation_code: '' } });
  const newForm = useForm({ mode: 'controlled', initialValues: { new_phone_number: '', validation_code: '' } });

  const onVerifyOld = oldForm.onSubmit(async (values) => {
    if (!applyRuleVerdicts(oldForm, { validation_code: checkSmsCode(values.validation_code) }, i18n)) return;
    try {
      await verifyOldPhoneCode(values.validation_code);
      setStep(1);
    } catch (error) {
      applyServerErrors(oldForm, error);
    }
  });

  const onSendNew = async () => {
    const phone = newForm.values.new_phone_number.trim();
    const verdict = checkNewPhone(user.phonenumber, phone);
    if (verdict) {
      applyRuleVerdicts(newForm, { new_phone_number: verdict }, i18n);
      return false;
    }
    await sendNewPhoneCode(phone);
    return true;
  };

  const onChangePhone = newForm.onSubmit(async (values) => {
    const phone = values.new_phone_number.trim();
    const isValid = applyRuleVerdicts(
      newForm,
      { new_phone_number: checkNewPhone(user.phonenumber, phone), validation_code: checkSmsCode(values.validation_code) },
      i18n,
    );
    if (!isValid) return;
    try {
      const updated = await changePhone({ new_phone_number: phone, validation_code: values.validation_code });
      onChanged(updated);
      notifications.show({ color: 'green', message: t`Your phone number has been changed` });
      onDone();
    } catch (error) {
      // The old phone's proof lasts ten minutes; once it has lapsed, start again from step 1.
      if (isApiError(error) && error.fieldName === 'old_validation_code') {
        setStep(0);
        oldForm.reset();
        applyServerErrors(oldForm, error, { fieldAliases: { old_validation_code: 'validation_code' } });
        return;
      }
      applyServerErrors(newForm, error, { fieldAliases: { phonenumber: 'new_phone_number' } });
    }
  });

  return (
    <Stepper active={step} size="sm" allowNextStepsSelect={false}>
      <Stepper.Step label={t`Verify current phone`}>
        <form onSubmit={onVerifyOld} noValidate>
          <Stack gap="md" maw={420} pt="sm">
            <Text size="sm">
              <Trans>A verification code will be sent to your current phone {maskedPhone}.</Trans>
            </Text>
            {/* Keyed per step: the Stepper renders both steps in the same place, and the countdown must not carry over. */}
            <SmsCodeInput
              key="old-phone"
              label={t`Code from current phone`}
              value={oldForm.values.validation_code}
              onChange={(value) => oldForm.setFieldValue('validation_code', value)}
              error={oldForm.errors.validation_code}
              onSend={async () => (await sendOldPhoneCode(), true)}
              onSendError={(error) => applyServerErrors(oldForm, error)}
              disabled={isReadOnly}
              sendTestId="send-old-phone-code"
            />
            <Group>
              <Button type="submit" disabled={isReadOnly || oldForm.values.validation_code === ''} loading={oldForm.submitting}>
                <Trans>Next</Trans>
              </Button>
            </Group>
          </Stack>
        </form>
      </Stepper.Step>
      <Stepper.Step label={t`Bind new phone`}>
        <form onSubmit={onChangePhone} noValidate>
          <Stack gap="md" maw={420} pt="sm">
            <TextInput
              label={t`New phone number`}
              placeholder={t`11-digit mobile number`}
              inputMode="tel"
              autoComplete="tel"
              required
              {...newForm.getInputProps('new_phone_number')}
            />
            <SmsCodeInput
              key="new-phone"
              label={t`Code from new phone`}
              value={newForm.values.validation_code}
              onChange={(value) => newForm.setFieldValue('validation_code', value)}
              error={newForm.errors.validation_code}
              onSend={onSendNew}
              onSendError={(error) => applyServerErrors(newForm, error, { fieldAliases: { phonenumber: 'new_phone_number' } })}
              sendTestId="send-new-phone-code"
            />
            <Group>
              <Button
                type="submit"
                disabled={newForm.values.new_phone_number.trim() === '' || newForm.values.validation_code === ''}
                loading={newForm.submitting}
              >
                <Trans>Change phone number</Trans>
              </Button>
            </Group>
          </Stack>
        </form>
      </Stepper.Step>
    </Stepper>
  );
}
