import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { LegalDocument, type LegalSection } from './legal-document.tsx';

/** §2 user agreement. */
const SECTIONS: LegalSection[] = [
  {
    id: 'service',
    title: msg`The service`,
    paragraphs: [
      msg`Provena lets individuals and enterprises register digital intellectual property (files, trade-secret projects and source-code projects) on a tamper-evident ledger, receive PDF proof certificates, disclose files to outside receivers, and let anyone verify a file against its proof.`,
    ],
  },
  {
    id: 'account',
    title: msg`Accounts and real-name registration`,
    paragraphs: [
      msg`You register with a mobile phone number that you control. You must give true information, complete real-name authentication where the service asks for it, keep your password secret, and tell us at once if you believe your account is being misused. You are responsible for what is done through your account.`,
      msg`Enterprise accounts are created by the legal representative or with the enterprise's written authorisation. Administrators of an enterprise manage its members and their roles and answer for the enterprise's use of the service.`,
    ],
  },
  {
    id: 'credits',
    title: msg`Credits`,
    paragraphs: [
      msg`Registrations use credits: by default 200 credits for a digital asset and 1000 credits for a file in the trade-secret vault. Prices are shown before you confirm. Credits used for a completed registration are not refunded.`,
    ],
  },
  {
    id: 'proof',
    title: msg`What a registration proves`,
    paragraphs: [
      msg`A registration proves that a file with exactly this content existed no later than the registered time and was registered by the named enterprise. It does not decide who owns the rights in the file, whether the content is original or lawful, or whether it infringes the rights of others.`,
      msg`Proof certificates carry an expiry date. An expired certificate fails verification; you can regenerate it, which gives a new expiry and leaves the original registration time unchanged.`,
    ],
  },
  {
    id: 'disclosure',
    title: msg`Disclosures`,
    paragraphs: [
      msg`When you disclose a file, the receiver must verify their phone number and accept a confidentiality agreement before downloading it: to keep the file strictly confidential, not to disclose its content and not to reproduce or recreate it. The receipt is recorded as evidence. You remain responsible for choosing whom you disclose to.`,
    ],
  },
  {
    id: 'use',
    title: msg`Acceptable use`,
    paragraphs: [
      msg`You must not register or disclose content you have no right to use, content that is unlawful, or malicious files; attempt to access accounts or data that are not yours; interfere with the service or its security; or use the service to mislead others about what a proof shows.`,
    ],
  },
  {
    id: 'ip',
    title: msg`Intellectual property`,
    paragraphs: [
      msg`You keep all rights in the files you register. By default only a file's hash leaves your browser; where you store a file with us, you allow us to keep and transmit it only to provide the service to you. The platform's software, design and trademarks belong to Provena.`,
    ],
  },
  {
    id: 'availability',
    title: msg`Changes and availability`,
    paragraphs: [
      msg`We work to keep the service available but do not promise that it is uninterrupted. We may change features and will give notice of changes that materially affect you. Registrations already recorded on the ledger remain verifiable with the proof package, even without our servers.`,
    ],
  },
  {
    id: 'liability',
    title: msg`Liability`,
    paragraphs: [
      msg`To the extent the law allows, we are not liable for indirect losses, or for losses caused by events outside our reasonable control, by your breach of this agreement, or by the conduct of receivers you chose. Nothing in this agreement limits liability that the law does not allow to be limited.`,
    ],
  },
  {
    id: 'termination',
    title: msg`Termination`,
    paragraphs: [
      msg`You may cancel your account at any time. We may suspend or close an account that breaches this agreement or the law, after notice where the law requires it. Ledger entries are permanent and remain after an account is closed.`,
    ],
  },
  {
    id: 'law',
    title: msg`Governing law and disputes`,
    paragraphs: [
      msg`This agreement is governed by the laws of the People's Republic of China. Disputes are first to be settled by negotiation; failing that, either party may bring the dispute before the people's court with jurisdiction where Provena is located.`,
    ],
  },
  {
    id: 'contact',
    title: msg`Contact`,
    paragraphs: [msg`Questions about this agreement: contact@provena.example. This agreement takes effect on 2026-11-22.`],
  },
];

const INTRO = msg`Please read this agreement carefully. By registering or using Provena you agree to it.`;

export function TermsPage() {
  const { t } = useLingui();
  return <LegalDocument title={t`User agreement`} updated="2026-11-22" intro={INTRO} sections={SECTIONS} />;
}
