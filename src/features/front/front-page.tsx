import { Button } from '@mantine/core';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  IconBuildingBank,
  IconBuildingCommunity,
  IconBuildingFactory2,
  IconCertificate,
  IconChartDots3,
  IconCloudComputing,
  IconCpu,
  IconDatabase,
  IconFileCertificate,
  IconFlask,
  IconLock,
  IconPalette,
  IconSchool,
  IconServer2,
  IconShieldCheck,
  IconShieldLock,
  IconStack2,
  IconUsersGroup,
  IconWallet,
} from '@tabler/icons-react';
import { Link } from 'wouter';
import { Cards, ChainDrawing, FiguresBand, Section, Ticks } from './sections.tsx';
import classes from './front.module.css';

type Props = { isLoggedIn: boolean; defaultPath: string };

/** The hero's buttons: the dashboard for a signed-in user, register and log in otherwise. */
export function HeroActions({ isLoggedIn, defaultPath }: Props) {
  return (
    <div className={classes.heroActions}>
      {isLoggedIn ? (
        <Button component={Link} href={defaultPath} size="md" color="orange">
          <Trans>Go to my dashboard</Trans>
        </Button>
      ) : (
        <>
          <Button component={Link} href="/signup" size="md" color="orange">
            <Trans>Register now</Trans>
          </Button>
          <Button component={Link} href="/user/login" size="md" variant="white">
            <Trans>Log in</Trans>
          </Button>
        </>
      )}
    </div>
  );
}

/** §2 "Four kinds of assets to protect" (shared by both front pages). */
export function AssetKinds() {
  const { t } = useLingui();
  return (
    <Cards
      columns={4}
      items={[
        { key: 'works', icon: <IconPalette size={26} />, title: t`Creative works`, text: t`Designs, artwork, photographs, video, music, writing and software: the file's fingerprint fixes who held it and when.` },
        { key: 'secrets', icon: <IconLock size={26} />, title: t`Trade secrets and know-how`, text: t`Formulas, processes, customer lists and drawings are registered without ever leaving your vault; only their fingerprint goes on the ledger.` },
        { key: 'research', icon: <IconFlask size={26} />, title: t`Research and data`, text: t`Lab notebooks, experimental data, data sets and models, registered as they are produced, so that priority can be shown step by step.` },
        { key: 'other', icon: <IconStack2 size={26} />, title: t`Other digital assets`, text: t`Source code and commits, contracts, brand material and any other file whose existence and integrity you may one day need to prove.` },
      ]}
    />
  );
}

/** §2 "Four solution audiences". */
export function Solutions() {
  const { t } = useLingui();
  return (
    <Cards
      columns={4}
      items={[
        { key: 'institutes', icon: <IconSchool size={26} />, title: t`Research institutes and universities`, text: t`Register results as they are produced, disclose them to partners under agreement, and prepare transfer and licensing with proof in hand.` },
        { key: 'parks', icon: <IconBuildingCommunity size={26} />, title: t`Industrial parks`, text: t`Give every resident enterprise a ledger account, see the park's digital assets on one map, and connect them with assessment and finance.` },
        { key: 'core', icon: <IconBuildingFactory2 size={26} />, title: t`Core enterprises`, text: t`Protect drawings and processes shared along the supply chain, with member roles, a secured vault and a record of every disclosure.` },
        { key: 'sme', icon: <IconUsersGroup size={26} />, title: t`Small and medium enterprises`, text: t`Start in minutes and pay per registration: proof certificates accepted as evidence, without a legal department of your own.` },
      ]}
    />
  );
}

/** §2 "Digital asset assessment and digital asset insurance" (shared by both front pages). */
export function AssessmentInsurance() {
  const { t } = useLingui();
  return (
    <div className={classes.split}>
      <article className={`${classes.panel} ${classes.panelBlue}`} aria-labelledby="assessment-title">
        <IconChartDots3 size={36} aria-hidden />
        <h3 className={classes.panelTitle} id="assessment-title">
          <Trans>Digital asset assessment</Trans>
        </h3>
        <p className={classes.panelText}>
          <Trans>A registered asset carries its own history: when it was created, how it grew, who worked on it. Assessment partners value it on that record instead of on declarations.</Trans>
        </p>
        <Ticks items={[t`Valuation reports backed by the proof certificate`, t`Activity and quality scores from the asset network`, t`Support for pledge financing and investment`]} />
      </article>
      <article className={`${classes.panel} ${classes.panelAmber}`} aria-labelledby="insurance-title">
        <IconShieldCheck size={36} aria-hidden />
        <h3 className={classes.panelTitle} id="insurance-title">
          <Trans>Digital asset insurance</Trans>
        </h3>
        <p className={classes.panelText}>
          <Trans>Insurers cover the cost of defending your rights and the loss from infringement or leaks, because the ledger shows what you held and since when.</Trans>
        </p>
        <Ticks items={[t`Infringement and rights-defence cover`, t`Trade-secret leak cover for vault projects`, t`Claims supported by independently verifiable proof`]} />
      </article>
      <div style={{ gridColumn: '1 / -1', textAlign: 'center' }}>
        <Button component={Link} href="/insurance" size="md" variant="outline" data-testid="insurance-link" className={classes.wrapButton}>
          <Trans>How assessment and insurance work</Trans>
        </Button>
      </div>
    </div>
  );
}

/** §2 compute-centre section and the two labs (shared by both front pages). */
export function ComputeCentre() {
  const { t } = useLingui();
  return (
    <>
      <Cards
        columns={4}
        items={[
          { key: 'distributed', icon: <IconServer2 size={26} />, title: t`Distributed`, text: t`Ledger and storage nodes in several sites; checkpoints are co-signed by independent witnesses.` },
          { key: 'performance', icon: <IconCpu size={26} />, title: t`High performance`, text: t`Fingerprints are computed in your browser at disk speed, and thousands of registrations are sealed into each block.` },
          { key: 'privacy', icon: <IconShieldLock size={26} />, title: t`Privacy computing`, text: t`Files stay encrypted at rest under keys kept outside the database; proofs reveal a fingerprint, never the content.` },
          { key: 'elastic', icon: <IconCloudComputing size={26} />, title: t`Elastic`, text: t`Capacity grows with demand, from a single enterprise to a whole region's parks and institutions.` },
        ]}
      />
      <div className={classes.labs}>
        <article className={classes.lab}>
          <h3 className={classes.cardTitle}>
            <Trans>Insurance innovation lab</Trans>
          </h3>
          <p className={classes.cardText}>
            <Trans>Works with insurers to design policies for digital assets, priced on registered history and verifiable proof.</Trans>
          </p>
        </article>
        <article className={classes.lab}>
          <h3 className={classes.cardTitle}>
            <Trans>Security lab</Trans>
          </h3>
          <p className={classes.cardText}>
            <Trans>Reviews the cryptography, key custody and ledger of the platform, and publishes its threat model and test vectors.</Trans>
          </p>
        </article>
      </div>
    </>
  );
}

/** §2 front page, default version: the general version's sections. */
export function DefaultFrontPage({ isLoggedIn, defaultPath }: Props) {
  const { t } = useLingui();
  return (
    <div data-testid="front-page">
      <section className={classes.hero} aria-labelledby="front-title">
        <div className={`${classes.wrap} ${classes.heroInner}`}>
          <div>
            <span className={classes.eyebrow}>
              <Trans>Digital intellectual property service platform</Trans>
            </span>
            <h1 className={classes.heroTitle} id="front-title">
              <Trans>Digital intellectual property, registered and provable</Trans>
            </h1>
            <p className={classes.heroSubtitle}>
              <Trans>A full chain of service from creation and use to protection and financing.</Trans>
            </p>
            <HeroActions isLoggedIn={isLoggedIn} defaultPath={defaultPath} />
          </div>
          <ChainDrawing />
        </div>
      </section>
      <FiguresBand />

      <Section id="advantages" title={t`Why enterprises register with us`} lead={t`Three partners stand behind every certificate: the ledger, the law and the market.`}>
        <Cards
          columns={3}
          items={[
            { key: 'ledger', icon: <IconCertificate size={26} />, title: t`A ledger anyone can check`, text: t`Every registration is sealed into a signed block and a public checkpoint; anyone can verify a proof offline, without trusting us.` },
            { key: 'evidence', icon: <IconFileCertificate size={26} />, title: t`Proof that stands as evidence`, text: t`Each certificate is a signed, time-stamped PDF naming the file's fingerprint, the enterprise and the block, ready for a notary or a court.` },
            { key: 'finance', icon: <IconBuildingBank size={26} />, title: t`Partners for value`, text: t`Assessment firms, insurers and banks accept the record, turning registered assets into valuations, policies and financing.` },
          ]}
        />
      </Section>

      <Section id="dkp" isAlt title={t`Digital knowledge property`} lead={t`Most of what an enterprise knows now lives in files. Digital knowledge property is that knowledge made provable: each file tied to its owner and its moment by a fingerprint on a ledger.`}>
        <div className={classes.grid2}>
          <article className={classes.card}>
            <h3 className={classes.cardTitle}>
              <Trans>Rights confirmation</Trans>
            </h3>
            <p className={classes.cardText}>
              <Trans>Your browser computes the file's fingerprint; the file itself is never uploaded unless you choose to store it. The platform records the fingerprint with your enterprise's name from its verified licence, seals it into a block and issues the proof certificate.</Trans>
            </p>
          </article>
          <article className={classes.card}>
            <h3 className={classes.cardTitle}>
              <Trans>Verification by anyone</Trans>
            </h3>
            <p className={classes.cardText}>
              <Trans>A receiver, a judge or a buyer puts the original file and the PDF proof into the verification centre, or runs the open command-line tool, and sees the same answer: registered by whom, when, and unchanged since.</Trans>
            </p>
          </article>
        </div>
        <ol className={classes.steps} style={{ marginTop: 40 }}>
          <li className={classes.step}>
            <h3 className={classes.cardTitle}>{t`Choose the file`}</h3>
            <p className={classes.cardText}>{t`Any format, any size; it is read locally.`}</p>
          </li>
          <li className={classes.step}>
            <h3 className={classes.cardTitle}>{t`Record it on the ledger`}</h3>
            <p className={classes.cardText}>{t`The fingerprint is recorded for your enterprise.`}</p>
          </li>
          <li className={classes.step}>
            <h3 className={classes.cardTitle}>{t`Receive the certificate`}</h3>
            <p className={classes.cardText}>{t`A signed PDF proof, usually within a minute.`}</p>
          </li>
          <li className={classes.step}>
            <h3 className={classes.cardTitle}>{t`Prove it any time`}</h3>
            <p className={classes.cardText}>{t`Original plus proof: verified in seconds.`}</p>
          </li>
        </ol>
      </Section>

      <Section id="protect" title={t`What needs protecting`} lead={t`Four kinds of assets that enterprises register most.`}>
        <AssetKinds />
      </Section>

      <Section id="solutions" isAlt title={t`Solutions`} lead={t`One platform, shaped for four kinds of organisations.`}>
        <Solutions />
      </Section>

      <Section id="value" title={t`From proof to value`} lead={t`A registered asset can be valued and insured.`}>
        <AssessmentInsurance />
      </Section>

      <Section id="compute" isAlt title={t`Compute centre`} lead={t`The infrastructure behind every registration.`}>
        <ComputeCentre />
      </Section>

      <Section id="wallet" title={t`Digital wallet`}>
        <div className={classes.wallet}>
          <div>
            <p className={classes.sectionLead} style={{ marginBottom: 20 }}>
              <Trans>Every enterprise on the platform holds a digital wallet: its certificate and key, its registered assets and the credits it spends on registrations, in one place that its administrators control.</Trans>
            </p>
            <Ticks items={[t`An enterprise certificate issued under the platform's CA, with the key in custody or held by you`, t`Credits topped up by the enterprise and shared out to its members`, t`Every registration, disclosure and certificate listed with its proof`]} />
          </div>
          <div className={classes.walletCard} aria-hidden>
            <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
              <IconWallet size={30} />
              <span>PROVENA · ID</span>
            </div>
            <IconDatabase size={28} />
            <div>
              <div style={{ opacity: 0.8, fontSize: 12 }}>0x5f3a…c9e1.pdf</div>
              <div style={{ fontSize: 20, letterSpacing: '0.12em' }}>•••• •••• 2048</div>
            </div>
          </div>
        </div>
      </Section>

      <section className={classes.section} style={{ paddingTop: 0 }} aria-labelledby="cta-title">
        <div className={classes.wrap}>
          <div className={classes.cta}>
            <div>
              <h2 className={classes.ctaTitle} id="cta-title">
                <Trans>Register your first asset today</Trans>
              </h2>
              <p className={classes.panelText}>
                <Trans>Create an account, verify your enterprise and get a proof certificate in minutes.</Trans>
              </p>
            </div>
            <HeroActions isLoggedIn={isLoggedIn} defaultPath={defaultPath} />
          </div>
        </div>
      </section>
    </div>
  );
}
