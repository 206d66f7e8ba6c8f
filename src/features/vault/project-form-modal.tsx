import { useEffect, useState } from 'react';
import { Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Trans, useLingui } from '@lingui/react/macro';
import { applyServerErrors } from '@/api/apply-server-errors.ts';
import { applyRuleVerdicts } from '@/components/form-rules.ts';
import { PROJECT_DESCRIPTION_MAX, PROJECT_NAME_MAX } from '../../../core/constants.ts';
import { checkProjectDescription, checkProjectName, type VaultProjectDto } from '../../../core/vault.ts';
import { createProject, isVaultExpired, updateProject } from './vault-api.ts';

type Props = {
  opened: boolean;
  /** Editing this project; creating when absent. */
  project?: VaultProjectDto;
  onClose: () => void;
  onSaved: (project: VaultProjectDto) => void;
  onVaultExpired: () => void;
};

const count = (value: string) => Array.from(value.trim()).length;

/** Create or edit a vault project: §5 name ≤ 30 and description ≤ 200, server errors on their fields. */
export function ProjectFormModal({ opened, project, onClose, onSaved, onVaultExpired }: Props) {
  const { t, i18n } = useLingui();
  const [isBusy, setIsBusy] = useState(false);
  const form = useForm({ mode: 'controlled', initialValues: { name: '', description: '' } });
  const { setValues, clearErrors } = form;
  useEffect(() => {
    if (!opened) return;
    setValues({ name: project?.name ?? '', description: project?.description ?? '' });
    clearErrors();
    // Only when the dialog opens: typing must not be reset.
  }, [opened]);

  const onSubmit = form.onSubmit(async (values) => {
    const isValid = applyRuleVerdicts(form, { name: checkProjectName(values.name), description: checkProjectDescription(values.description) }, i18n);
    if (!isValid) return;
    setIsBusy(true);
    try {
      const input = { name: values.name.trim(), description: values.description.trim() };
      const saved = project ? await updateProject(project.project_id, input) : await createProject(input);
      onSaved(saved);
    } catch (error) {
      if (isVaultExpired(error)) onVaultExpired();
      else applyServerErrors(form, error, { i18n });
    } finally {
      setIsBusy(false);
    }
  });

  const nameLength = count(form.values.name);
  const descriptionLength = count(form.values.description);
  return (
    <Modal opened={opened} onClose={onClose} title={project ? t`Edit project` : t`New project`} centered size="lg">
      <form onSubmit={onSubmit} noValidate data-testid="project-form">
        <Stack gap="md">
          <TextInput
            label={t`Project name`}
            required
            placeholder={t`e.g. Formula of the 2027 coating`}
            description={t`${nameLength} / ${PROJECT_NAME_MAX} characters`}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            data-autofocus
            {...form.getInputProps('name')}
          />
          <Textarea
            label={t`Description`}
            placeholder={t`What the project protects (optional)`}
            description={t`${descriptionLength} / ${PROJECT_DESCRIPTION_MAX} characters`}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            autosize
            minRows={3}
            maxRows={8}
            {...form.getInputProps('description')}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" loading={isBusy} data-testid="project-save">
              {project ? <Trans>Save</Trans> : <Trans>Create project</Trans>}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
