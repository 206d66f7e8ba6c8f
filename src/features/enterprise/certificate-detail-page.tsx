import { useEffect, useState } from 'react';
import { Alert, Anchor, Breadcrumbs, Code, Stack, Text, Title } from '@mantine/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import type { UserDto } from '../../../core/api-types.ts';
import type { CertificateDto } from '../../../core/enterprise-keys.ts';
import { describeError } from '@/api/error-messages.ts';
import { PageLoader } from '@/components/page-loader.tsx';
import { CertificateView } from './certificate-view.tsx';
import { fetchCertificate } from './enterprise-keys-api.ts';
import { useCompany } from './use-company.ts';

/** dashboard company/certificate/:certificateId/:serialNumber: one of the enterprise's certificates in full. */
export function CertificateDetailPage({ user, certificateId, serialNumber }: { user: UserDto; certificateId: string; serialNumber: string }) {
  const { t, i18n } = useLingui();
  const { company } = useCompany(user.id);
  const [cert, setCert] = useState<CertificateDto | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = Number(certificateId);
  useEffect(() => {
    if (!Number.isInteger(id) || id < 1) {
      setError(t`This certificate does not exist.`);
      return;
    }
    const controller = new AbortController();
    fetchCertificate(id, controller.signal).then(
      (c) => {
        // The serial in the address must be this certificate's: a link never shows another one.
        if (c.serial_number !== serialNumber.toLowerCase().replace(/:/g, '')) setError(t`This certificate does not exist.`);
        else setCert(c);
      },
      (e: unknown) => {
        if ((e as Error)?.name === 'AbortError') return;
        setError((e as { key?: string })?.key === 'not_found' ? t`This certificate does not exist.` : describeError(e, i18n));
      },
    );
    return () => controller.abort();
  }, [id, serialNumber, t, i18n]);
  return (
    <Stack gap="md" maw={960}>
      <Breadcrumbs>
        <Anchor component={Link} href="/dashboard/company/identity" size="sm">
          {t`Digital identity`}
        </Anchor>
        <Text size="sm">{t`Certificate`}</Text>
      </Breadcrumbs>
      <Title order={2} size="h3">
        <Trans>Certificate details</Trans>
      </Title>
      {error && <Alert color="red">{error}</Alert>}
      {!error && !cert && <PageLoader />}
      {cert && (
        <>
          <CertificateView cert={cert} enterpriseName={company?.name ?? ''} />
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              <Trans>Certificate (PEM)</Trans>
            </Text>
            <Code block data-testid="certificate-pem" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {cert.pem}
            </Code>
          </Stack>
        </>
      )}
    </Stack>
  );
}
