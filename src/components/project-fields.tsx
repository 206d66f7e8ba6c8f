import { Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useLingui } from '@lingui/react/macro';
import { PROJECT_DESCRIPTION_MAX, PROJECT_NAME_MAX } from '../../core/constants.ts';

const count = (value: string) => Array.from(value.trim()).length;

/**
 * A project's name and description (§5: name ≤ 30, description ≤ 200 characters), each with its
 * running count under it, as the vault and the source-code project forms ask for them; the
 * placeholders say what the project is about.
 */
export function ProjectNameFields<T extends { name: string; description: string }>(props: {
  form: UseFormReturnType<T>;
  namePlaceholder: string;
  descriptionPlaceholder: string;
  descriptionRows: { min: number; max: number };
}) {
  const { t } = useLingui();
  const { form } = props;
  const nameLength = count(form.values.name);
  const descriptionLength = count(form.values.description);
  return (
    <>
      <TextInput
        label={t`Project name`}
        required
        placeholder={props.namePlaceholder}
        description={t`${nameLength} / ${PROJECT_NAME_MAX} characters`}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        data-autofocus
        {...form.getInputProps('name')}
      />
      <Textarea
        label={t`Description`}
        placeholder={props.descriptionPlaceholder}
        description={t`${descriptionLength} / ${PROJECT_DESCRIPTION_MAX} characters`}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        autosize
        minRows={props.descriptionRows.min}
        maxRows={props.descriptionRows.max}
        {...form.getInputProps('description')}
      />
    </>
  );
}
