import { lazy, Suspense } from 'react';
import { useHasOpened } from '@/components/use-has-opened.ts';

/**
 * The partner form's modal (partner-form.tsx), loaded the first time it opens: a closed modal
 * draws nothing, and the form's code (Mantine's modal and inputs, the form library, the API
 * errors) stays out of the public pages' first JavaScript (their budget: tests/server/bundle-budget.test.ts).
 */
const PartnerModal = lazy(async () => ({ default: (await import('./partner-form.tsx')).PartnerModal }));

export function LazyPartnerModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const hasOpened = useHasOpened(opened);
  if (!hasOpened) return null;
  return (
    <Suspense fallback={null}>
      <PartnerModal opened={opened} onClose={onClose} />
    </Suspense>
  );
}
