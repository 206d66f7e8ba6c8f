import type { GptCitation, GptEngineName } from '../../core/gpt.ts';
import type { LlmEnv } from './config.ts';
import type { HelpLocale } from './help-content.ts';
import { bestSentences, type HelpIndex, type HelpPassage } from './help-index.ts';
import { maskSensitive } from './mask.ts';
import { TOOLS, toolByName, type ToolContext, type ToolResult } from './tools.ts';

/**
 * One interface, two engines. An engine turns a question (with the conversation
 * so far and the caller's tool context) into a stream of events: text deltas, the tools it
 * runs, the citations its answer rests on, and the tokens it used. The route turns those
 * into Server-Sent Events and stores the answer; aborting `signal` stops the engine and
 * whatever it waits on (the outside model's HTTP request included).
 */
export type EngineEvent =
  | { type: 'delta'; text: string }
  | { type: 'tool'; name: string }
  | { type: 'citations'; citations: GptCitation[] }
  | { type: 'usage'; promptTokens: number; completionTokens: number };

export type EngineInput = {
  question: string;
  history: Array<{ role: 'user' | 'assistant'; content: string }>;
  ctx: ToolContext;
  locale: HelpLocale;
  signal: AbortSignal;
};

export type Engine = {
  name: GptEngineName;
  model: string | null;
  /** Whether file names, metadata and vault data may reach it. */
  sendsEnterpriseData: boolean;
  answer(input: EngineInput): AsyncIterable<EngineEvent>;
};

/** A rough token count: a CJK character is about one token, other text about four characters one. */
export function estimateTokens(text: string): number {
  const cjk = text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu)?.length ?? 0;
  return cjk + Math.ceil((text.length - cjk) / 4);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    }, { once: true });
  });
}

/** Pieces of about `size` characters that end on a word or CJK character boundary. */
function* chunks(text: string, size: number): Generator<string> {
  let i = 0;
  const chars = Array.from(text);
  while (i < chars.length) {
    let end = Math.min(chars.length, i + size);
    // Latin text: carry on to the end of the word so a delta never splits one.
    while (end < chars.length && /[A-Za-z0-9]/.test(chars[end - 1] as string) && /[A-Za-z0-9]/.test(chars[end] as string) && end - i < size * 3) end += 1;
    yield chars.slice(i, end).join('');
    i = end;
  }
}

// ---- built-in -------------------------------------------------------------------------

const DNA_IN_TEXT = /pv[a-z2-7]{20}/;
const QUOTED = /[“"「『'‘]([^”"」』'’]{1,100})[”"」』'’]/u;
const NAMED = /(?:named|called|名为|叫做?|名称包含|名前が?|という名前の?)\s*([^\s，。？?、！!]{1,100})/u;

type Plan = Array<{ tool: string; args: Record<string, unknown> }>;

/** The tools a question calls for, by plain rules in the three languages. */
export function planTools(question: string, ctx: ToolContext): Plan {
  const q = question.normalize('NFKC').toLowerCase();
  const plan: Plan = [];
  if (ctx.attachment) plan.push({ tool: 'explain_verification', args: {} });
  const dna = DNA_IN_TEXT.exec(q)?.[0];
  if (dna) plan.push({ tool: 'proof_status', args: { dna } });
  const vault = /vault|保险箱|保險箱|金庫/.test(q);
  if (vault && /activit|log|who|recent|日志|记录|操作|动态|谁|ログ|履歴|記録|誰/.test(q)) plan.push({ tool: 'vault_activity', args: {} });
  if (/application|\bapps?\b|外部应用|应用|アプリ/.test(q) && /state|status|connect|interrupt|abnormal|alarm|running|状态|状態|连接|中断|异常|告警|接続|異常|アラーム/.test(q)) plan.push({ tool: 'application_states', args: {} });
  const creditWord = /credit|积分|積分|クレジット|ポイント/.test(q);
  if (creditWord && /\bmy\b|balance|left|\bhave\b|history|how many|spent|余额|剩|还有|多少|我的|记录|明细|消耗了|残高|履歴|残り|いくら|私の|何ポイント/.test(q)) plan.push({ tool: 'credit_balance', args: {} });
  const thing = /proof|asset|registration|register|file|certificate|存证|资产|登记|证书|文件|証明|資産|登録|ファイル/.test(q);
  const keyword = QUOTED.exec(question)?.[1]?.trim() ?? NAMED.exec(question)?.[1]?.trim();
  if (!dna && !ctx.attachment) {
    // A quoted phrase is a name to look for only when the question asks to find something (a quoted §8 message is a help question).
    if (keyword && /find|search|look up|named|called|查找|搜索|找|名为|叫|検索|探|という名前/.test(q)) plan.push({ tool: 'search_my_registrations', args: { keyword } });
    else if (/latest|newest|\blast\b|最新|最后|最後|直近/.test(q) && thing) plan.push({ tool: 'search_my_registrations', args: { limit: 1 } });
    else if (/recent|最近/.test(q) && thing) plan.push({ tool: 'search_my_registrations', args: { limit: 5 } });
    else if (/\bmy (assets|files|registrations|proofs|certificates)|我的(资产|文件|登记|存证|证书)|私の(資産|ファイル|登録|証明)/.test(q)) plan.push({ tool: 'search_my_registrations', args: { limit: 5 } });
  }
  return plan;
}

const NO_HELP: Record<HelpLocale, string> = {
  zh: '我在帮助页面中没有找到相关内容。您可以换个说法，或者问我：积分的费用、验证失败的原因、我最新的存证、某个 DNA 的状态。',
  en: 'I did not find this in the help pages. Try other words, or ask me about: what credits cost, why a verification failed, my latest proof, the status of a DNA.',
  ja: 'ヘルプページに該当する内容が見つかりませんでした。言い方を変えるか、クレジットの料金、検証に失敗した理由、最新の証明書、DNA の状態について質問してください。',
};
const OPEN: Record<HelpLocale, string> = { zh: '打开页面', en: 'Open the page', ja: 'ページを開く' };
const SEE_ALSO: Record<HelpLocale, string> = { zh: '另见', en: 'See also', ja: '関連' };
const FROM_HELP: Record<HelpLocale, string> = { zh: '来自帮助页面', en: 'From the help pages', ja: 'ヘルプページより' };

function helpCitation(p: HelpPassage): GptCitation {
  return { kind: 'help', title: p.title, link: p.path };
}

/** The passages worth showing: the best, and others close to it. */
function relevant(passages: HelpPassage[]): HelpPassage[] {
  const top = passages[0]?.score ?? 0;
  return passages.filter((p) => p.score >= top * 0.6);
}

export function builtinEngine(help: HelpIndex, opts: { chunkMs: number }): Engine {
  return {
    name: 'builtin',
    model: null,
    sendsEnterpriseData: false,
    async *answer({ question, ctx, locale, signal }) {
      const plan = planTools(question, ctx);
      const parts: string[] = [];
      const citations: GptCitation[] = [];
      for (const step of plan) {
        const tool = toolByName(step.tool)!;
        yield { type: 'tool', name: tool.name };
        const result = await tool.run(ctx, step.args);
        parts.push(result.text);
        citations.push(...result.citations);
        if (signal.aborted) return;
      }
      // Help passages answer questions about the product; a question about the caller's data is answered by the tools alone.
      const passages = plan.length ? [] : relevant(help.search(locale, question, 3)).slice(0, 2);
      {
        const [first, ...rest] = passages;
        if (first) {
          const open = first.path ? `\n\n[${OPEN[locale]}](${first.path})` : '';
          parts.push(`**${first.title}** · _${FROM_HELP[locale]}_\n\n${bestSentences(first.body, question, plan.length ? 2 : 4).join(locale === 'en' ? ' ' : '')}${open}`);
          citations.push(helpCitation(first));
          if (rest.length) parts.push(`${SEE_ALSO[locale]}: ${rest.map((p) => (p.path ? `[${p.title}](${p.path})` : p.title)).join(' · ')}`);
          citations.push(...rest.map(helpCitation));
        } else if (plan.length === 0) {
          parts.push(NO_HELP[locale]);
        }
      }
      const text = parts.join('\n\n');
      yield { type: 'citations', citations };
      for (const piece of chunks(text, 6)) {
        if (signal.aborted) return;
        yield { type: 'delta', text: piece };
        await sleep(opts.chunkMs, signal);
      }
      yield { type: 'usage', promptTokens: estimateTokens(question) + passages.reduce((n, p) => n + estimateTokens(p.body), 0), completionTokens: estimateTokens(text) };
    },
  };
}

// ---- OpenAI-compatible ----------------------------------------------------------------

type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }> }
  | { role: 'tool'; tool_call_id: string; content: string };

const LANGUAGE_NAME: Record<HelpLocale, string> = { zh: 'Simplified Chinese', en: 'English', ja: 'Japanese' };

/** Reads an SSE body line by line and yields each `data:` payload. */
async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).replace(/\r$/, '');
      buffer = buffer.slice(nl + 1);
      if (line.startsWith('data:')) yield line.slice(5).trim();
    }
  }
  if (buffer.startsWith('data:')) yield buffer.slice(5).trim();
}

const MAX_TOOL_ROUNDS = 4;

/**
 * Any OpenAI-compatible chat-completions endpoint, streaming, with tool calling for the same
 * tools. Everything that leaves is masked (§9 phones and ID numbers) first; the tools run
 * here with the caller's context, redacting file names, metadata and vault data unless the
 * deployment allows them out (LLM_ALLOW_ENTERPRISE_DATA).
 */
export function openaiEngine(help: HelpIndex, llm: LlmEnv, fetchImpl: typeof fetch = fetch): Engine {
  const url = `${llm.baseUrl}/chat/completions`;
  return {
    name: 'openai',
    model: llm.model,
    sendsEnterpriseData: llm.allowEnterpriseData,
    async *answer({ question, history, ctx, locale, signal }) {
      const toolCtx: ToolContext = { ...ctx, redactEnterpriseData: !llm.allowEnterpriseData };
      const tools = TOOLS.filter((t) => t.isAllowed(toolCtx));
      const passages = help.search(locale, question, 3);
      const citations: GptCitation[] = passages.map(helpCitation);
      const system = [
        'You are the assistant of Provena, a platform that registers digital intellectual property on a tamper-evident ledger and issues PDF proof certificates.',
        `Answer in ${LANGUAGE_NAME[locale]}. Use markdown. Answer only from the help passages below and from tool results; if neither covers the question, say so.`,
        "Use the tools for anything about the user's own assets, proofs, credits, vault or an attached proof file. Cite asset names, DNAs and proof dates from tool results, with their links.",
        'Help passages:',
        ...passages.map((p) => `### ${p.title}${p.path ? ` (${p.path})` : ''}\n${p.body}`),
      ].join('\n');
      const messages: ChatMessage[] = [
        { role: 'system', content: maskSensitive(system) },
        ...history.slice(-10).map((m) => ({ role: m.role, content: maskSensitive(m.content) }) as ChatMessage),
        { role: 'user', content: maskSensitive(question) },
      ];
      yield { type: 'citations', citations };
      let promptTokens = 0;
      let completionTokens = 0;
      let reported = false;
      for (let round = 0; round < MAX_TOOL_ROUNDS; round += 1) {
        const response = await fetchImpl(url, {
          method: 'POST',
          signal,
          headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...(llm.apiKey ? { authorization: `Bearer ${llm.apiKey}` } : {}) },
          body: JSON.stringify({
            model: llm.model,
            stream: true,
            stream_options: { include_usage: true },
            messages,
            ...(tools.length ? { tools: tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } })) } : {}),
          }),
        });
        if (!response.ok || !response.body) {
          const detail = await response.text().catch(() => '');
          throw new Error(`LLM endpoint answered ${response.status}: ${detail.slice(0, 200)}`);
        }
        const calls: Array<{ id: string; name: string; arguments: string }> = [];
        let content = '';
        for await (const data of sseData(response.body)) {
          if (data === '[DONE]') break;
          let chunk: { choices?: Array<{ delta?: { content?: string | null; tool_calls?: Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }> } }>; usage?: { prompt_tokens?: number; completion_tokens?: number } };
          try {
            chunk = JSON.parse(data);
          } catch {
            continue;
          }
          if (chunk.usage) {
            promptTokens += chunk.usage.prompt_tokens ?? 0;
            completionTokens += chunk.usage.completion_tokens ?? 0;
            reported = true;
          }
          const delta = chunk.choices?.[0]?.delta;
          if (!delta) continue;
          if (delta.content) {
            content += delta.content;
            yield { type: 'delta', text: delta.content };
          }
          for (const tc of delta.tool_calls ?? []) {
            const i = tc.index ?? calls.length;
            calls[i] ??= { id: '', name: '', arguments: '' };
            const call = calls[i]!;
            if (tc.id) call.id = tc.id;
            if (tc.function?.name) call.name += tc.function.name;
            if (tc.function?.arguments) call.arguments += tc.function.arguments;
          }
        }
        if (!reported) {
          promptTokens += estimateTokens(messages.map((m) => ('content' in m && m.content) || '').join('\n'));
          completionTokens += estimateTokens(content);
        }
        reported = false;
        const made = calls.filter(Boolean);
        if (made.length === 0) break;
        messages.push({ role: 'assistant', content: content || null, tool_calls: made.map((c, i) => ({ id: c.id || `call_${round}_${i}`, type: 'function', function: { name: c.name, arguments: c.arguments } })) });
        for (const [i, call] of made.entries()) {
          const tool = tools.find((t) => t.name === call.name);
          let result: ToolResult | { data: unknown; citations: GptCitation[] };
          if (!tool) result = { data: { error: `no tool named ${call.name} is available to this user` }, citations: [] };
          else {
            yield { type: 'tool', name: tool.name };
            let args: Record<string, unknown> = {};
            try {
              const parsed = JSON.parse(call.arguments || '{}');
              if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) args = parsed;
            } catch {
              // Arguments the model garbled run as none.
            }
            result = await tool.run(toolCtx, args);
          }
          const fresh = result.citations.filter((c) => !citations.some((x) => x.kind === c.kind && x.title === c.title && x.dna === c.dna));
          if (fresh.length) {
            citations.push(...fresh);
            yield { type: 'citations', citations: [...citations] };
          }
          messages.push({ role: 'tool', tool_call_id: call.id || `call_${round}_${i}`, content: maskSensitive(JSON.stringify(result.data)) });
        }
        if (signal.aborted) return;
      }
      yield { type: 'usage', promptTokens, completionTokens };
    },
  };
}
