import { Anchor, Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Trans, useLingui } from '@lingui/react/macro';
import { IconCalendarTime, IconFingerprint, IconGitBranch, IconUsers } from '@tabler/icons-react';
import { LazyPartnerModal as PartnerModal } from './partner-modal-lazy.tsx';
import { Cards, Section, Ticks } from './sections.tsx';
import classes from './front.module.css';

/** The digital-asset assessment and insurance presentation, linked from both front pages. */
export function InsurancePage({ hasPartnerForm, email }: { hasPartnerForm: boolean; email: string }) {
  const { t } = useLingui();
  const [isOpen, modal] = useDisclosure(false);
  const contact = hasPartnerForm ? (
    <Button size="lg" color="orange" onClick={modal.open} data-testid="insurance-contact" className={classes.wrapButton}>
      <Trans>Talk to us about assessment or insurance</Trans>
    </Button>
  ) : (
    <Anchor href={`mailto:${email}`} c="white" fw={700} size="lg" data-testid="insurance-contact-email">
      <Trans>Write to us: {email}</Trans>
    </Anchor>
  );
  return (
    <div data-testid="insurance-page">
      <section className={`${classes.hero}`} aria-labelledby="insurance-page-title">
        <div className={classes.wrap} style={{ paddingTop: 72, paddingBottom: 72 }}>
          <span className={classes.eyebrow}>
            <Trans>Digital asset assessment and insurance</Trans>
          </span>
          <h1 className={classes.heroTitle} id="insurance-page-title">
            <Trans>Turn registered assets into value and cover</Trans>
          </h1>
          <p className={classes.heroSubtitle}>
            <Trans>A registration with its proof is a record an assessor can value and an insurer can underwrite: it shows what the asset is, who holds it and since when, and that it has not changed.</Trans>
          </p>
          {contact}
        </div>
      </section>

      <Section id="assessed" title={t`What is assessed`} lead={t`Assessors look at the asset and at the record around it.`}>
        <Cards
          columns={4}
          items={[
            { key: 'identity', icon: <IconFingerprint size={26} />, title: t`Identity and integrity`, text: t`The file's fingerprint, its registration and the check that the file presented is the file registered.` },
            { key: 'time', icon: <IconCalendarTime size={26} />, title: t`Priority in time`, text: t`When the asset was first registered, sealed into which block, and under which public checkpoint.` },
            { key: 'history', icon: <IconGitBranch size={26} />, title: t`Development history`, text: t`Versions and commits registered over time, and the activity and quality scores of the asset network.` },
            { key: 'holder', icon: <IconUsers size={26} />, title: t`Holder and use`, text: t`The enterprise named from its verified licence, its members, and every disclosure to an outside party.` },
          ]}
        />
      </Section>

      <Section id="support" isAlt title={t`How the proof supports a valuation or a policy`}>
        <div className={classes.split}>
          <article className={`${classes.panel} ${classes.panelBlue}`}>
            <h3 className={classes.panelTitle}>
              <Trans>For a valuation</Trans>
            </h3>
            <Ticks items={[t`The assessor verifies each proof independently, offline if needed`, t`The registered history replaces self-declared dates and versions`, t`The report cites the certificates, so a bank or investor can check them too`]} />
          </article>
          <article className={`${classes.panel} ${classes.panelAmber}`}>
            <h3 className={classes.panelTitle}>
              <Trans>For a policy</Trans>
            </h3>
            <Ticks items={[t`The insured assets are listed by fingerprint and registration time`, t`A claim proves prior possession with the certificate, not with witnesses`, t`Disclosure records show who received a trade secret and when`]} />
          </article>
        </div>
      </Section>

      <Section id="steps" title={t`The steps`}>
        <ol className={classes.steps}>
          <li className={classes.step}>
            <h3 className={classes.cardTitle}>{t`Record it on the ledger`}</h3>
            <p className={classes.cardText}>{t`Register the assets to be valued or insured, and keep their proof certificates.`}</p>
          </li>
          <li className={classes.step}>
            <h3 className={classes.cardTitle}>{t`Apply`}</h3>
            <p className={classes.cardText}>{t`Tell us which assets and what you need: a valuation, a policy, or both.`}</p>
          </li>
          <li className={classes.step}>
            <h3 className={classes.cardTitle}>{t`Review`}</h3>
            <p className={classes.cardText}>{t`Our assessment or insurance partner verifies the proofs and reviews the assets with you.`}</p>
          </li>
          <li className={classes.step}>
            <h3 className={classes.cardTitle}>{t`Report or policy`}</h3>
            <p className={classes.cardText}>{t`You receive the valuation report or the policy, citing the registered assets.`}</p>
          </li>
        </ol>
      </Section>

      <section className={classes.section} style={{ paddingTop: 0 }} aria-labelledby="insurance-cta-title">
        <div className={classes.wrap}>
          <div className={classes.cta}>
            <div>
              <h2 className={classes.ctaTitle} id="insurance-cta-title">
                <Trans>Ready to start?</Trans>
              </h2>
              <p className={classes.panelText}>
                <Trans>Leave your details and an adviser will contact you.</Trans>
              </p>
            </div>
            {contact}
          </div>
        </div>
      </section>
      {hasPartnerForm && <PartnerModal opened={isOpen} onClose={modal.close} />}
    </div>
  );
}
