/**
 * The chat assistant's settings, read with the rest of the environment at boot:
 * a bad value stops the server with a message.
 *
 * - LLM_BASE_URL, LLM_API_KEY, LLM_MODEL: an OpenAI-compatible chat-completions endpoint
 *   (hosted, or self-hosted such as vLLM or Ollama). Unset: the built-in engine answers.
 * - LLM_ALLOW_ENTERPRISE_DATA: file names, metadata and vault data may reach that model.
 * - GPT_MONTHLY_TOKENS: an enterprise's token budget a calendar month (both engines count).
 * - GPT_USER_PER_MINUTE, GPT_ENTERPRISE_PER_MINUTE: questions a minute.
 */
export type LlmEnv = {
  baseUrl: string | undefined;
  apiKey: string | undefined;
  model: string;
  allowEnterpriseData: boolean;
  monthlyTokens: number;
  userPerMinute: number;
  enterprisePerMinute: number;
  /** Seconds between SSE keep-alive comments. */
  keepAliveMs: number;
};

export function readLlmEnv(source: NodeJS.ProcessEnv, problems: string[]): LlmEnv {
  const baseUrl = (source.LLM_BASE_URL || '').replace(/\/+$/, '') || undefined;
  if (baseUrl && !/^https?:\/\/[^\s]+$/.test(baseUrl)) problems.push(`LLM_BASE_URL must be an http(s) URL such as https://api.openai.com/v1, got "${baseUrl}"`);
  const model = source.LLM_MODEL || '';
  if (baseUrl && !model) problems.push('LLM_MODEL must name the model when LLM_BASE_URL is set');
  const whole = (name: string, fallback: number, min: number) => {
    const text = source[name] ?? String(fallback);
    const n = Number(text);
    if (!Number.isInteger(n) || n < min) problems.push(`${name} must be a whole number ≥ ${min}, got "${text}"`);
    return n;
  };
  const flag = source.LLM_ALLOW_ENTERPRISE_DATA;
  if (flag !== undefined && flag !== '' && !['true', 'false', '1', '0'].includes(flag)) problems.push('LLM_ALLOW_ENTERPRISE_DATA must be true or false');
  return {
    baseUrl,
    apiKey: source.LLM_API_KEY || undefined,
    model,
    allowEnterpriseData: flag === 'true' || flag === '1',
    monthlyTokens: whole('GPT_MONTHLY_TOKENS', 2_000_000, 0),
    userPerMinute: whole('GPT_USER_PER_MINUTE', 20, 1),
    enterprisePerMinute: whole('GPT_ENTERPRISE_PER_MINUTE', 120, 1),
    keepAliveMs: whole('GPT_KEEPALIVE_MS', 15_000, 100),
  };
}
