/**
 * Disclosures of stored files to outside receivers (§3 disclosure record, §4 receipt
 * flow, §9 status above 4 = expired). Shared by the server and the browser.
 */

/** disclosure_status: the furthest step the receiver reached; above 4 the link is dead (§9). */
export const DISCLOSURE_STATUS = {
  sent: 1,
  identityVerified: 2,
  agreementAccepted: 3,
  downloaded: 4,
  expired: 5,
  revoked: 6,
} as const;
export type DisclosureStatus = (typeof DISCLOSURE_STATUS)[keyof typeof DISCLOSURE_STATUS];

export const isDisclosureDead = (status: number) => status > 4;

/** Events on a disclosure's history, in the order they normally happen. */
export const DISCLOSURE_EVENTS = ['sent', 'identity_verified', 'agreement_accepted', 'downloaded', 'expired', 'revoked'] as const;
export type DisclosureEvent = (typeof DISCLOSURE_EVENTS)[number];

/** SMS types of this area beside §7's 8 (receiver code): the sender's confirmation code and the receiver's link message. */
export const DISCLOSURE_SMS_TYPES = { receiverCode: 8, senderConfirm: 19, receiverLink: 20 } as const;

/** Disclosure ids: 130 random bits in lowercase base32 (26 characters), not guessable. */
export const DISCLOSURE_ID_PATTERN = /^[a-z2-7]{26}$/;

/** §3 asset types, numbered in the order the spec lists them. */
export const ASSET_TYPE_IDS = [1, 2, 3, 4, 5, 6, 7, 8] as const;

/** Expiry choices offered to the sender (days); the server accepts 1 to 3650. */
export const EXPIRY_DAY_CHOICES = [1, 3, 7, 30, 90] as const;
export const MAX_EXPIRY_DAYS = 3650;

/** How long a download link lives once issued, and a verified receiver session. */
export const FILE_LINK_TTL_MS = 5 * 60 * 1000;
export const RECEIPT_SESSION_TTL_MS = 30 * 60 * 1000;

/**
 * The confidentiality agreement the receiver accepts (§4: three pledges and a legal
 * warning). This canonical text is what the receipt on the ledger refers to (its SHA-256
 * is kept with the receipt); the screens show it translated.
 */
export const AGREEMENT_VERSION = 1;
export const AGREEMENT_TEXT = [
  'Provena 文件保密承诺 v1',
  '1. 对所接收的文件严格保密。',
  '2. 不泄露文件内容。',
  '3. 不复制、不再创作文件内容。',
  '接收文件即表示您承担相应的法律责任。',
].join('\n');

/** The view a disclosure shows to anyone who holds its link. */
export type DisclosurePublicDto = {
  disclosure_id: string;
  disclosure_status: number;
  /** Only the last 4 digits (§2). */
  received_phone: string;
  name: string;
  store_name: string;
  enterprise_name: string;
  size: number;
  /** The caller's own progress in this browser: 0 none, 2 verified, 3 accepted. */
  step: number;
};

/** `receipt_dna`: on a download, the ledger entry that records the receipt. */
export type DisclosureEventDto = { kind: DisclosureEvent; at: number; receipt_dna?: string };

/** The sender's view: everything, with the history. */
export type DisclosureRecordDto = {
  disclosure_id: string;
  disclosure_status: number;
  hash: string;
  name: string;
  received_phone: string;
  store_name: string;
  type: number;
  store_forever: boolean;
  expires_at: number | null;
  created_at: number;
  size: number;
  sender_name: string;
  events: DisclosureEventDto[];
};

export type StoredFileDto = { hash: string; name: string; size: number; stored_at: number };

/** POST /v2/disclosures: what the sender's browser sends and the service checks. */
export type CreateDisclosureInput = {
  hash: string;
  name: string;
  received_phone: string;
  store_name: string;
  type: number;
  validation_code: string;
  store_forever: boolean;
  /** Required unless store_forever: when the link dies (ms since the epoch, in the future, within MAX_EXPIRY_DAYS). */
  expires_at?: number;
};
