import { useEffect, useRef } from 'react';
import { Badge, Loader } from '@mantine/core';
import { useLingui } from '@lingui/react/macro';

/** While a proof is generating, what shows it is asked for again this often (§3 generating → generated, live). */
export const PROOF_POLL_MS = 1500;

/** §3 proof status of a registered file (asset, vault file): 1–4 generating (with a spinner), 5–6 generated. */
export function ProofBadge({ isGenerated, size = 'sm' }: { isGenerated: boolean; size?: 'sm' | 'md' | 'lg' }) {
  const { t } = useLingui();
  return isGenerated ? (
    <Badge color="green" variant="light" tt="none" size={size} data-testid="proof-status" data-generated="true" style={{ flexShrink: 0 }}>
      {t`Generated`}
    </Badge>
  ) : (
    <Badge color="orange" variant="light" tt="none" size={size} leftSection={<Loader size={10} color="orange" />} data-testid="proof-status" data-generated="false" style={{ flexShrink: 0 }}>
      {t`Generating`}
    </Badge>
  );
}

/** Calls `refresh` every `everyMs` while `isGenerating`, so that a proof shows as generated without a reload. */
export function useProofPoll(isGenerating: boolean, refresh: () => void, everyMs = PROOF_POLL_MS): void {
  const latest = useRef(refresh);
  useEffect(() => {
    latest.current = refresh;
  });
  useEffect(() => {
    if (!isGenerating) return;
    const timer = window.setInterval(() => latest.current(), everyMs);
    return () => window.clearInterval(timer);
  }, [isGenerating, everyMs]);
}
