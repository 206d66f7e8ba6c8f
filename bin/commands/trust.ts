import { FINGERPRINT, fetchPlatformRoots, readTrustedRoots, trustFile, writeTrustedRoots } from '../trust-store.ts';

const USAGE = `usage:
  provena trust add <platform URL>   fetch the platform's roots (/api/v1/ledger/platform-roots), print and pin them
  provena trust list                 the pinned roots
  provena trust remove <fingerprint> unpin a root
Pinned roots live in $XDG_CONFIG_HOME/provena/trust.json (default ~/.config/provena).
`;

/** `provena trust add|list|remove`: the platform roots `provena verify` trusts. */
export const trustCommand = {
  summary: 'pin, list or unpin the platform roots verify trusts',
  usage: 'trust add <platform URL> | list | remove <fingerprint>',
  help: USAGE,
  async run(args: string[]): Promise<number> {
    const [action, arg, ...rest] = args;
    const usage = () => {
      process.stderr.write(USAGE);
      return 2;
    };
    if (rest.length > 0) return usage();
    let roots;
    try {
      roots = readTrustedRoots();
    } catch (error) {
      process.stderr.write(`provena trust: cannot read ${trustFile()}: ${error instanceof Error ? error.message : String(error)}\n`);
      return 2;
    }
    if (action === 'list' && arg === undefined) {
      if (roots.length === 0) process.stdout.write(`no pinned platform roots (${trustFile()})\n`);
      for (const r of roots) process.stdout.write(`${r.fingerprint}  ${r.platform}  added ${r.added_at}\n`);
      return 0;
    }
    if (action === 'remove' && arg !== undefined) {
      const fp = arg.toLowerCase();
      if (!FINGERPRINT.test(fp)) return usage();
      if (!roots.some((r) => r.fingerprint === fp)) {
        process.stderr.write(`provena trust: ${fp} is not pinned\n`);
        return 1;
      }
      writeTrustedRoots(roots.filter((r) => r.fingerprint !== fp));
      process.stdout.write(`removed ${fp}\n`);
      return 0;
    }
    if (action === 'add' && arg !== undefined) {
      let platform: URL;
      try {
        platform = new URL(arg);
        if (platform.protocol !== 'https:' && platform.protocol !== 'http:') throw new Error('not http(s)');
      } catch {
        process.stderr.write(`provena trust: "${arg}" is not an http(s) URL\n`);
        return 2;
      }
      let fetched;
      try {
        fetched = await fetchPlatformRoots(platform.origin);
      } catch (error) {
        process.stderr.write(`provena trust: cannot fetch the platform roots: ${error instanceof Error ? error.message : String(error)}\n`);
        return 1;
      }
      if (platform.protocol === 'http:') process.stderr.write('provena trust: warning: fetched over plain http; compare the fingerprint with one the platform publishes elsewhere\n');
      const now = new Date().toISOString();
      const added = fetched.filter((f) => !roots.some((r) => r.fingerprint === f.fingerprint));
      writeTrustedRoots([...roots, ...added.map((f) => ({ fingerprint: f.fingerprint, platform: platform.origin, added_at: now }))]);
      for (const f of fetched) process.stdout.write(`${added.includes(f) ? 'pinned' : 'already pinned'} ${f.fingerprint}  (${platform.origin})\n`);
      return 0;
    }
    return usage();
  },
};
