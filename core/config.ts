/**
 * The deployment configuration (§9 flags and constants). One JSON document with
 * these defaults, overridable by a file (PROVENA_CONFIG), served to the browser at
 * /config.json so that a deployment switches features without a rebuild.
 */
export type MenuVisibility = {
  disclosure: boolean;
  application: boolean;
  copyright: boolean;
  credit: boolean;
  gpt: boolean;
  chart: boolean;
};

/** The cooperation-company setting: at least the company's name. */
export type CooperationConfig = { name: string };

export type DeploymentConfig = {
  webTitle: string;
  defaultPage: string;
  frontPageAvailable: boolean;
  frontPageVersion: 'default' | 'xian';
  allowPhoneLogin: boolean;
  allowUserNameLogin: boolean;
  allowRegister: boolean;
  allowRegisterName: boolean;
  allowResetPassword: boolean;
  requirePhoneValidation: boolean;
  skipPhoneValidation: boolean;
  /** §9 "integral required": registrations cost credits (false: they are free and record no charge). */
  integralRequired: boolean;
  multiCompany: boolean;
  allowAddMember: boolean;
  asyncProof: boolean;
  needEnterpriseAuth: boolean;
  needRealPersonAndCompanyAuth: boolean;
  realAuthNeedOCR: boolean;
  allowUploadFileDescription: boolean;
  strongPassword: boolean;
  apiContainBigint: boolean;
  navbarLogoImageName: string;
  serviceSystem: string;
  corporationCompany: string | null;
  /**
   * The cooperation company that recruits partners: with it, /partners and
   * /api/v1/partners/* exist; null (the default) answers 404 there.
   */
  cooperation: CooperationConfig | null;
  fileVerifyCenterText: string;
  chainBrowserUrl: string;
  chainBrowserHome: string;
  contactEmail: string;
  filingNumber: { default: string; xian: string };
  /** §9 credits per registration, charged to the registering member when integralRequired is on; applicationFile: per file an external application registers, charged to its owner. */
  credits: { assetRegistration: number; vaultFile: number; commit: number; applicationFile: number };
  /** How long an SMS-unlocked vault stays open, bound to the login session. */
  vaultSessionSeconds: number;
  tablePageSize: number;
  menu: MenuVisibility;
  api: { base: string; verifyBase: string; scoreBase: string };
  /** §2 asset map: uuid of the one enterprise whose node opens its score page on double-click (null: none). */
  assetMapScoreEnterprise: string | null;
};

export const DEFAULT_CONFIG: DeploymentConfig = {
  webTitle: 'Provena',
  defaultPage: 'home',
  frontPageAvailable: false,
  frontPageVersion: 'default',
  allowPhoneLogin: true,
  allowUserNameLogin: false,
  allowRegister: true,
  allowRegisterName: true,
  allowResetPassword: true,
  requirePhoneValidation: true,
  skipPhoneValidation: true,
  integralRequired: true,
  multiCompany: true,
  allowAddMember: true,
  asyncProof: true,
  needEnterpriseAuth: true,
  needRealPersonAndCompanyAuth: true,
  realAuthNeedOCR: false,
  allowUploadFileDescription: false,
  strongPassword: false,
  apiContainBigint: false,
  navbarLogoImageName: 'logo.svg',
  serviceSystem: '/',
  corporationCompany: null,
  cooperation: null,
  fileVerifyCenterText: '',
  chainBrowserUrl: '/explorer',
  chainBrowserHome: '/explorer',
  contactEmail: 'contact@provena.example',
  filingNumber: { default: '陕ICP备00000000号', xian: '陕ICP备00000001号' },
  credits: { assetRegistration: 200, vaultFile: 1000, commit: 0, applicationFile: 10 },
  vaultSessionSeconds: 30 * 60,
  tablePageSize: 10,
  menu: { disclosure: true, application: true, copyright: true, credit: true, gpt: true, chart: false },
  api: { base: '/api', verifyBase: '/verify-api', scoreBase: '/score-api' },
  assetMapScoreEnterprise: null,
};

type Issue = { path: string; problem: string };

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Deep-merges an override onto the defaults, rejecting unknown keys and values of
 * the wrong type so that a typo in a deployment file fails at boot, not at runtime.
 */
export function mergeConfig(base: DeploymentConfig, override: unknown): { config: DeploymentConfig; issues: Issue[] } {
  const issues: Issue[] = [];
  function merge(target: Record<string, unknown>, patch: unknown, path: string): Record<string, unknown> {
    if (!isPlainObject(patch)) {
      issues.push({ path: path || '(root)', problem: 'must be an object' });
      return target;
    }
    const out: Record<string, unknown> = { ...target };
    for (const [key, value] of Object.entries(patch)) {
      const here = path ? `${path}.${key}` : key;
      if (!(key in target)) {
        issues.push({ path: here, problem: 'unknown setting' });
        continue;
      }
      const current = target[key];
      if (key === 'cooperation' && path === '') {
        // A nullable object: null, or { name } with a non-empty name.
        if (value === null) out[key] = null;
        else if (!isPlainObject(value) || typeof value.name !== 'string' || !value.name.trim()) issues.push({ path: here, problem: 'must be null or an object with a non-empty name' });
        else if (Object.keys(value).some((k) => k !== 'name')) issues.push({ path: here, problem: 'only name is known' });
        else out[key] = { name: value.name.trim() };
        continue;
      }
      if (isPlainObject(current)) {
        out[key] = merge(current, value, here);
      } else if (current === null) {
        if (value !== null && typeof value !== 'string') issues.push({ path: here, problem: 'must be a string or null' });
        else out[key] = value;
      } else if (typeof value !== typeof current) {
        issues.push({ path: here, problem: `must be a ${typeof current}` });
      } else {
        out[key] = value;
      }
    }
    return out;
  }
  const config = merge(base as unknown as Record<string, unknown>, override, '') as unknown as DeploymentConfig;
  if (config.frontPageVersion !== 'default' && config.frontPageVersion !== 'xian') {
    issues.push({ path: 'frontPageVersion', problem: "must be 'default' or 'xian'" });
  }
  if (!Number.isInteger(config.vaultSessionSeconds) || config.vaultSessionSeconds < 1 || config.vaultSessionSeconds > 24 * 60 * 60) {
    issues.push({ path: 'vaultSessionSeconds', problem: 'must be a whole number of seconds from 1 to 86400' });
  }
  for (const key of ['assetRegistration', 'vaultFile', 'commit', 'applicationFile'] as const) {
    const price = config.credits[key];
    if (!Number.isInteger(price) || price < 0 || price > 100_000_000) issues.push({ path: `credits.${key}`, problem: 'must be a whole number of credits from 0 to 100000000' });
  }
  if (!config.allowPhoneLogin && !config.allowUserNameLogin) {
    issues.push({ path: 'allowPhoneLogin', problem: 'at least one of allowPhoneLogin and allowUserNameLogin must be on' });
  }
  return { config, issues };
}
