import { Button } from '@mantine/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { IconBuildingBank, IconBuildingCommunity, IconCertificate, IconChartDots3, IconSchool, IconSearch, IconShieldCheck } from '@tabler/icons-react';
import { Link } from 'wouter';
import { AssessmentInsurance, AssetKinds, ComputeCentre, HeroActions } from './front-page.tsx';
import { Cards, ChainDrawing, FiguresBand, Section } from './sections.tsx';
import classes from './front.module.css';

type Props = { isLoggedIn: boolean; defaultPath: string; hasPartners: boolean };

/** §2 government front page (frontPageVersion "xian"): four centres and one network, success cases. */
export function GovernmentFrontPage({ isLoggedIn, defaultPath, hasPartners }: Props) {
  const { t } = useLingui();
  return (
    <div data-testid="government-page">
      <section className={`${classes.hero} ${classes.heroGov}`} aria-labelledby="gov-title">
        <div className={`${classes.wrap} ${classes.heroInner}`}>
          <div>
            <span className={classes.eyebrow}>
              <Trans>Regional digital intellectual property infrastructure</Trans>
            </span>
            <h1 className={classes.heroTitle} id="gov-title">
              <Trans>Four centres and one network for the region's digital assets</Trans>
            </h1>
            <p className={classes.heroSubtitle}>
              <Trans>Registration, verification, assessment and protection for every enterprise, university and park in the region, joined by one asset network the public can check.</Trans>
            </p>
            <HeroActions isLoggedIn={isLoggedIn} defaultPath={defaultPath} />
          </div>
          <ChainDrawing litIndex={2} />
        </div>
      </section>
      <FiguresBand />

      <Section id="four-centres" title={t`The four-centres-one-network solution`} lead={t`Four public service centres share one ledger: what one centre records, the others can rely on.`}>
        <div className={classes.network}>
          {[
            { key: 'registration', area: 'a', icon: <IconCertificate size={26} />, title: t`Registration centre`, text: t`Confirms rights in digital knowledge property: enterprises register files, trade secrets and source code and receive proof certificates.` },
            { key: 'verification', area: 'b', icon: <IconSearch size={26} />, title: t`Asset verification centre`, text: t`Open to everyone: courts, notaries, buyers and receivers check a file against its proof without an account.` },
            { key: 'assessment', area: 'c', icon: <IconChartDots3 size={26} />, title: t`Assessment centre`, text: t`Values registered assets with accredited assessment firms, on the history the ledger keeps, for pledge financing and investment.` },
            { key: 'protection', area: 'd', icon: <IconShieldCheck size={26} />, title: t`Protection centre`, text: t`Brings insurers, law firms and the authorities together to insure assets, defend rights and settle disputes on verifiable evidence.` },
          ].map((centre) => (
            <article key={centre.key} className={`${classes.card} ${classes.cardGov}`} style={{ gridArea: centre.area }} data-testid={`centre-${centre.key}`}>
              <span className={classes.cardIcon} aria-hidden>
                {centre.icon}
              </span>
              <h3 className={classes.cardTitle}>{centre.title}</h3>
              <p className={classes.cardText}>{centre.text}</p>
            </article>
          ))}
          <div className={classes.networkBand}>
            <Trans>One network: the regional asset network, a tamper-evident ledger with public checkpoints that links all four centres</Trans>
          </div>
        </div>
      </Section>

      <Section id="cases" isAlt title={t`Success cases`} lead={t`How institutions in the region use the platform.`}>
        <Cards
          columns={3}
          isGov
          items={[
            { key: 'park', icon: <IconBuildingCommunity size={26} />, title: t`A high-tech industrial park`, text: t`Opened ledger accounts for its resident enterprises, lit them up on the park's asset map and now reviews their digital assets each quarter with the park's finance partners.` },
            { key: 'university', icon: <IconSchool size={26} />, title: t`A university technology-transfer office`, text: t`Registers lab results as they are produced and discloses them to licensees under confidentiality agreements, with every download on record.` },
            { key: 'finance', icon: <IconBuildingBank size={26} />, title: t`A regional bank and insurer`, text: t`Accept the platform's proof certificates in their review of pledge loans and rights-defence policies for small and medium enterprises.` },
          ]}
        />
      </Section>

      <Section id="gov-protect" title={t`What needs protecting`} lead={t`Four kinds of assets that enterprises register most.`}>
        <AssetKinds />
      </Section>

      <Section id="gov-value" isAlt title={t`From proof to value`} lead={t`A registered asset can be valued and insured.`}>
        <AssessmentInsurance />
      </Section>

      <Section id="gov-compute" title={t`Compute centre`} lead={t`The infrastructure behind every registration.`}>
        <ComputeCentre />
      </Section>

      {hasPartners && (
        <section className={classes.section} style={{ paddingTop: 0 }} aria-labelledby="gov-cta-title">
          <div className={classes.wrap}>
            <div className={classes.cta} style={{ background: '#7a1414' }}>
              <div>
                <h2 className={classes.ctaTitle} id="gov-cta-title">
                  <Trans>Join the regional asset network</Trans>
                </h2>
                <p className={classes.panelText}>
                  <Trans>Parks, institutions and service firms: become a partner of the platform.</Trans>
                </p>
              </div>
              <Button component={Link} href="/partners" size="md" color="orange">
                <Trans>Become a partner</Trans>
              </Button>
            </div>
          </div>
        </section>
      )}
    </div>
  );
}
