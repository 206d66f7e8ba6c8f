import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, SERVER_EXCEPTION } from './client.ts';
import { downloadFile } from './download.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('downloadFile', () => {
  it('saves the answer under the given name, sending credentials', async () => {
    const fetchMock = vi.fn(async () => new Response('%PDF-1.7', { status: 200, headers: { 'content-type': 'application/pdf' } }));
    vi.stubGlobal('fetch', fetchMock);
    const link = { href: '', download: '', click: vi.fn(), remove: vi.fn() };
    const append = vi.fn();
    vi.stubGlobal('document', { createElement: () => link, body: { append } });
    const saved: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      saved.push(blob as Blob);
      return 'blob:proof';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    await downloadFile('/api/v1/assets/X/proof', 'provena-proof-X.pdf');
    expect((fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].credentials).toBe('include');
    expect(link).toMatchObject({ href: 'blob:proof', download: 'provena-proof-X.pdf' });
    expect(link.click).toHaveBeenCalledOnce();
    expect(await saved[0]!.text()).toBe('%PDF-1.7');
    expect(saved[0]!.type).toBe('application/pdf');
  });

  it('rejects with the §8 key and field of a 400, and as a server exception otherwise', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{"message":"vault_login_status_expired","field_name":"file_id"}', { status: 400 })));
    const refused = await downloadFile('/x', 'x.pdf').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 400, kind: 'client', key: 'vault_login_status_expired', fieldName: 'file_id' });
    vi.stubGlobal('fetch', vi.fn(async () => new Response('<html>bad gateway</html>', { status: 502 })));
    await expect(downloadFile('/x', 'x.pdf')).rejects.toMatchObject({ status: 502, kind: 'exception', rawMessage: SERVER_EXCEPTION });
  });
});
