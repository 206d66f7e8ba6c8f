import { msg } from '@lingui/core/macro';
import { OperatorPage } from '@/features/enterprise/operator-page.tsx';
import { OperatorCreditOrders } from '@/features/credit/operator-orders.tsx';
import { OperatorPartners } from '@/features/front/operator-partners.tsx';
import { CREDIT_LABELS } from '@/features/credit/credit-labels.ts';

/** Parts of the operator console that other product areas contribute (one chunk, loaded with the console). */
const OPERATOR_SECTIONS = [
  { value: 'credit-orders', label: CREDIT_LABELS.operatorTab, render: () => <OperatorCreditOrders /> },
  { value: 'partners', label: msg`Partner applications`, render: () => <OperatorPartners /> },
];

export function OperatorRoute() {
  return <OperatorPage sections={OPERATOR_SECTIONS} />;
}
