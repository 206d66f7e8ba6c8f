import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { LegalDocument, type LegalSection } from './legal-document.tsx';

/** §2 privacy policy: static sections 1–9 (§9: reply within 15 days; minors under 18 need guardian consent). */
const SECTIONS: LegalSection[] = [
  {
    id: 'collect',
    title: msg`What we collect`,
    paragraphs: [
      msg`Account data: your mobile phone number, the name you give us, and, for real-name authentication, your ID card number and real name or photos of the front and back of your ID card. For enterprises we collect the business licence, the legal representative and the application documents you upload.`,
      msg`Registration data: the SHA-256 hash of each file you register, its name, type and time. By default only the hash of a file leaves your browser; the file itself is uploaded only when you choose to store it, for example to disclose it to a receiver.`,
      msg`Technical data: the address your requests come from, your browser's user agent and the times of your sessions, kept to protect accounts against misuse.`,
    ],
  },
  {
    id: 'use',
    title: msg`How we use it`,
    paragraphs: [
      msg`We use your data to create and secure your account, to verify your identity and your enterprise, to record registrations on the ledger and issue proof certificates, to deliver disclosures you send, to send verification codes, and to answer your requests. We do not sell personal information and do not use it for advertising.`,
    ],
  },
  {
    id: 'cookies',
    title: msg`Cookies and similar technologies`,
    paragraphs: [
      msg`We use one session cookie, marked HttpOnly so that scripts cannot read it, to keep you logged in. Your language choice is kept in your browser's local storage. We use no tracking or advertising cookies.`,
    ],
  },
  {
    id: 'sharing',
    title: msg`Sharing and disclosure`,
    paragraphs: [
      msg`We share data only with the SMS carrier that delivers verification codes, with the identity verification provider that checks real-name information, with the receivers of disclosures you initiate (who see the file you send and your enterprise name), and where the law requires it.`,
      msg`Ledger entries contain file hashes, times and enterprise names. They are designed to be permanent and tamper-evident: once recorded they cannot be changed or erased, even if your account is cancelled.`,
    ],
  },
  {
    id: 'security',
    title: msg`Storage and security`,
    paragraphs: [
      msg`Data is stored on servers in the People's Republic of China. Stored files are encrypted at rest, passwords are kept only as slow salted hashes, and session tokens are stored only as hashes. We keep account data while your account exists and for the period the law requires afterwards.`,
    ],
  },
  {
    id: 'rights',
    title: msg`Your rights`,
    paragraphs: [
      msg`You may access and correct your personal information in the personal centre, withdraw consent, ask for a copy or for deletion of your data, and cancel your account. Write to us and we will reply within 15 days.`,
    ],
  },
  {
    id: 'minors',
    title: msg`Minors`,
    paragraphs: [
      msg`The service is intended for adults and enterprises. Anyone under 18 may use it only with the consent of a parent or guardian, who should read this policy with them.`,
    ],
  },
  {
    id: 'changes',
    title: msg`Changes to this policy`,
    paragraphs: [
      msg`When we change this policy we publish the new version here with a new date, and we tell you before a material change takes effect.`,
    ],
  },
  {
    id: 'contact',
    title: msg`Contact us`,
    paragraphs: [msg`E-mail: contact@provena.example. Address: Xi'an, Shaanxi Province, People's Republic of China.`],
  },
];

const INTRO = msg`This policy explains what personal information Provena collects when you use the platform, why, and what choices you have.`;

export function PrivacyPage() {
  const { t } = useLingui();
  return <LegalDocument title={t`Privacy policy`} updated="2026-11-22" intro={INTRO} sections={SECTIONS} />;
}
