import { api, openEventStream } from '@/api/client.ts';
import type { Paged } from '../../../core/api-types.ts';
import type { GptAttachment, GptConversationDetail, GptConversationDto, GptInfo, GptStreamEvent } from '../../../core/gpt.ts';
import { readEventData } from './sse.ts';

/** The /api/v1/gpt calls. */
export const fetchGptInfo = (signal?: AbortSignal) => api.get<GptInfo>('/v1/gpt/info', { signal });
export const fetchConversations = (query: { page: number; page_size: number; keyword?: string }, signal?: AbortSignal) =>
  api.get<Paged<GptConversationDto>>('/v1/gpt/conversations', { query, signal });
export const fetchConversation = (id: number, signal?: AbortSignal) => api.get<GptConversationDetail>(`/v1/gpt/conversations/${id}`, { signal });
export const createConversation = () => api.post<{ id: number }>('/v1/gpt/conversations');
export const renameConversation = (id: number, title: string) => api.put<{ id: number; title: string }>(`/v1/gpt/conversations/${id}`, { title });
export const deleteConversation = (id: number) => api.delete<{ id: number }>(`/v1/gpt/conversations/${id}`);

export type AnswerRequest = { kind: 'ask'; content: string; attachment?: GptAttachment } | { kind: 'regenerate' } | { kind: 'edit'; content: string };

/** Asks (or asks again) and calls `onEvent` for every event of the answer until it ends; aborting `signal` stops it here and on the server. */
export async function streamAnswer(id: number, request: AnswerRequest, onEvent: (event: GptStreamEvent) => void, signal: AbortSignal): Promise<void> {
  const base = `/v1/gpt/conversations/${id}`;
  const body =
    request.kind === 'ask'
      ? await openEventStream('POST', `${base}/messages`, { body: { content: request.content, ...(request.attachment ? { attachment: request.attachment } : {}) }, signal })
      : request.kind === 'regenerate'
        ? await openEventStream('POST', `${base}/regenerate`, { signal })
        : await openEventStream('PUT', `${base}/messages/last`, { body: { content: request.content }, signal });
  for await (const data of readEventData(body, signal)) {
    try {
      onEvent(JSON.parse(data) as GptStreamEvent);
    } catch {
      // A line that is not JSON is not ours; skip it.
    }
  }
}
