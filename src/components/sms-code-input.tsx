import { useEffect, useId, useState, type ReactNode } from 'react';
import { Button, Input, TextInput } from '@mantine/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { SMS_CODE_LENGTH, SMS_RESEND_COUNTDOWN_S } from '../../core/constants.ts';
import { isApiError } from '@/api/client.ts';

type Props = {
  value: string;
  onChange: (value: string) => void;
  error?: ReactNode;
  label?: ReactNode;
  /**
   * Sends the code. Resolve true when it was sent; false when the caller refused to
   * send (e.g. the phone is not valid yet, with the error already on that field).
   * A rejection is handed to onSendError.
   */
  onSend: () => Promise<boolean>;
  onSendError: (error: unknown) => void;
  disabled?: boolean;
  sendTestId?: string;
};

/**
 * The SMS code field with its send button (§4): after a successful send the button is
 * disabled with a 60 s countdown and the field says the code was sent and is valid for
 * 10 minutes (§9). A send the server refuses as too early ("requested too often, wait a
 * minute") counts down too, beside its message. An error about the previous code is
 * stale once a new code went out: it is hidden until the form sets another.
 */
export function SmsCodeInput({ value, onChange, error, label, onSend, onSendError, disabled, sendTestId }: Props) {
  const { t } = useLingui();
  const id = useId();
  const [secondsLeft, setSecondsLeft] = useState(0);
  const [isSending, setIsSending] = useState(false);
  const [hasSent, setHasSent] = useState(false);
  const [staleError, setStaleError] = useState<ReactNode>(null);

  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = window.setTimeout(() => setSecondsLeft((s) => s - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [secondsLeft]);

  const onClickSend = async () => {
    setIsSending(true);
    try {
      if (await onSend()) {
        setHasSent(true);
        setStaleError(error ?? null);
        setSecondsLeft(SMS_RESEND_COUNTDOWN_S);
      }
    } catch (sendError) {
      if (isApiError(sendError) && sendError.key === 'validation_code_filled') setSecondsLeft(SMS_RESEND_COUNTDOWN_S);
      onSendError(sendError);
    } finally {
      setIsSending(false);
    }
  };

  const isCountingDown = secondsLeft > 0;
  const shownError = error && error !== staleError ? error : undefined;
  return (
    <Input.Wrapper
      id={id}
      label={label ?? t`SMS verification code`}
      required
      error={shownError}
      description={hasSent && !shownError ? t`Code sent to your phone, valid for 10 minutes` : undefined}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
    >
      <div style={{ display: 'flex', gap: 8 }}>
        <TextInput
          id={id}
          style={{ flex: 1, minWidth: 0 }}
          value={value}
          onChange={(event) => onChange(event.currentTarget.value.replace(/\D/g, '').slice(0, SMS_CODE_LENGTH))}
          error={Boolean(shownError)}
          inputMode="numeric"
          autoComplete="one-time-code"
          placeholder={t`${SMS_CODE_LENGTH}-digit code`}
          disabled={disabled}
        />
        <Button
          variant="light"
          onClick={onClickSend}
          loading={isSending}
          disabled={disabled || isCountingDown}
          style={{ flexShrink: 0 }}
          data-testid={sendTestId}
        >
          {isCountingDown ? <Trans>Resend in {secondsLeft}s</Trans> : hasSent ? <Trans>Resend code</Trans> : <Trans>Send code</Trans>}
        </Button>
      </div>
    </Input.Wrapper>
  );
}
