import { useEffect, useState } from 'react';
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Trans, useLingui } from '@lingui/react/macro';
import { applyServerErrors } from '@/api/apply-server-errors.ts';
import { applyRuleVerdicts } from '@/components/form-rules.ts';
import { ProjectNameFields } from '@/components/project-fields.tsx';
import { checkRepoDescription, checkRepoName, checkRepoUrl, type RepoProjectDto } from '../../../core/repos.ts';
import { createRepo } from './repos-api.ts';

/** A new source-code project: §5 name ≤ 30 and description ≤ 200, an optional repository address; §8 errors on their fields. */
export function RepoFormModal({ opened, onClose, onSaved }: { opened: boolean; onClose: () => void; onSaved: (project: RepoProjectDto) => void }) {
  const { t, i18n } = useLingui();
  const [isBusy, setIsBusy] = useState(false);
  const form = useForm({ mode: 'controlled', initialValues: { name: '', description: '', url: '' } });
  const { setValues, clearErrors } = form;
  useEffect(() => {
    if (!opened) return;
    setValues({ name: '', description: '', url: '' });
    clearErrors();
  }, [opened]);

  const onSubmit = form.onSubmit(async (values) => {
    const isValid = applyRuleVerdicts(form, { name: checkRepoName(values.name), description: checkRepoDescription(values.description), url: checkRepoUrl(values.url) }, i18n);
    if (!isValid) return;
    setIsBusy(true);
    try {
      onSaved(await createRepo({ name: values.name.trim(), description: values.description.trim(), url: values.url.trim() }));
    } catch (error) {
      applyServerErrors(form, error, { i18n });
    } finally {
      setIsBusy(false);
    }
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t`New source-code project`} centered size="lg">
      <form onSubmit={onSubmit} noValidate data-testid="repo-form">
        <Stack gap="md">
          <ProjectNameFields form={form} namePlaceholder={t`e.g. Payment gateway`} descriptionPlaceholder={t`What the code does (optional)`} descriptionRows={{ min: 2, max: 6 }} />
          <TextInput label={t`Repository address`} placeholder="https://git.example.com/team/app.git" description={t`Optional; only shown on the project page`} inputWrapperOrder={['label', 'input', 'description', 'error']} {...form.getInputProps('url')} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" loading={isBusy} data-testid="repo-save">
              <Trans>Create project</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
