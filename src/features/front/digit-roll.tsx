import { useEffect, useState } from 'react';
import classes from './front.module.css';

const DIGITS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];

/**
 * A number shown digit by digit, each digit rolling from 0 to its value (the
 * partners count). The final value is in the markup from the first paint (and for screen
 * readers, in the label); the roll only runs after mount, and not at all when the visitor
 * asked for reduced motion (the CSS drops the transition).
 */
export function DigitRoll({ value, label }: { value: number; label: string }) {
  const text = String(Math.max(0, Math.floor(value)));
  const [isRolled, setIsRolled] = useState(true);
  useEffect(() => {
    const isReduced = typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    if (isReduced) return;
    setIsRolled(false);
    const frame = requestAnimationFrame(() => requestAnimationFrame(() => setIsRolled(true)));
    return () => cancelAnimationFrame(frame);
  }, [text]);
  return (
    <span className={classes.roll} role="img" aria-label={label} data-testid="digit-roll" data-value={text}>
      {Array.from(text).map((d, i) => (
        <span key={`${text.length}-${i}`} className={classes.digit} aria-hidden>
          <span className={classes.strip} style={{ transform: `translateY(-${(isRolled ? Number(d) : 0) * 10}%)` }}>
            {DIGITS.map((x) => (
              <span key={x}>{x}</span>
            ))}
          </span>
        </span>
      ))}
    </span>
  );
}
