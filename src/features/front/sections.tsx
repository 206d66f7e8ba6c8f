import { Suspense, type ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { IconCircleCheck } from '@tabler/icons-react';
import { usePublicFigures } from './figures-atom.ts';
import classes from './front.module.css';

/** Building blocks of the public pages: plain HTML that reads the same before and after the JS loads. */

export function Section({ id, isAlt = false, title, lead, children, labelledBy }: { id?: string; isAlt?: boolean; title: ReactNode; lead?: ReactNode; children: ReactNode; labelledBy?: string }) {
  const headingId = labelledBy ?? (id ? `${id}-title` : undefined);
  // Each section is a Suspense boundary: hydrating the server's HTML, React takes the page over
  // section by section in short tasks (boundaries hydrate at a lower, time-sliced priority)
  // instead of one long task that blocks the main thread. Nothing inside suspends.
  return (
    <Suspense fallback={null}>
      <section id={id} className={`${classes.section} ${isAlt ? classes.sectionAlt : ''}`} aria-labelledby={headingId}>
        <div className={classes.wrap}>
          <div className={classes.sectionHead}>
            <h2 className={classes.sectionTitle} id={headingId}>
              {title}
            </h2>
            {lead && <p className={classes.sectionLead}>{lead}</p>}
          </div>
          {children}
        </div>
      </section>
    </Suspense>
  );
}

export type CardItem = { key: string; icon: ReactNode; title: ReactNode; text: ReactNode };

export function Cards({ items, columns, isGov = false }: { items: CardItem[]; columns: 3 | 4; isGov?: boolean }) {
  return (
    <ul className={columns === 3 ? classes.grid3 : classes.grid4} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {items.map((item) => (
        <li key={item.key} className={`${classes.card} ${isGov ? classes.cardGov : ''}`} data-testid={`card-${item.key}`}>
          <span className={classes.cardIcon} aria-hidden>
            {item.icon}
          </span>
          <h3 className={classes.cardTitle}>{item.title}</h3>
          <p className={classes.cardText}>{item.text}</p>
        </li>
      ))}
    </ul>
  );
}

export function Ticks({ items }: { items: ReactNode[] }) {
  return (
    <ul className={classes.ticks}>
      {items.map((item, i) => (
        <li key={i}>
          <IconCircleCheck size={20} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}

/** The chained-blocks drawing of the hero. */
export function ChainDrawing({ litIndex = 4 }: { litIndex?: number }) {
  return (
    <div className={classes.chain} aria-hidden>
      {Array.from({ length: 9 }, (_, i) => (
        <div key={i} className={`${classes.block} ${i === litIndex ? classes.blockLit : ''}`}>
          #{(1024 + i).toString(16)}
        </div>
      ))}
    </div>
  );
}

/** Registrations, enterprises and blocks, live (cached on the server). */
export function FiguresBand() {
  const { t, i18n } = useLingui();
  const figures = usePublicFigures();
  const value = (n: number | undefined) => (n === undefined ? '—' : i18n.number(n));
  const items = [
    { key: 'registrations', label: t`Registrations on the ledger`, value: value(figures?.registrations) },
    { key: 'enterprises', label: t`Enterprises on the platform`, value: value(figures?.enterprises) },
    { key: 'blocks', label: t`Blocks sealed`, value: value(figures?.blocks) },
  ];
  return (
    <div className={classes.wrap}>
      <dl className={classes.figures} data-testid="front-figures" style={{ margin: '-36px 0 0' }}>
        {items.map((item) => (
          <div key={item.key} className={classes.figure}>
            <dt className={classes.figureLabel}>{item.label}</dt>
            <dd className={classes.figureValue} style={{ margin: 0 }} data-testid={`figure-${item.key}`}>
              {item.value}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
