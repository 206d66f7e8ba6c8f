import { api } from '@/api/client.ts';

export type BlockDto = { height: number; hash: string; prev_hash: string; tree_size: number; root: string; sealed_at: number; key_id: string; header: string; signature: string; entry_count: number; anchor: { chain_id: number; tx_hash: string; block_number: number } | null };
export type BlockEntryDto = { asset_dna: string; kind: string; enterprise_name: string; registered_at: number; leaf_index: number; leaf_hash: string; record: string };
export type EntryDto = BlockEntryDto & { block: BlockDto | null; inclusion: { tree_size: number; root: string; path: string[] } | null };

export const fetchBlocks = (before?: number) => api.get<{ blocks: BlockDto[]; latest_height: number; tree_size: number }>('/v1/explorer/blocks', { query: { before, limit: 20 } });
export const fetchBlock = (id: string) => api.get<BlockDto>(`/v1/explorer/blocks/${encodeURIComponent(id)}`);
export const fetchBlockEntries = (height: number, page: number) => api.get<BlockEntryDto[]>(`/v1/explorer/blocks/${height}/entries`, { query: { page, page_size: 50 } });
export const fetchEntry = (dna: string) => api.get<EntryDto>(`/v1/explorer/entries/${encodeURIComponent(dna)}`);
