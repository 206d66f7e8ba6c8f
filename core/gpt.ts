/**
 * The chat assistant: the API shapes of /api/v1/gpt, shared by the server and
 * the browser, and the limits both sides check.
 */

/** A question's longest text (characters). */
export const GPT_CONTENT_MAX = 4000;
/** A conversation title's longest text. */
export const GPT_TITLE_MAX = 100;
/** The largest attached proof PDF (bytes, before base64). */
export const GPT_ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;

export type GptEngineName = 'builtin' | 'openai';

/** Something an answer rests on: a help page, or one of the caller's own records. */
export type GptCitation = {
  kind: 'help' | 'asset' | 'vault_file' | 'credit' | 'vault_log' | 'verification' | 'application';
  /** What the user reads: a help page title, or an asset's file name. */
  title: string;
  /** An in-app path (e.g. /dashboard/asset/detail/pv…), or null. */
  link: string | null;
  dna?: string;
  /** The proof's generation time (ms), when it is generated. */
  proof_at?: number | null;
  registered_at?: number;
};

export type GptConversationDto = {
  id: number;
  title: string;
  created_at: number;
  /** The newest message's time (ms), or the creation time for an empty conversation. */
  last_message_at: number;
  message_count: number;
};

export type GptMessageDto = {
  id: number;
  role: 'user' | 'assistant';
  content: string;
  citations: GptCitation[];
  /** 'done', 'stopped' (the user stopped it; what came is kept) or 'error'. */
  status: 'done' | 'stopped' | 'error';
  engine: GptEngineName | null;
  created_at: number;
};

export type GptConversationDetail = GptConversationDto & { messages: GptMessageDto[] };

/** What the assistant screen needs to say about itself. */
export type GptInfo = {
  engine: GptEngineName;
  /** The model's name when an outside model answers. */
  model: string | null;
  /** Whether file names, metadata and vault data may reach the outside model. */
  sends_enterprise_data: boolean;
};

/** A proof the user attaches: the PDF (base64) and the original file's §3 identity or SHA-256. */
export type GptAttachment = { name: string; proof_base64: string; original_hash: string };

export type GptSendBody = { content: string; attachment?: GptAttachment };

/** One `data:` line of the answer stream. */
export type GptStreamEvent =
  | { delta: string }
  | { tool: string }
  | { done: true; message_id: number; citations: GptCitation[]; status: 'done' | 'stopped' }
  | { error: string };
