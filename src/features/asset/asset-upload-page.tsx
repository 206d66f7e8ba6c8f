import { Anchor, Breadcrumbs, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconFile, IconFiles } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useLocation, useSearch } from 'wouter';
import { ASSET_LIST_PATH } from './asset-labels.ts';
import { AssetRegisterForm } from './asset-register-form.tsx';
import { AssetBatchRegister } from './asset-batch-register.tsx';

/** /dashboard/asset_upload: register one file (`?mode=single`, the default) or many at once (`?mode=batch`). */
export function AssetUploadPage() {
  const { t } = useLingui();
  const [location, navigate] = useLocation();
  const mode = new URLSearchParams(useSearch()).get('mode') === 'batch' ? 'batch' : 'single';
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Breadcrumbs separatorMargin={6}>
          <Anchor component={Link} href={ASSET_LIST_PATH} size="sm">
            <Trans>Digital assets</Trans>
          </Anchor>
          <Text size="sm" c="dimmed">
            <Trans>Register assets</Trans>
          </Text>
        </Breadcrumbs>
        <Title order={1} size="h2">
          <Trans>Register assets</Trans>
        </Title>
      </Stack>
      <Tabs value={mode} onChange={(value) => navigate(value === 'batch' ? `${location}?mode=batch` : location, { replace: true })} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="single" leftSection={<IconFile size={16} />} data-testid="mode-single">
            {t`One file`}
          </Tabs.Tab>
          <Tabs.Tab value="batch" leftSection={<IconFiles size={16} />} data-testid="mode-batch">
            {t`Many files`}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="single">
          <AssetRegisterForm />
        </Tabs.Panel>
        <Tabs.Panel value="batch">
          <AssetBatchRegister />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
