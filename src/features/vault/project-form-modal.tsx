import { useEffect, useState } from 'react';
import { Button, Group, Modal, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Trans, useLingui } from '@lingui/react/macro';
import { applyServerErrors } from '@/api/apply-server-errors.ts';
import { applyRuleVerdicts } from '@/components/form-rules.ts';
import { ProjectNameFields } from '@/components/project-fields.tsx';
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

  return (
    <Modal opened={opened} onClose={onClose} title={project ? t`Edit project` : t`New project`} centered size="lg">
      <form onSubmit={onSubmit} noValidate data-testid="project-form">
        <Stack gap="md">
          <ProjectNameFields form={form} namePlaceholder={t`e.g. Formula of the 2027 coating`} descriptionPlaceholder={t`What the project protects (optional)`} descriptionRows={{ min: 3, max: 8 }} />
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
