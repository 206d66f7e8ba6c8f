import { useLocation } from 'wouter';
import { useConfig } from '@/config/config-atom.ts';

/**
 * Which front-page variant the public layout is drawn for (§2): the government page is the
 * xian variant wherever it is shown; elsewhere the deployment's frontPageVersion decides.
 */
export function useFrontVariant(): 'default' | 'xian' {
  const config = useConfig();
  const [location] = useLocation();
  return location === '/government' ? 'xian' : config.frontPageVersion;
}
