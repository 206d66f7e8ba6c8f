import { createHash, createHmac, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.ts';
import type { SmsEnv } from '../env.ts';

/**
 * One text message. `template` names what it says ('code' carries `params.code`;
 * 'disclosure' carries `params.enterprise`, `params.name` and `params.link`); `text` is
 * the whole message for gateways that send free text; `id` identifies it end to end.
 */
export type SmsMessage = {
  id: string;
  phone: string;
  type: number;
  template: 'code' | 'disclosure' | 'alarm';
  params: Record<string, string>;
  text: string;
};

/** Where text messages go: a carrier or gateway in production, the outbox on a developer machine. */
export type SmsProvider = {
  readonly name: SmsEnv['provider'];
  /** Resolves once the gateway accepted the message; throws on any refusal or transport fault. */
  send(message: SmsMessage): Promise<void>;
};

export class SmsDeliveryError extends Error {}

/**
 * The developer's outbox: stores each message (read back at GET /api/dev/sms-outbox from
 * loopback only) and prints it to the log. The only provider under which codes are logged.
 */
export function outboxProvider(db: Db, log: FastifyBaseLogger): SmsProvider {
  return {
    name: 'outbox',
    async send(message) {
      const code = message.params.code ?? '';
      await db.insertInto('sms_outbox').values({ phone: message.phone, code, type: message.type, body: message.text, sent_at: Date.now() }).execute();
      log.info({ sms: { phone: message.phone, type: message.type, code } }, `SMS to ${message.phone}: ${message.text}`);
    },
  };
}

async function post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<{ status: number; text: string }> {
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', body, headers, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new SmsDeliveryError(`SMS gateway unreachable: ${(error as Error).message}`);
  }
  return { status: res.status, text: await res.text() };
}

/** The value of X-Provena-Signature for a raw request body. */
export function webhookSignature(secret: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/**
 * Any gateway: POST JSON { phone, template, params, text, id } to SMS_WEBHOOK_URL, signed
 * with SMS_WEBHOOK_SECRET (X-Provena-Signature: sha256=<hex HMAC-SHA256 of the raw body>).
 * The timestamp header lets the gateway refuse replays; a 2xx answer means accepted.
 */
export function webhookProvider(cfg: { url: string; secret: string; timeoutMs?: number }): SmsProvider {
  return {
    name: 'webhook',
    async send(message) {
      const raw = JSON.stringify({ phone: message.phone, template: message.template, params: message.params, text: message.text, id: message.id });
      const res = await post(
        cfg.url,
        raw,
        {
          'content-type': 'application/json',
          'x-provena-signature': webhookSignature(cfg.secret, raw),
          'x-provena-timestamp': String(Math.floor(Date.now() / 1000)),
        },
        cfg.timeoutMs ?? 10_000,
      );
      if (res.status < 200 || res.status >= 300) throw new SmsDeliveryError(`SMS webhook answered ${res.status}`);
    },
  };
}

/** RFC 3986 encoding as Alibaba Cloud's RPC signature wants it (space %20, * %2A, ~ kept). */
export function aliyunPercentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Signature v1 of an Alibaba Cloud RPC request: base64 HMAC-SHA1 over METHOD&%2F&encode(sorted query). */
export function aliyunSignature(method: string, params: Record<string, string>, accessKeySecret: string): string {
  const canonical = Object.keys(params)
    .sort()
    .map((k) => `${aliyunPercentEncode(k)}=${aliyunPercentEncode(params[k]!)}`)
    .join('&');
  const toSign = `${method}&${aliyunPercentEncode('/')}&${aliyunPercentEncode(canonical)}`;
  return createHmac('sha1', `${accessKeySecret}&`).update(toSign).digest('base64');
}

/**
 * Alibaba Cloud SMS (dysmsapi 2017-05-25 SendSms), signed with RPC signature v1
 * (HMAC-SHA1). The official SDK (@alicloud/dysmsapi20170525) pulls in the whole Tea
 * runtime for one signed POST; the documented signing is 15 lines.
 */
export function aliyunProvider(cfg: { endpoint: string; accessKeyId: string; accessKeySecret: string; signName: string; templates: Record<string, string>; timeoutMs?: number }): SmsProvider {
  return {
    name: 'aliyun',
    async send(message) {
      const template = cfg.templates[message.template];
      if (!template) throw new SmsDeliveryError(`no Aliyun template configured for "${message.template}"`);
      const params: Record<string, string> = {
        AccessKeyId: cfg.accessKeyId,
        Action: 'SendSms',
        Format: 'JSON',
        OutId: message.id,
        PhoneNumbers: message.phone,
        RegionId: 'cn-hangzhou',
        SignName: cfg.signName,
        SignatureMethod: 'HMAC-SHA1',
        SignatureNonce: randomUUID(),
        SignatureVersion: '1.0',
        TemplateCode: template,
        TemplateParam: JSON.stringify(message.params),
        Timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        Version: '2017-05-25',
      };
      const signed = { ...params, Signature: aliyunSignature('POST', params, cfg.accessKeySecret) };
      const body = Object.entries(signed)
        .map(([k, v]) => `${aliyunPercentEncode(k)}=${aliyunPercentEncode(v)}`)
        .join('&');
      const res = await post(cfg.endpoint, body, { 'content-type': 'application/x-www-form-urlencoded' }, cfg.timeoutMs ?? 10_000);
      let code: unknown;
      try {
        code = (JSON.parse(res.text) as { Code?: unknown }).Code;
      } catch {
        code = undefined;
      }
      if (res.status !== 200 || code !== 'OK') throw new SmsDeliveryError(`Aliyun SendSms refused: ${res.status} ${String(code)}`);
    },
  };
}

const sha256Hex = (s: string) => createHash('sha256').update(s).digest('hex');
const hmac256 = (key: string | Buffer, s: string) => createHmac('sha256', key).update(s).digest();

/** TC3-HMAC-SHA256 Authorization header of a Tencent Cloud API 3.0 POST (content-type and host signed). */
export function tencentAuthorization(input: { secretId: string; secretKey: string; service: string; host: string; contentType: string; payload: string; timestamp: number }): string {
  const date = new Date(input.timestamp * 1000).toISOString().slice(0, 10);
  const signedHeaders = 'content-type;host';
  const canonicalRequest = ['POST', '/', '', `content-type:${input.contentType}\nhost:${input.host}\n`, signedHeaders, sha256Hex(input.payload)].join('\n');
  const scope = `${date}/${input.service}/tc3_request`;
  const toSign = ['TC3-HMAC-SHA256', String(input.timestamp), scope, sha256Hex(canonicalRequest)].join('\n');
  const signing = hmac256(hmac256(hmac256(`TC3${input.secretKey}`, date), input.service), 'tc3_request');
  const signature = createHmac('sha256', signing).update(toSign).digest('hex');
  return `TC3-HMAC-SHA256 Credential=${input.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}

/**
 * Tencent Cloud SMS (API 3.0 SendSms, version 2021-01-11), signed with TC3-HMAC-SHA256.
 * The official SDK (tencentcloud-sdk-nodejs) bundles every Tencent product's client; the
 * documented signing is a few HMACs.
 */
export function tencentProvider(cfg: { endpoint: string; secretId: string; secretKey: string; sdkAppId: string; signName: string; region: string; templates: Record<string, string>; timeoutMs?: number }): SmsProvider {
  const host = new URL(cfg.endpoint).host;
  return {
    name: 'tencent',
    async send(message) {
      const template = cfg.templates[message.template];
      if (!template) throw new SmsDeliveryError(`no Tencent template configured for "${message.template}"`);
      const order = message.template === 'code' ? ['code'] : message.template === 'alarm' ? ['application', 'state'] : ['enterprise', 'name', 'link'];
      const payload = JSON.stringify({
        PhoneNumberSet: [`+86${message.phone}`],
        SmsSdkAppId: cfg.sdkAppId,
        SignName: cfg.signName,
        TemplateId: template,
        TemplateParamSet: order.map((k) => message.params[k] ?? ''),
        SessionContext: message.id,
      });
      const contentType = 'application/json; charset=utf-8';
      const timestamp = Math.floor(Date.now() / 1000);
      const res = await post(
        cfg.endpoint,
        payload,
        {
          'content-type': contentType,
          host,
          'x-tc-action': 'SendSms',
          'x-tc-version': '2021-01-11',
          'x-tc-region': cfg.region,
          'x-tc-timestamp': String(timestamp),
          authorization: tencentAuthorization({ secretId: cfg.secretId, secretKey: cfg.secretKey, service: 'sms', host, contentType, payload, timestamp }),
        },
        cfg.timeoutMs ?? 10_000,
      );
      let status: unknown;
      let error: unknown;
      try {
        const parsed = JSON.parse(res.text) as { Response?: { Error?: { Code?: string }; SendStatusSet?: { Code?: string }[] } };
        error = parsed.Response?.Error?.Code;
        status = parsed.Response?.SendStatusSet?.[0]?.Code;
      } catch {
        status = undefined;
      }
      if (res.status !== 200 || error || status !== 'Ok') throw new SmsDeliveryError(`Tencent SendSms refused: ${res.status} ${String(error ?? status)}`);
    },
  };
}

/** The provider SMS_PROVIDER names, built from its validated settings. */
export function providerFromEnv(sms: SmsEnv, db: Db, log: FastifyBaseLogger): SmsProvider {
  switch (sms.provider) {
    case 'outbox':
      return outboxProvider(db, log);
    case 'webhook':
      return webhookProvider({ url: sms.webhookUrl!, secret: sms.webhookSecret! });
    case 'aliyun':
      return aliyunProvider({ endpoint: sms.endpoint!, accessKeyId: sms.keyId!, accessKeySecret: sms.keySecret!, signName: sms.signName!, templates: sms.templates });
    case 'tencent':
      return tencentProvider({
        endpoint: sms.endpoint!,
        secretId: sms.keyId!,
        secretKey: sms.keySecret!,
        sdkAppId: sms.sdkAppId!,
        signName: sms.signName!,
        region: sms.region ?? 'ap-guangzhou',
        templates: sms.templates,
      });
  }
}

/**
 * Retries a failed delivery with exponential backoff (`delaysMs` between attempts);
 * throws the last error once they are spent.
 */
export function withRetries(provider: SmsProvider, delaysMs: readonly number[], log: FastifyBaseLogger): SmsProvider {
  return {
    name: provider.name,
    async send(message) {
      for (let attempt = 0; ; attempt += 1) {
        try {
          await provider.send(message);
          return;
        } catch (error) {
          const delay = delaysMs[attempt];
          log.warn({ sms: { id: message.id, type: message.type, attempt: attempt + 1 }, err: error }, 'SMS delivery failed');
          if (delay === undefined) throw error;
          await new Promise((r) => setTimeout(r, delay));
        }
      }
    },
  };
}
