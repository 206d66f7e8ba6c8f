import { useEffect } from 'react';
import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Trans, useLingui } from '@lingui/react/macro';
import { IconBuildingBank, IconChartDots3, IconHeartHandshake, IconNetwork, IconRocket, IconUsersGroup } from '@tabler/icons-react';
import { useAtom } from 'jotai';
import { DigitRoll } from './digit-roll.tsx';
import { publicFiguresAtom } from './figures-atom.ts';
import { fetchPartnerTotal } from './partner-api.ts';
import { LazyPartnerModal as PartnerModal } from './partner-modal-lazy.tsx';
import { Cards, Section, Ticks } from './sections.tsx';
import classes from './front.module.css';

/** The enterprise count of the partners page: from the prerendered figures, refreshed from /partners/total. */
function usePartnerTotal(): number | null {
  const [figures, setFigures] = useAtom(publicFiguresAtom);
  useEffect(() => {
    const controller = new AbortController();
    fetchPartnerTotal(controller.signal).then(
      ({ total }) => setFigures((f) => (f ? (f.enterprises === total ? f : { ...f, enterprises: total }) : { registrations: 0, blocks: 0, enterprises: total })),
      () => undefined,
    );
    return () => controller.abort();
  }, [setFigures]);
  return figures?.enterprises ?? null;
}

/** §2 partners: the live enterprise count digit by digit and the join form (only with a cooperation company). */
export function PartnersPage({ companyName }: { companyName: string }) {
  const { t, i18n } = useLingui();
  const total = usePartnerTotal();
  const [isOpen, modal] = useDisclosure(false);
  const formatted = total === null ? '' : i18n.number(total);
  return (
    <div data-testid="partners-page">
      <section className={classes.hero} aria-labelledby="partners-title">
        <div className={classes.wrap} style={{ paddingTop: 72, paddingBottom: 80, textAlign: 'center' }}>
          <span className={classes.eyebrow}>{companyName}</span>
          <h1 className={classes.heroTitle} id="partners-title">
            <Trans>Grow with the digital asset network</Trans>
          </h1>
          <p className={classes.heroSubtitle} style={{ margin: '0 auto 28px' }}>
            <Trans>Enterprises already on the platform</Trans>
          </p>
          <div style={{ marginBottom: 32 }}>{total !== null && <DigitRoll value={total} label={t`${formatted} enterprises`} />}</div>
          <Button size="lg" color="orange" onClick={modal.open} data-testid="partner-join" className={classes.wrapButton}>
            <Trans>Join as a partner</Trans>
          </Button>
        </div>
      </section>

      <Section id="partner-benefits" title={t`Why become a partner`} lead={t`Partners bring the platform to enterprises and services to their assets.`}>
        <Cards
          columns={3}
          items={[
            { key: 'customers', icon: <IconUsersGroup size={26} />, title: t`Reach registered enterprises`, text: t`Offer your services to enterprises that already hold verified, registered digital assets.` },
            { key: 'data', icon: <IconChartDots3 size={26} />, title: t`Work on verifiable records`, text: t`Assess, insure or finance on proof anyone can check, instead of on paperwork.` },
            { key: 'support', icon: <IconHeartHandshake size={26} />, title: t`Support from our team`, text: t`Training, co-marketing and a partner manager who answers within a working day.` },
          ]}
        />
      </Section>

      <Section id="partner-methods" isAlt title={t`Ways to cooperate`}>
        <div className={classes.grid2}>
          <article className={classes.card}>
            <span className={classes.cardIcon} aria-hidden>
              <IconNetwork size={26} />
            </span>
            <h3 className={classes.cardTitle}>
              <Trans>Channel and technology partners</Trans>
            </h3>
            <Ticks items={[t`Resell the platform to enterprises in your region or sector`, t`Integrate registration and verification into your own products`]} />
          </article>
          <article className={classes.card}>
            <span className={classes.cardIcon} aria-hidden>
              <IconBuildingBank size={26} />
            </span>
            <h3 className={classes.cardTitle}>
              <Trans>Service partners, parks and institutions</Trans>
            </h3>
            <Ticks items={[t`Assessment, insurance and legal services on registered assets`, t`Ledger accounts and an asset map for your park or institution`]} />
          </article>
        </div>
        <div style={{ textAlign: 'center', marginTop: 32 }}>
          <Button size="md" leftSection={<IconRocket size={18} />} onClick={modal.open}>
            <Trans>Apply now</Trans>
          </Button>
        </div>
      </Section>
      <PartnerModal opened={isOpen} onClose={modal.close} />
    </div>
  );
}
