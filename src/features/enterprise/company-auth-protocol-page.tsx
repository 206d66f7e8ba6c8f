import { Stack, Text } from '@mantine/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { EnterpriseCard } from './enterprise-card.tsx';

/** §2 company-auth-protocol/:legalName/:company: the legal person authorises the platform to issue and host the enterprise certificate. */
export function CompanyAuthProtocolPage({ legalName, company }: { legalName: string; company: string }) {
  const { t } = useLingui();
  return (
    <EnterpriseCard title={t`Enterprise authorisation agreement`} width={760}>
      <Stack gap="sm">
        <Text>
          <Trans>
            I, {legalName}, the legal representative of {company}, authorise this platform to issue the enterprise digital certificate of {company} and to host it on the enterprise's behalf.
          </Trans>
        </Text>
        <Text>
          <Trans>The certificate identifies the enterprise when it registers digital assets and signs proofs on the platform. The platform keeps the private key in custody and uses it only for operations that members of the enterprise request.</Trans>
        </Text>
        <Text>
          <Trans>The enterprise may cancel the custody at any time; the platform then revokes the certificate and an agent follows up.</Trans>
        </Text>
        <Text>
          <Trans>The legal representative confirms that the business licence and the details given are true, and bears the responsibility for them.</Trans>
        </Text>
      </Stack>
    </EnterpriseCard>
  );
}
